"""Number pieces for the page: mantissa/exponent and count/unit, against values written out."""
import math

import pytest

from pycore.notation import log10, scaled, sci


@pytest.mark.parametrize("x, digits, m, e", [
    (1.65e-4, 3, 1.65, -4),
    (3e-5, 3, 3.0, -5),
    (5.88e21, 2, 5.88, 21),
    (-2500.0, 2, -2.5, 3),
    (9.9996e-5, 3, 1.0, -4),  # rounds up into the next power of ten
    (0.0, 3, 0.0, 0),
    (1.0, 3, 1.0, 0),
])
def test_sci(x, digits, m, e):
    assert sci(x, digits) == {"m": m, "e": e}


def test_sci_round_trips_to_the_shown_precision():
    for x in (6.98771242e-4, 3.4938562e-4, 1.2e23, 7.7e-9):
        p = sci(x, 3)
        assert 1 <= abs(p["m"]) < 10
        assert math.isclose(p["m"] * 10 ** p["e"], x, rel_tol=5e-4)


@pytest.mark.parametrize("x, value, unit", [
    (1.4e12, 1.4, "T"),
    (140e9, 140.0, "B"),
    (7e9, 7.0, "B"),
    (2e6, 2.0, "M"),
    (5e5, 5e5, ""),
    (1e15, 1000.0, "T"),
])
def test_scaled(x, value, unit):
    got = scaled(x)
    assert got["unit"] == unit
    assert math.isclose(got["value"], value)


def test_scaled_picks_the_unit_after_rounding():
    got = scaled(999.999e9)  # would read 1000.00 B
    assert got["unit"] == "T" and f"{got['value']:.2f}" == "1.00"


def test_log10():
    assert log10(1e9) == 9.0
    assert log10(0) is None
