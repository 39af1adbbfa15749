"""Widget positional-encoding: the sinusoidal table as a heatmap, one pair of dimensions as
curves, PE(t).PE(t+δ) against the offset δ for two starting positions (the parameters p and k
are chapter 06's t and δ), and the shift-as-rotation check. The math is pycore.positional; the
pictures are pycore.figure's (a raster heatmap, line charts).

Positions 0 .. N_POS-1 are drawn. `pair` is clamped to d_model/2 - 1 (the slider's upper end
follows d_model: `max_pair`). The two check numbers dot_diff and rot_error (~1e-15) are printed
in e-notation by the page; their last digits depend on the platform's sin/cos (CPython at build
time, Pyodide live), so the tests check their size, not their digits.

The view comes in parts, each a function of a few parameters (PARTS, pycore/view_parts.py):
moving k brings back the 2 x 2 block and one check number, not the 40 x d heatmap.
"""
from functools import lru_cache

import numpy as np

from ... import figure, positional

N_POS = 40          # positions in the heatmap and the curves
CURVE_SAMPLES = 24  # a curve has at least this many samples per period (and one per position)
CURVE_PROBES = 14   # the curves' crosshair stops at every third position (each row of the
                    # heatmap says the pair's values at every position already)
TABLE_ROWS = 8      # positions in the accessible table
SHOWN_KS = 8        # offsets k = 0 .. 7 listed as numbers (the plot goes to N_POS - 1)
HEAT = {"width": 320, "height": 200, "label_w": 40, "label_h": 26}  # the heatmap's plot, SVG units

KS = np.arange(N_POS)  # (N_POS,) offsets of the dot-product curves
# The charts get plain lists: figure's per-point arithmetic on Python floats is several times
# faster than on NumPy scalars. Each point of a chart costs a few microseconds in Pyodide, on
# every move of a slider: that is why a curve has only as many samples as its frequency needs.
KS_LIST = KS.tolist()

PARAMS = {
    "d_model": {"type": "int", "min": 4, "max": 128, "default": 16, "step": 4,
                "help": "model dimension (even; the slider moves in steps of 4)"},
    "pair": {"type": "int", "min": 0, "max": 63, "default": 0,
             "help": "dimension pair i (dims 2i, 2i+1) drawn as curves; at most d_model/2 - 1"},
    "p": {"type": "int", "min": 1, "max": 500, "default": 10,
          "help": "second starting position of the dot-product curve (the first is 0)"},
    "k": {"type": "int", "min": 1, "max": 64, "default": 3,
          "help": "offset δ of the rotation check PE(t + δ) = R(δ) PE(t)"},
}

def _table(pe, d_model, pair):
    """First TABLE_ROWS positions at dims 0, 1 (fastest), 2i, 2i+1 (chosen), d-2, d-1 (slowest)."""
    cols = [0, 1, 2 * pair, 2 * pair + 1, d_model - 2, d_model - 1]
    return pe[:TABLE_ROWS, cols], [f"维 {c}" for c in cols]  # (TABLE_ROWS, 6)


def curve_step(omega):
    """The curves' sampling step for angular frequency omega: 1, 1/2 or 1/4 of a position,
    the largest giving CURVE_SAMPLES per period (a fast pair needs 1/4, a slow one 1)."""
    for step in (1.0, 0.5, 0.25):
        if step <= 2 * np.pi / (CURVE_SAMPLES * omega):
            return step
    return 0.25


def constant():
    return {"n_pos": N_POS, "ks": KS}


def dims(d_model):
    """What d_model alone decides: the table (the heatmap), the dot products from position 0
    and their chart; for the parts after it, the table, frequencies and wavelengths."""
    if d_model % 2:
        raise ValueError(f"d_model must be even, not {d_model}")
    pe = positional.sinusoidal(N_POS, d_model)
    wavelengths = positional.wavelengths(d_model)
    dots_0 = positional.offset_dots(d_model, KS, p=0)
    return {
        "d_model": d_model, "max_pair": d_model // 2 - 1, "half_d": d_model / 2,
        # positions down, dimensions across, on the diverging map over [-1, 1]
        "heat": figure.heatmap(pe, form="raster", limit=1.0, row_name="位置", col_name="维度",
                               **HEAT),
        "slowest_wavelength": float(wavelengths[-1]),
        "dots_0": dots_0, "dot_k0": float(dots_0[0]),
        # the dot products from position 0, with the chart's axes and crosshair: they depend on
        # d alone; the curve from p (`start`) is drawn on the same axes
        "dots_chart": dots_chart(d_model, dots_0, [dots_0.tolist()], probes=N_POS),
        "_pe": pe, "_frequencies": positional.frequencies(d_model),
        "_wavelengths": wavelengths, "_dots_0": dots_0,
    }


