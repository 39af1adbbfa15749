"""Dot-product variance: the sampling recipe, measured variances, histogram counts."""
import math

import numpy as np
import pytest

from pycore import variance as V


def test_samples_follow_the_documented_recipe():
    raw, scaled = V.dot_samples(8, n=50, seed=11)
    rng = np.random.default_rng(11)
    q = rng.standard_normal((50, 8))
    k = rng.standard_normal((50, 8))
    for s in range(50):
        dot = sum(q[s, i] * k[s, i] for i in range(8))
        assert raw[s] == pytest.approx(dot)
        assert scaled[s] == pytest.approx(dot / math.sqrt(8))


@pytest.mark.parametrize("d_k", [4, 64, 1024])
def test_variance_is_d_k_then_one(d_k):
    demo = V.variance_demo(d_k, n=2000, seed=0)
    # Var(q.k) = d_k for independent standard normal entries; the sample is within 15 %
    assert demo["var_raw"] == pytest.approx(d_k, rel=0.15)
    assert demo["var_scaled"] == pytest.approx(1.0, rel=0.15)
    mean = sum(demo["raw"]) / 2000
    assert demo["var_raw"] == pytest.approx(sum((x - mean) ** 2 for x in demo["raw"]) / 2000)


def test_histogram_by_counting():
    values = [-3.0, -1.0, -0.5, 0.0, 0.2, 0.99, 1.0, 2.5, 7.0]
    counts, below, above = V.histogram(values, [-2, -1, 0, 1, 2])
    # bins [-2,-1) [-1,0) [0,1) [1,2]: -1.0 and -0.5 | 0.0 0.2 0.99 | 1.0
    assert counts.tolist() == [0, 2, 3, 1]
    assert (below, above) == (1, 2)


def test_demo_counts_add_up():
    demo = V.variance_demo(16, n=500, seed=3)
    assert len(demo["edges"]) == 33 and demo["edges"][0] == -16 and demo["edges"][-1] == 16
    for key in ("raw", "scaled"):
        total = demo["counts_" + key].sum() + demo["below_" + key] + demo["above_" + key]
        assert total == 500
    assert demo["below_scaled"] == demo["above_scaled"] == 0  # |q.k / 4| < 16 here
    # same seed, same numbers; other seed, other numbers
    again = V.variance_demo(16, n=500, seed=3)
    assert np.array_equal(again["counts_raw"], demo["counts_raw"])
    assert not np.array_equal(V.variance_demo(16, n=500, seed=4)["raw"], demo["raw"])
