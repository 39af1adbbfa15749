"""Widget vit-patches: a 224 x 224 photo cut into P x P patches, and the hand-made
"look for similar patches" head (pycore.vit) run from one clicked patch.

The photo's pixels ship beside pycore as raw RGB bytes (pycore/photo224.rgb, written by
`python3 -m bookbuild.photo`), so the same pixels are read in CPython and in Pyodide; a page
fetches them only when it shows this widget (DATA_FILES).
The patch features are computed once per patch size; a click only computes one row.
"""
from functools import lru_cache
from importlib import resources

import numpy as np

from .. import vit

SIZE = 224
TOP = 5  # how many of the most-attended patches the widget lists

DATA_FILES = ("photo224.rgb",)

PARAMS = {
    "P": {"type": "choice", "choices": [8, 16, 32], "default": 16,
          "help": "patch side in pixels"},
    "index": {"type": "int", "min": 0, "max": 783, "default": 91,
              "help": "the selected patch, row-major (must exist for this P: < (224 / P)^2)"},
    "temperature": {"type": "float", "min": 0.05, "max": 2.0, "default": 0.3,
                    "help": "softmax temperature of the similarity head"},
}


@lru_cache(maxsize=1)
def photo():
    """The prepared photo as a read-only (224, 224, 3) uint8 array."""
    data = resources.files("pycore").joinpath("photo224.rgb").read_bytes()
    return np.frombuffer(data, dtype=np.uint8).reshape(SIZE, SIZE, 3)  # (H, W, C)


@lru_cache(maxsize=3)
def features(P):
    """(raw (N, 4), standardised (N, 4)) patch features of the photo for patch size P."""
    raw = vit.raw_patch_features(photo(), P)
    return raw, vit.standardise(raw)


def top_patches(row, k=TOP):
    """Indices of the k largest weights, largest first (ties: lower index first)."""
    return np.argsort(-row, kind="stable")[:k]


def view(P, index, temperature):
    h, w = vit.grid_shape(SIZE, SIZE, P)
    n = h * w
    if not 0 <= index < n:
        raise ValueError(f"patch {index} does not exist for P = {P}: there are {n} patches (0 to {n - 1})")
    raw, std = features(P)
    row = vit.attention_row(std, index, temperature)  # (N,)
    top = top_patches(row)
    rows, cols = np.divmod(np.arange(n), w)  # (N,), (N,)
    uniform = np.full(n, 1.0 / n)
    return {
        "P": P, "index": index, "temperature": temperature,
        "row": int(index // w), "col": int(index % w),
        "image_size": SIZE, "grid_h": h, "grid_w": w,
        "n_patches": n, "n_tokens": vit.n_tokens(SIZE, SIZE, P), "patch_dim": vit.patch_dim(P),
        "n_scores": vit.n_tokens(SIZE, SIZE, P) ** 2,
        "feature_table": [raw[index], std[index]],  # (2, 4): as measured, standardised
        # (h, w): the row laid out as the grid, sums to 1; the page shades each patch and sizes
        # its bar by weight / max_weight (1 for the largest)
        f"weights_p{P}": row.reshape(h, w),
        "row_sum": row.sum(), "max_weight": row.max(), "self_weight": row[index],
        "top_index": top, "top_row": rows[top], "top_col": cols[top], "top_weight": row[top],
        "mean_distance": vit.mean_attention_distance(row, index, (h, w), P),
        "uniform_distance": vit.mean_attention_distance(uniform, index, (h, w), P),
    }