def dots_chart(d_model, dots_0, series, probes=0):
    """PE(t).PE(t+δ) against δ on axes from 0 (or the lowest value) to d/2, its value at δ = 0
    (dots_0: the dot products from position 0, which fix the axis' low end)."""
    say = lambda k, y: f"δ = {k:.0f}：点积 {figure.fmt(y, 4)}（与起点无关）"  # noqa: E731
    return figure.line_chart(
        [{"x": KS_LIST, "y": y} for y in series],
        width=420, height=220, margin=(14, 12, 34, 40), x_domain=(0, N_POS - 1),
        y_domain=(min(0.0, float(dots_0.min())), d_model / 2),
        x_label="偏移 δ", y_label="PE(t)·PE(t+δ)", probes=probes, say=say)


# Kept here, not as a part: a part's key holds d_model, and this chart is a function of the
# frequency alone (pair 0 turns at omega = 1 for every d), so a sweep of d_model at pair 0 draws
# it once. 128: every pair (up to 63) of a few values of d.
@lru_cache(maxsize=128)
def pair_curves(omega):
    """The chart of sin(omega p) and cos(omega p)."""
    step = curve_step(omega)
    xs = np.arange(0, N_POS - 1 + 1e-9, step)  # (39 / step + 1,) positions of the samples
    sin, cos = np.sin(omega * xs).tolist(), np.cos(omega * xs).tolist()
    per_pos = round(1 / step)  # samples per position: the probes sit on whole positions
    say = lambda x, y: (f"位置 {x:.0f}：sin {figure.fmt(y, 3)}，"  # noqa: E731
                        f"cos {figure.fmt(cos[round(x) * per_pos], 3)}")
    curve_x = xs.tolist()
    return curve_x, figure.line_chart(
        [{"name": "sin", "x": curve_x, "y": sin}, {"name": "cos", "x": curve_x, "y": cos}],
        width=420, height=232, margin=(14, 12, 34, 40), x_domain=(0, N_POS - 1),
        y_domain=(-1, 1), x_label="位置 t", y_label="PE", probes=CURVE_PROBES, say=say)


def chosen(dims, pair):
    """What the pair (at most d_model/2 - 1) decides: its curves, band and table columns."""
    d_model = dims["d_model"]
    pair = min(pair, d_model // 2 - 1)
    pe = dims["_pe"]
    omega, wavelength = float(dims["_frequencies"][pair]), float(dims["_wavelengths"][pair])
    table, table_cols = _table(pe, d_model, pair)
    curve_x, curves = pair_curves(omega)
    cell_w = HEAT["width"] / d_model
    pair_pe = pe[:, 2 * pair:2 * pair + 2].tolist()  # (N_POS, 2)
    return {
        "pair": pair, "pair_dims": f"{2 * pair}, {2 * pair + 1}",
        "omega": omega, "wavelength": wavelength,
        "turns": (N_POS - 1) / wavelength,
        "curve_x": curve_x, "curves": curves,
        # the pair's two columns framed in the heatmap; each row says the pair's values
        "pair_band": {"x": figure.r(HEAT["label_w"] + 2 * pair * cell_w), "y": HEAT["label_h"],
                      "w": figure.r(2 * cell_w), "h": HEAT["height"]},
        "heat_says": [f"位置 {p}：维 {2 * pair} = {figure.fmt(a, 3)}，"
                      f"维 {2 * pair + 1} = {figure.fmt(b, 3)}" for p, (a, b) in enumerate(pair_pe)],
        "table": table, "table_cols": table_cols,
    }


def start(dims, p):
    """What the second starting position p decides: its dot products and their curve."""
    d_model, dots_0 = dims["d_model"], dims["_dots_0"]
    dots_p = positional.offset_dots(d_model, KS, p=p)
    return {
        "p": p, "dots_p": dots_p,
        "dots": [dots_0[:SHOWN_KS], dots_p[:SHOWN_KS]],  # (2, SHOWN_KS) for the table
        "dot_diff": float(np.max(np.abs(dots_0 - dots_p))),
        "dots_p_path": dots_chart(d_model, dots_0, [dots_p.tolist()])["paths"][0]["d"],
    }


def offset(dims, k):
    return {"k": k, "rot_error": positional.rotation_error(k, dims["d_model"], n_pos=N_POS)}


def block(dims, chosen, k):
    pair = chosen["pair"]
    rot = positional.rotation(k, dims["d_model"])
    # .T -> (2, 2): the chapter writes R(k) acting on the column (sin, cos) of a pair
    return {"rot_block": rot[2 * pair:2 * pair + 2, 2 * pair:2 * pair + 2].T}


PARTS = (constant, dims, chosen, start, offset, block)
