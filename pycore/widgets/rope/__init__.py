"""Widget rope: a 2-D query q at position i and key k at position j (chapter 06's symbols;
the parameters keep the names m and n), each rotated by its position times the frequency theta. The math is pycore.positional (rope, rope_score, rope_demo);
the picture: q and k before and after their rotation as arrows on a grid, each rotation's angle
as an arc, and the score as a function of the offset i - j with the current one marked.
"""
import math
from functools import lru_cache

import numpy as np

from ... import figure, positional

SHIFTS = range(6)            # (m + s, n + s) for s = 0 .. 5
OFFSETS = range(-5, 6)       # the score table: m - n = -5 .. 5
PLANE = 260                  # the plane's side, SVG units
ARC_Q, ARC_K = 0.34, 0.5     # the arcs' radii, as a share of the plane's half side
CURVE_SAMPLES = 24           # the score curve has at least this many samples per period

PARAMS = {
    "q": {"type": "vector", "length": 2, "min": -2.0, "max": 2.0, "default": [1.0, 0.0],
          "help": "the query before rotation"},
    "k": {"type": "vector", "length": 2, "min": -2.0, "max": 2.0, "default": [0.6, 0.8],
          "help": "the key before rotation"},
    "m": {"type": "int", "min": 0, "max": 30, "default": 2, "help": "position of the query"},
    "n": {"type": "int", "min": 0, "max": 30, "default": 3, "help": "position of the key"},
    "theta": {"type": "float", "min": 0.05, "max": 1.0, "default": 0.5, "step": 0.05,
              "help": "rotation per position, in radians"},
}
MAX_OFFSET = PARAMS["m"]["max"] - PARAMS["n"]["min"]  # the score chart covers every m - n


def _scores(q, k, offsets, theta):
    """rope(q, o) . rope(k, 0) for many offsets o at once (the key stays at position 0)."""
    qs = positional.rope(np.tile(q, (len(offsets), 1)), offsets, theta)  # (len(offsets), 2)
    return qs @ positional.rope(k, 0, theta)  # (len(offsets),)


def curve(q, k, theta):
    """The score against m - n over every offset the sliders reach: a function of q, k and
    theta only (moving m and n leaves this part as it is). Sampled in steps of 1, 1/2 or 1/4
    so that a period has CURVE_SAMPLES samples; the crosshair stops every 5 offsets."""
    step = next((s for s in (1.0, 0.5) if s <= 2 * math.pi / (CURVE_SAMPLES * theta)), 0.25)
    xs = np.arange(-MAX_OFFSET, MAX_OFFSET + 1e-9, step)  # (2 MAX_OFFSET / step + 1,)
    amp = max(float(np.linalg.norm(q) * np.linalg.norm(k)), 1e-9)  # |q||k|: the swing
    chart = figure.line_chart(
        [{"name": "score", "x": xs.tolist(), "y": _scores(q, k, xs, theta).tolist()}],
        width=420, height=180, margin=(14, 12, 34, 44), x_domain=(-MAX_OFFSET, MAX_OFFSET),
        y_domain=(-amp, amp), x_ticks=list(range(-30, 31, 10)), x_label="i − j",
        y_label="q_i·k_j", probes=2 * MAX_OFFSET // 5 + 1,
        say=lambda x, y: f"i − j = {x:.0f}：分数 {figure.fmt(y, 4)}")
    return {"chart": chart, "_amp": amp}


def _shifted_and_offsets(q, k, m, n, theta):
    """positional.rope_score(q, k, m + s, n + s) for s in SHIFTS and (q, k, o, 0) for o in
    OFFSETS: every q and k rotated in one rope() call each (the same rotations, row by row),
    then the same np.dot per pair. 17 pairs one by one were 34 rope() calls per view."""
    q_pos = [m + s for s in SHIFTS] + list(OFFSETS)
    k_pos = [n + s for s in SHIFTS] + [0] * len(OFFSETS)
    qs = positional.rope(np.tile(q, (len(q_pos), 1)), q_pos, theta)  # (17, 2)
    ks = positional.rope(np.tile(k, (len(k_pos), 1)), k_pos, theta)  # (17, 2)
    scores = [float(np.dot(a, b)) for a, b in zip(qs, ks)]
    return scores[:len(SHIFTS)], scores[len(SHIFTS):]


