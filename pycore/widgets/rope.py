"""Widget rope: a 2-D query q at position m and key k at position n, each rotated by its
position times the frequency theta. The math is pycore.positional (rope, rope_score, rope_demo);
this module only picks what the page shows: the rotated arrows, the score, the same score
after shifting both positions by s, and the score as a function of the offset m - n.
"""
import numpy as np

from .. import positional

SHIFTS = range(6)            # (m + s, n + s) for s = 0 .. 5
OFFSETS = range(-5, 6)       # the score table: m - n = -5 .. 5
CURVE = np.arange(-12, 12.001, 0.25)  # the score curve, sampled between whole offsets too

PARAMS = {
    "q": {"type": "vector", "length": 2, "min": -2.0, "max": 2.0, "default": [1.0, 0.0],
          "help": "the query before rotation"},
    "k": {"type": "vector", "length": 2, "min": -2.0, "max": 2.0, "default": [0.6, 0.8],
          "help": "the key before rotation"},
    "m": {"type": "int", "min": 0, "max": 30, "default": 2, "help": "position of the query"},
    "n": {"type": "int", "min": 0, "max": 30, "default": 3, "help": "position of the key"},
    "theta": {"type": "float", "min": 0.05, "max": 1.0, "default": 0.5,
              "help": "rotation per position, in radians"},
}



def _scores(q, k, offsets, theta):
    """rope(q, o) . rope(k, 0) for many offsets o at once (the key stays at position 0)."""
    qs = positional.rope(np.tile(q, (len(offsets), 1)), offsets, theta)  # (len(offsets), 2)
    return qs @ positional.rope(k, 0, theta)  # (len(offsets),)


def view(q, k, m, n, theta):
    demo = positional.rope_demo(q, k, m, n, theta)
    shifted = [positional.rope_score(q, k, m + s, n + s, theta) for s in SHIFTS]
    by_offset = [positional.rope_score(q, k, o, 0, theta) for o in OFFSETS]
    curve = _scores(q, k, CURVE, theta)
    shift_spread = float(np.max(shifted) - np.min(shifted))
    between = (demo["angle_q"] - demo["angle_k"] + 180.0) % 360.0 - 180.0
    return {
        "q": list(q), "k": list(k), "m": m, "n": n, "theta": theta,
        "theta_deg": float(np.degrees(theta)),
        "q_rot": demo["q_rot"], "k_rot": demo["k_rot"],
        "angle_q": demo["angle_q"], "angle_k": demo["angle_k"], "angle_between": between,
        "offset": demo["offset"], "score": demo["score"],
        "score_unrotated": demo["score_unrotated"],
        "shifts": list(SHIFTS), "shift_m": [m + s for s in SHIFTS], "shift_n": [n + s for s in SHIFTS],
        "shifted": [shifted],  # (1, 6) for a table row
        "shift_spread": shift_spread,  # printed in e-notation by the page
        "offsets": list(OFFSETS), "by_offset": [by_offset],  # (1, 11)
        "curve_x": CURVE, "curve": curve,
        "norm_product": float(np.linalg.norm(q) * np.linalg.norm(k)),  # |q||k|: the curve's amplitude
    }
