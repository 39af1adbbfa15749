"""How the book writes very small and very large numbers: as pieces a page can show as text.

A widget binds each piece to its own element (digits fixed per element), so a learning rate
1.65e-4 is shown as "1.650 × 10^-4" and 1.4e12 training tokens as "1.40 T".
"""
import math

# (unit, size): a count is written with the largest unit that keeps it >= 1
UNITS = (("T", 1e12), ("B", 1e9), ("M", 1e6))


def sci(x, digits=3):
    """x as {"m": mantissa, "e": exponent} with the mantissa rounded to `digits` decimals.

    The rounding happens before the exponent is chosen, so 9.9996e-5 becomes 1.000 x 10^-4
    (never 10.000 x 10^-5). Zero is {"m": 0.0, "e": 0}.
    """
    mantissa, exponent = f"{float(x):.{digits}e}".split("e")
    return {"m": float(mantissa), "e": int(exponent)}


def scaled(x, digits=2):
    """A count with a unit: 1.4e12 -> {"value": 1.4, "unit": "T"}; below a million, no unit.

    The unit is chosen after rounding, so 999.999e9 is written 1.00 T rather than 1000.00 B.
    """
    for unit, size in UNITS:
        if round(abs(x) / size, digits) >= 1:
            return {"value": x / size, "unit": unit}
    return {"value": float(x), "unit": ""}


def log10(x):
    """log10 for a slider position; 0 and negative numbers have none (None)."""
    return math.log10(x) if x > 0 else None