@lru_cache(maxsize=8)
def _plane(extent):
    """The grid of a plane of this extent (three lines each side of an axis); callers must not
    modify it."""
    return figure.plane(extent, size=PLANE, step=extent / 3)


def picture(q, k, q_rot, k_rot, m, n, theta):
    """q and k (dashed) and their rotations on one grid, each rotation's angle as an arc. The
    grid has three lines each side of an axis, spaced 0.5, 1 or 1.5: the extent follows the
    longest vector, the grid's SVG geometry stays the same."""
    longest = max(float(np.linalg.norm(q)), float(np.linalg.norm(k)), 1e-9)
    extent = 1.5 * math.ceil(1.15 * longest / 1.5)
    grid, to = _plane(extent)
    c = PLANE / 2
    def arrow(v):
        a = figure.arrow(c, c, *to(*v))
        # a zero vector is an arrow without a head: its label sits at the origin
        return {"tx": a["x2"], "ty": a["y2"], **a}
    angle = lambda v: math.atan2(v[1], v[0])  # noqa: E731
    pad = 20  # room for the labels of arrows that reach the edge
    return {"grid": grid, "grid_step": extent / 3,
            "view_box": f"{-pad} {-pad} {PLANE + 2 * pad} {PLANE + 2 * pad}",
            "q0": arrow(q), "k0": arrow(k), "q": arrow(q_rot), "k": arrow(k_rot),
            "arc_q": figure.turn_arc(c, c, ARC_Q * c, angle(q), m * theta),
            "arc_k": figure.turn_arc(c, c, ARC_K * c, angle(k), n * theta)}


def rotated(q, k, m, n, theta, curve):
    """Everything that moves with the positions: the rotations, the scores, the picture and
    the current offset on the curve."""
    demo = positional.rope_demo(q, k, m, n, theta)
    shifted, by_offset = _shifted_and_offsets(q, k, m, n, theta)
    shift_spread = float(np.max(shifted) - np.min(shifted))
    between = (demo["angle_q"] - demo["angle_k"] + 180.0) % 360.0 - 180.0
    amp, plot = curve["_amp"], curve["chart"]["plot"]
    now = {"x": figure.r(figure.scale(m - n, -MAX_OFFSET, MAX_OFFSET, plot["x"],
                                      plot["x"] + plot["w"])),
           "y": figure.r(figure.scale(demo["score"], -amp, amp, plot["y"] + plot["h"], plot["y"]))}
    return {
        "q": list(q), "k": list(k), "m": m, "n": n, "theta": theta,
        "theta_deg": float(np.degrees(theta)),
        "m_theta_deg": float(np.degrees(m * theta)), "n_theta_deg": float(np.degrees(n * theta)),
        "q_rot": demo["q_rot"], "k_rot": demo["k_rot"],
        "angle_q": demo["angle_q"], "angle_k": demo["angle_k"], "angle_between": between,
        "offset": demo["offset"], "score": demo["score"],
        "score_unrotated": demo["score_unrotated"],
        "shifts": list(SHIFTS), "shift_m": [m + s for s in SHIFTS], "shift_n": [n + s for s in SHIFTS],
        "shifted": [shifted],  # (1, 6) for a table row
        "shift_spread": shift_spread,  # printed in e-notation by the page
        "offsets": list(OFFSETS), "by_offset": [by_offset],  # (1, 11)
        # the offset table's current column
        "offset_class": ["cur" if o == m - n else "" for o in OFFSETS],
        "norm_product": float(np.linalg.norm(q) * np.linalg.norm(k)),  # |q||k|: the curve's amplitude
        "fig": picture(q, k, demo["q_rot"], demo["k_rot"], m, n, theta),
        "now": now,
        # the shift buttons: m and n move together while both stay in their sliders' range
        "shift_down_off": str(not (m > PARAMS["m"]["min"] and n > PARAMS["n"]["min"])).lower(),
        "shift_up_off": str(not (m < PARAMS["m"]["max"] and n < PARAMS["n"]["max"])).lower(),
    }


# Moving the positions m and n (sliders, the shift buttons) leaves the score curve as it is:
# it is computed and sent again only when q, k or theta change.
PARTS = (curve, rotated)
