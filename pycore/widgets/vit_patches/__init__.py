"""Widget vit-patches: a 224 x 224 photo cut into P x P patches, and the hand-made
"look for similar patches" head (pycore.vit) run from one clicked patch.

The photo's pixels ship beside pycore as raw RGB bytes (pycore/photo224.rgb, written by
`python3 -m bookbuild.tools.photo`), so the same pixels are read in CPython and in Pyodide; a page
fetches them only when it shows this widget (DATA_FILES).
The view comes in parts (PARTS, pycore/view_parts.py): the patch features and the grid's
layout once per patch size; a click brings the selection and its row of weights, a move of
the temperature the row alone.

The picture, in SVG units of one photo pixel:
- the photo with the selected patch's weights over it: one path per colour class of the
  sequential map (figure.class_paths; a patch's class is its weight over the row's largest),
  the patch grid, the five most attended patches and the selected one framed;
- the flattened sequence below it: [CLS], then the patches one token every PITCH units,
  drawn as one strip of the photo per grid row (a row of the grid is w consecutive tokens),
  STRIP_SLOTS slots whatever P is; thin separators between the tokens (one dashed line), a
  bar under each token (one path, BAR units for the largest weight), the selected token
  framed, a tick at the first token of every grid row.
"""
from functools import lru_cache
from importlib import resources

import numpy as np

from ... import figure, vit

SIZE = 224
TOP = 5  # how many of the most-attended patches the widget lists
SIZES = [8, 16, 32]
PITCH = 20        # strip: one token every PITCH units; its thumbnail THUMB high
THUMB = 18
BAR, BAR_BASE = 24, 46  # strip: bar of the largest weight, and the bars' baseline
STRIP_H = 70
STRIP_SLOTS = SIZE // min(SIZES)  # grid rows at the smallest P: 28
TABLE_DIGITS = {8: 4, 16: 3, 32: 3}  # the weights table's decimals (more at P = 8: smaller weights)

DATA_FILES = ("photo224.rgb",)

PARAMS = {
    "P": {"type": "choice", "choices": SIZES, "default": 16,
          "help": "patch side in pixels"},
    "index": {"type": "int", "min": 0, "max": 783, "default": 91,
              "help": "the selected patch, row-major (must exist for this P: < (224 / P)^2)"},
    "temperature": {"type": "float", "min": 0.05, "max": 2.0, "default": 0.3, "step": 0.05,
                    "help": "softmax temperature of the similarity head"},
}


@lru_cache(maxsize=1)
def photo():
    """The prepared photo as a read-only (224, 224, 3) uint8 array."""
    data = resources.files("pycore").joinpath("photo224.rgb").read_bytes()
    return np.frombuffer(data, dtype=np.uint8).reshape(SIZE, SIZE, 3)  # (H, W, C)


def patches(P):
    """What the patch size decides: the grid's numbers; for the parts after it, the raw
    (N, 4) and standardised (N, 4) patch features of the photo."""
    h, w = vit.grid_shape(SIZE, SIZE, P)
    n = h * w
    raw = vit.raw_patch_features(photo(), P)
    return {
        "P": P, "image_size": SIZE, "grid_h": h, "grid_w": w,
        "n_patches": n, "n_tokens": vit.n_tokens(SIZE, SIZE, P), "patch_dim": vit.patch_dim(P),
        "n_scores": vit.n_tokens(SIZE, SIZE, P) ** 2,
        "table_digits": TABLE_DIGITS[P],
        # every P's, as the page asks for the texts of a table it has yet to build
        "table_digits_of": {str(size): TABLE_DIGITS[size] for size in SIZES},
        "table_on_demand": n > 200,  # that many cells are in the page only while 数值 is open
        "_raw": raw, "_std": vit.standardise(raw),
    }


def top_patches(row, k=TOP):
    """Indices of the k largest weights, largest first (ties: lower index first)."""
    return np.argsort(-row, kind="stable")[:k]


