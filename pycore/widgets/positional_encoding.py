"""Widget positional-encoding: the sinusoidal table as a heatmap, one pair of dimensions as
curves, PE(p).PE(p+k) against k for two starting positions, and the shift-as-rotation check.
The math is pycore.positional; this module only picks what the page shows.

Positions 0 .. N_POS-1 are drawn. `pair` is clamped to d_model/2 - 1 (the slider's range
follows d_model). The two check numbers dot_diff and rot_error (~1e-15) are printed in
e-notation by the page; their last digits depend on the platform's sin/cos (CPython at build
time, Pyodide live), so the tests check their size, not their digits.

The view comes in parts, each a function of a few parameters (PARTS). Without `shown` it is
the whole view (the build, the tests, the page's first live update). The page passes
`shown`, the parameters of what it displays, and gets only the parts whose parameters differ:
moving k brings back the 2 x 2 block and one check number, not the 40 x d heatmap.
"""
from functools import lru_cache

import numpy as np

from .. import positional

N_POS = 40          # positions in the heatmap and the curves
CURVE_STEP = 0.25   # the curves are sampled between integer positions too
TABLE_ROWS = 8      # positions in the accessible table
SHOWN_KS = 8        # offsets k = 0 .. 7 listed as numbers (the plot goes to N_POS - 1)
HEAT_LEVELS = 50    # the heatmap's shades per sign: |PE| to the nearest 1/50

CURVE_X = np.arange(0, N_POS - 1 + 1e-9, CURVE_STEP)  # (157,) positions of the curve samples
KS = np.arange(N_POS)  # (N_POS,) offsets of the dot-product curves

PARAMS = {
    "d_model": {"type": "int", "min": 4, "max": 128, "default": 16,
                "help": "model dimension (even; the slider moves in steps of 4)"},
    "pair": {"type": "int", "min": 0, "max": 63, "default": 0,
             "help": "dimension pair i (dims 2i, 2i+1) drawn as curves; at most d_model/2 - 1"},
    "p": {"type": "int", "min": 1, "max": 500, "default": 10,
          "help": "second starting position of the dot-product curve (the first is 0)"},
    "k": {"type": "int", "min": 1, "max": 64, "default": 3,
          "help": "offset of the rotation check PE(p) R(k) = PE(p + k)"},
}

# What the page already displays (a dict of d_model, pair, p, k) is an input of the view, not a
# block parameter: it is never in a block or a link.
INPUTS = ("shown",)


@lru_cache(maxsize=8)
def tables(d_model):
    """What depends on d_model alone: (pe (N_POS, d), fine (len(CURVE_X), d), frequencies,
    wavelengths, dots from position 0 (N_POS,)). Cached: a slider for p, k or the pair
    leaves d_model as it is."""
    out = (positional.sinusoidal(N_POS, d_model), positional.encode(CURVE_X, d_model),
           positional.frequencies(d_model), positional.wavelengths(d_model),
           positional.offset_dots(d_model, KS, p=0))
    for a in out:
        a.flags.writeable = False
    return out


def heat(pe):
    """The heatmap's shades: PE in fiftieths, rounded, as integers from -50 to 50 (sign ->
    colour, |h| / 50 -> opacity). The page draws one path per shade, so the 40 x d cells cost
    at most 100 elements whatever d is; the numbers themselves are in the table."""
    return np.rint(pe * HEAT_LEVELS).astype(int)  # (N_POS, d_model)


def _table(pe, d_model, pair):
    """First TABLE_ROWS positions at dims 0, 1 (fastest), 2i, 2i+1 (chosen), d-2, d-1 (slowest)."""
    cols = [0, 1, 2 * pair, 2 * pair + 1, d_model - 2, d_model - 1]
    return pe[:TABLE_ROWS, cols], [f"维 {c}" for c in cols]  # (TABLE_ROWS, 6)


def constant_part():
    return {"n_pos": N_POS, "heat_levels": HEAT_LEVELS, "curve_x": CURVE_X, "ks": KS}


def d_part(d_model):
    pe, _, _, wavelengths, dots_0 = tables(d_model)
    return {
        "d_model": d_model, "max_pair": d_model // 2 - 1, "half_d": d_model / 2,
        "heat": heat(pe), "slowest_wavelength": float(wavelengths[-1]),
        "dots_0": dots_0, "dot_k0": float(dots_0[0]),
    }


def pair_part(d_model, pair):
    pe, fine, frequencies, wavelengths, _ = tables(d_model)
    wavelength = float(wavelengths[pair])
    table, table_cols = _table(pe, d_model, pair)
    return {
        "pair": pair, "pair_dims": f"{2 * pair}, {2 * pair + 1}",
        "omega": float(frequencies[pair]), "wavelength": wavelength,
        "turns": (N_POS - 1) / wavelength,
        "curve_sin": fine[:, 2 * pair], "curve_cos": fine[:, 2 * pair + 1],
        "table": table, "table_cols": table_cols,
    }


def p_part(d_model, p):
    dots_0 = tables(d_model)[4]
    dots_p = positional.offset_dots(d_model, KS, p=p)
    return {
        "p": p, "dots_p": dots_p,
        "dots": [dots_0[:SHOWN_KS], dots_p[:SHOWN_KS]],  # (2, SHOWN_KS) for the table
        "dot_diff": float(np.max(np.abs(dots_0 - dots_p))),
    }


def k_part(d_model, k):
    return {"k": k, "rot_error": positional.rotation_error(k, d_model, n_pos=N_POS)}


def block_part(d_model, pair, k):
    block = positional.rotation(k, d_model)[2 * pair:2 * pair + 2, 2 * pair:2 * pair + 2]  # (2, 2)
    # .T -> (2, 2): the chapter writes R(k) acting on the column (sin, cos) of a pair
    return {"rot_block": block.T}


# (the parameters a part depends on, the part); a part without parameters never changes
PARTS = [
    ((), constant_part),
    (("d_model",), d_part),
    (("d_model", "pair"), pair_part),
    (("d_model", "p"), p_part),
    (("d_model", "k"), k_part),
    (("d_model", "pair", "k"), block_part),
]


def view(d_model, pair, p, k, shown=None):
    if d_model % 2:
        raise ValueError(f"d_model must be even, not {d_model}")
    now = {"d_model": d_model, "pair": min(pair, d_model // 2 - 1), "p": p, "k": k}
    if not isinstance(shown, dict):
        shown = None
    out = {}
    for names, part in PARTS:
        if shown is None or any(shown.get(name) != now[name] for name in names):
            out.update(part(*(now[name] for name in names)))
    return out
