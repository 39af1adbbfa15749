"""pycore/rope_scaling.py against values worked out by hand and by a second formula: PI's
angles at s L are the original ones at L; the NTK base keeps the fastest pair and divides the
slowest by exactly s; YaRN's groups counted pair by pair with a plain loop over the turns."""
import math

import numpy as np
import pytest

from pycore import rope_scaling as rs

D, BASE, L = 128, 10000.0, 4096


def test_interpolation_maps_s_l_onto_l():
    theta = BASE ** (-np.arange(0, D, 2) / D)
    for s in (2, 8, 32):
        assert np.allclose(s * L * rs.interpolated(D, BASE, s), L * theta)


def test_ntk_keeps_the_fastest_pair_and_divides_the_slowest_by_s():
    for s in (2, 8, 32):
        th, ntk = BASE ** (-np.arange(0, D, 2) / D), rs.ntk(D, BASE, s)
        assert ntk[0] == 1.0 and th[0] == 1.0
        assert ntk[-1] == pytest.approx(th[-1] / s)
        assert np.all(ntk <= th + 1e-15) and np.all(ntk >= th / s - 1e-15)
    assert rs.ntk_base(D, BASE, 8) == pytest.approx(10000 * 8 ** (128 / 126))


def test_yarn_groups_by_turns_in_training():
    kept = interpolated = 0
    for i in range(D // 2):
        turns = L / (2 * math.pi * BASE ** (2 * i / D))   # L / wavelength
        kept += turns > 32
        interpolated += turns < 1
    g = rs.yarn_ramp(D, BASE, L)
    assert (g == 1).sum() == kept and (g == 0).sum() == interpolated
    th = BASE ** (-np.arange(0, D, 2) / D)
    y = rs.yarn(D, BASE, 8, L)
    assert np.allclose(y[g == 1], th[g == 1]) and np.allclose(y[g == 0], th[g == 0] / 8)
    mid = (g > 0) & (g < 1)
    assert np.all((y[mid] < th[mid]) & (y[mid] > th[mid] / 8))


def test_yarn_temperature():
    assert rs.yarn_temperature(1) == 1.0
    assert rs.yarn_temperature(8) == pytest.approx(1 + 0.1 * math.log(8))
