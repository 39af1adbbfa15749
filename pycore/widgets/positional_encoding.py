"""Widget positional-encoding: the sinusoidal table as a heatmap, one pair of dimensions as
curves, PE(p).PE(p+k) against k for two starting positions, and the shift-as-rotation check.
The math is pycore.positional; this module only picks what the page shows.

Positions 0 .. N_POS-1 are drawn. `pair` is clamped to d_model/2 - 1 (the slider's range
follows d_model). The two check numbers dot_diff and rot_error (~1e-15) are printed in
e-notation by the page; their last digits depend on the platform's sin/cos (CPython at build
time, Pyodide live), so the tests check their size, not their digits.
"""
import numpy as np

from .. import positional

N_POS = 40          # positions in the heatmap and the curves
CURVE_STEP = 0.25   # the curves are sampled between integer positions too
TABLE_ROWS = 8      # positions in the accessible table
SHOWN_KS = 8        # offsets k = 0 .. 7 listed as numbers (the plot goes to N_POS - 1)

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



def _table(pe, d_model, pair):
    """First TABLE_ROWS positions at dims 0, 1 (fastest), 2i, 2i+1 (chosen), d-2, d-1 (slowest)."""
    cols = [0, 1, 2 * pair, 2 * pair + 1, d_model - 2, d_model - 1]
    return pe[:TABLE_ROWS, cols], [f"维 {c}" for c in cols]  # (TABLE_ROWS, 6)


def view(d_model, pair, p, k):
    if d_model % 2:
        raise ValueError(f"d_model must be even, not {d_model}")
    pair = min(pair, d_model // 2 - 1)
    pe = positional.sinusoidal(N_POS, d_model)  # (N_POS, d_model)
    xs = np.arange(0, N_POS - 1 + 1e-9, CURVE_STEP)
    fine = positional.encode(xs, d_model)  # (len(xs), d_model)
    ks = np.arange(N_POS)
    dots_0 = positional.offset_dots(d_model, ks, p=0)
    dots_p = positional.offset_dots(d_model, ks, p=p)
    dot_diff = float(np.max(np.abs(dots_0 - dots_p)))
    rot_err = positional.rotation_error(k, d_model, n_pos=N_POS)
    block = positional.rotation(k, d_model)[2 * pair:2 * pair + 2, 2 * pair:2 * pair + 2]  # (2, 2)
    block = block.T  # (2, 2): the chapter writes R(k) acting on the column (sin, cos) of a pair
    wavelength = float(positional.wavelengths(d_model)[pair])
    table, table_cols = _table(pe, d_model, pair)
    return {
        "d_model": d_model, "pair": pair, "p": p, "k": k, "n_pos": N_POS,
        "max_pair": d_model // 2 - 1,
        "pe": pe,
        "table": table, "table_cols": table_cols,
        "pair_dims": f"{2 * pair}, {2 * pair + 1}",
        "omega": float(positional.frequencies(d_model)[pair]),
        "wavelength": wavelength, "turns": (N_POS - 1) / wavelength,
        "slowest_wavelength": float(positional.wavelengths(d_model)[-1]),
        "curve_x": xs, "curve_sin": fine[:, 2 * pair], "curve_cos": fine[:, 2 * pair + 1],
        "ks": ks, "dots_0": dots_0, "dots_p": dots_p,
        "dots": [dots_0[:SHOWN_KS], dots_p[:SHOWN_KS]],  # (2, SHOWN_KS) for the table
        "dot_k0": float(dots_0[0]), "half_d": d_model / 2,
        "dot_diff": dot_diff,
        "rot_block": block, "rot_error": rot_err,
    }
