"""Widget swin-windows: the patch grid of an image cut into M x M windows (one layer), the
shifted windows of the next layer, the cyclic roll that computes them, and the score counts.

Drawing data: each layer is returned as rectangles ("pieces") of patches that share a window
id, found from the id grid of pycore.swin: a new piece starts wherever the id changes along
the first column (rows) or the first row (columns).
"""
import numpy as np

from .. import swin
from ..vit import grid_shape

LAYERS = ["regular", "shifted", "cyclic"]

PARAMS = {
    "image_size": {"type": "choice", "choices": [224, 256, 384], "default": 224,
                   "help": "side of the square input image in pixels"},
    "P": {"type": "choice", "choices": [4, 8, 16, 32], "default": 4,
          "help": "patch side in pixels"},
    "M": {"type": "int", "min": 2, "max": 16, "default": 7, "help": "window side in patches"},
    "layer": {"type": "choice", "choices": LAYERS, "default": "regular",
              "help": "which windows to draw: this layer, the next (shifted) layer, or the roll"},
}


def runs(line):
    """Start of every run of equal values in a 1-D array, plus its end: [0, ..., len]."""
    line = np.asarray(line)
    starts = np.flatnonzero(line[1:] != line[:-1]) + 1
    return [0, *starts.tolist(), len(line)]


def pieces(ids, colour_of):
    """[[r0, c0, rows, cols, id, colour], ...]: the rectangles of equal id in an (h, w) grid.

    colour_of(id, i, j) -> 0..3 for the piece in row band i and column band j.
    """
    ids = np.asarray(ids)
    row_cuts, col_cuts = runs(ids[:, 0]), runs(ids[0, :])
    out = []
    for i, (r0, r1) in enumerate(zip(row_cuts, row_cuts[1:])):
        for j, (c0, c1) in enumerate(zip(col_cuts, col_cuts[1:])):
            k = int(ids[r0, c0])
            out.append([r0, c0, r1 - r0, c1 - c0, k, colour_of(k, i, j)])
    return out


def band_colour(_, i, j):
    """Four colours in a checkerboard of bands: neighbouring pieces never share one."""
    return 2 * (i % 2) + j % 2


def window_colour(n_cols):
    """Colour of a rolled window by its place (row, column) among the regular windows."""
    def colour(k, *_):
        r, c = divmod(k, n_cols)
        return 2 * (r % 2) + c % 2
    return colour


def view(image_size, P, M, layer):
    h, w = grid_shape(image_size, image_size, P)
    layers = swin.two_layers(h, w, M)
    m, shift = layers["M"], layers["shift"]
    counts = swin.score_counts(h, w, m)
    n_cols = swin.padded(w, m) // m
    drawn = {
        "regular": pieces(layers["regular"], band_colour),
        "shifted": pieces(layers["shifted"], band_colour),
        "cyclic": pieces(layers["cyclic"], window_colour(n_cols)),
    }
    n = counts["n_patches"]
    note = ""
    if m != M:
        note = f"网格只有 {h}×{w}，不比 M = {M} 大：窗口缩小为整个网格（M = {m}），不再移位。"
    elif counts["padded_grid"] != (h, w):
        note = f"M = {m} 不能整除网格边长：网格补齐到 {counts['padded_grid'][0]}×{counts['padded_grid'][1]}（灰色），补齐的空块也参与窗口计算。"
    return {
        "image_size": image_size, "P": P, "M": M, "layer": layer,
        "M_used": m, "shift": shift, "shrunk": m != M,
        "grid_h": h, "grid_w": w,
        "padded_h": counts["padded_grid"][0], "padded_w": counts["padded_grid"][1],
        "n_patches": n, "n_windows": counts["n_windows"],
        "window_tokens": m * m, "window_scores": (m * m) ** 2,
        "global": counts["global"], "windowed": counts["windowed"], "ratio": counts["ratio"],
        "n_over_m2": n / (m * m),
        "n_shifted_groups": int(layers["shifted"].max()) + 1,
        "n_cyclic_windows": len(np.unique(layers["cyclic"])),
        "shifted_pairs": swin.allowed_pairs(layers["shifted"]),
        "note": note,
        "pieces": drawn[layer],
        "borders": drawn["regular"] if layer != "regular" else [],
    }