def carry(index, P, to):
    """The patch of the grid of side `to` that holds the centre of patch `index` of side P:
    where the selection goes when the reader picks another patch size."""
    w = SIZE // P
    y, x = (index // w) * P + P / 2, (index % w) * P + P / 2
    return int(y // to) * (SIZE // to) + int(x // to)


def patch_rect(index, P):
    """A patch's square in photo pixels."""
    w = SIZE // P
    return {"x": (index % w) * P, "y": (index // w) * P, "w": P, "h": P}


def layout(P):
    """What depends on P alone: the grid lines and cell edges of the photo, and the strip's
    size, row slices and ticks."""
    h = w = SIZE // P
    n = h * w
    lines = "".join(f"M0 {k * P}H{SIZE}" for k in range(1, h)) + \
        "".join(f"M{k * P} 0V{SIZE}" for k in range(1, w))
    slices = [{"x": PITCH * (1 + r * w), "w": PITCH * w, "vb": f"0 {r * P} {SIZE} {P}",
               "hidden": False} for r in range(h)]
    ticks = [{"x": PITCH * (1 + r * w) + PITCH / 2, "label": str(r * w), "hidden": False}
             for r in range(h)]
    blank_slice = {"x": 0, "w": PITCH, "vb": f"0 0 {SIZE} {P}", "hidden": True}
    blank_tick = {"x": 0, "label": "", "hidden": True}
    width = PITCH * (n + 1)
    return {
        "grid": {"cell": P, "n": w, "edges": [k * P for k in range(w + 1)], "lines": lines},
        "strip": {"width": width, "height": STRIP_H, "viewbox": f"0 0 {width} {STRIP_H}",
                  "pitch": PITCH, "thumb_y": 1, "thumb_h": THUMB, "tick_y": STRIP_H - 6,
                  "cls": {"x": 1, "y": 1, "w": THUMB, "h": THUMB, "tx": PITCH / 2, "ty": 13},
                  "slices": slices + [blank_slice] * (STRIP_SLOTS - h),
                  "ticks": ticks + [blank_tick] * (STRIP_SLOTS - h),
                  # the separators: one line as high as a thumbnail, dashed every PITCH
                  "sep": {"x1": PITCH - 1, "x2": width, "y": 1 + THUMB / 2,
                          "dash": f"2 {PITCH - 2}"},
                  "sel_w": PITCH, "sel_h": BAR_BASE + 2},
    }


def bars_path(relative):
    """The strip's bars as one path: token i + 1 gets a bar BAR * relative[i] high (bars under
    a twentieth of a unit are left out: they could not be seen)."""
    heights = BAR * np.asarray(relative)  # (N,)
    tops = np.round(BAR_BASE - heights, 2).tolist()
    starts, end = bar_starts(len(tops)), f"h14V{BAR_BASE}h-14z"
    return "".join([f"{starts[i]}{tops[i]:g}{end}"
                    for i in np.flatnonzero(heights >= 0.05).tolist()])


@lru_cache(maxsize=3)
def bar_starts(n):
    """Where each of n tokens' bars starts in the strip's path (the same at every click)."""
    return [f"M{PITCH * (i + 1) + 3} " for i in range(n)]


def selection(patches, index):
    """What the selected patch decides, whatever the temperature."""
    P, h, w, n = patches["P"], patches["grid_h"], patches["grid_w"], patches["n_patches"]
    if not 0 <= index < n:
        raise ValueError(f"patch {index} does not exist for P = {P}: there are {n} patches "
                         f"(0 to {n - 1})")
    return {
        "index": index, "row": int(index // w), "col": int(index % w),
        # (2, 4): as measured, standardised
        "feature_table": [patches["_raw"][index], patches["_std"][index]],
        "uniform_distance": vit.mean_attention_distance(np.full(n, 1.0 / n), index, (h, w), P),
        "carry": {str(size): carry(index, P, size) for size in SIZES},
        "say": f"第 {index} 个图块（第 {index // w} 行，第 {index % w} 列）",
        "selected": patch_rect(index, P),
        "strip_sel": {"x": PITCH * (index + 1)},
    }


def weights(patches, index, temperature):
    """The selected patch's row of the similarity head at this temperature, and its picture."""
    P, h, w, n = patches["P"], patches["grid_h"], patches["grid_w"], patches["n_patches"]
    row = vit.attention_row(patches["_std"], index, temperature)  # (N,)
    top = top_patches(row)
    rows, cols = np.divmod(np.arange(n), w)  # (N,), (N,)
    largest = float(row.max())
    classes = figure.seq_classes(row, 0.0, largest).reshape(h, w)  # colour by weight / largest
    return {
        "temperature": temperature,
        f"weights_p{P}": row.reshape(h, w),  # (h, w): the row laid out as the grid, sums to 1
        "row_sum": row.sum(), "max_weight": largest, "self_weight": row[index],
        "top_index": top, "top_row": rows[top], "top_col": cols[top], "top_weight": row[top],
        "mean_distance": vit.mean_attention_distance(row, index, (h, w), P),
        "overlay": figure.class_paths(classes, P),
        # one row over 196 or more patches: scaled to its own top (docs/widgets.md, "Colour")
        "legend": figure.legend(0.0, largest, digits=4, scaled="row"),
        "top": [patch_rect(int(i), P) for i in top],
        "bars": bars_path(row / largest),
    }


PARTS = (patches, layout, selection, weights)
