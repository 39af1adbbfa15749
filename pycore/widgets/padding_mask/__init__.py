"""Widget padding-mask: two sentences of different lengths in one batch, the short one filled
up with <pad>; the padding mask beside the causal mask, and what the short sentence's
attention does with and without the padding mask.

The reader picks a query word of the short sentence, the side the pads go on, and switches the
padding mask and the causal mask. The math is pycore.padding (batch_view); this module lays
out the picture:
- the batch as a B × n grid of tokens (the pads drawn apart), with its shape (B, n, d);
- the short sentence's three T × T masks: the padding mask (the pads' columns masked), the
  causal mask (j > i masked) and the mask in force (their AND, or whichever is on);
- the short sentence's weights under the mask in force, as a heatmap with the query's row
  framed and as curves from the query to every column; pads that take weight are what goes
  wrong without the mask.
The key figures: the share of the query's attention the pads take, and the largest change of
a real token's output against the short sentence computed alone (0 with the mask).

The view comes in parts (PARTS, pycore/view_parts.py): a new query brings only its row,
curves and frame; the batch, the masks, the heatmap's colours and the table stay as drawn.
"""
import numpy as np

from ... import example, figure, padding

SHORT = padding.SHORT
PAD = padding.PAD
CELL = 34           # the weights heatmap
MASK_CELL = 18      # the three small masks
BATCH_W, BATCH_H = 44, 30   # one token of the batch grid
BATCH_LABEL_W = 52

PARAMS = {
    "query": {"type": "choice", "choices": SHORT, "default": "小猫",
              "help": "the short sentence's word whose row of weights is drawn"},
    "side": {"type": "choice", "choices": list(padding.SIDES), "default": "right",
             "help": "where the pads go: after the text (right) or before it (left)"},
    "mask": {"type": "bool", "default": True,
             "help": "use the padding mask (pads' keys hidden)"},
    "causal": {"type": "bool", "default": False,
               "help": "use the causal mask too (a decoder: j > i hidden)"},
}

SIDE_NAMES = {"right": "右侧补齐", "left": "左侧补齐"}


def batch(side, causal):
    """pycore.padding.batch_view of the running example and SHORT, for the parts after it (the
    padding switch leaves it as it is)."""
    return {"_v": padding.batch_view(side=side, causal=causal)}


def _short_label(token):
    """One character per column of a small mask: the word's first, a dot for a pad."""
    return "·" if token == PAD else token[0]


MASK_LABEL = 16   # the small masks' label band (left and top)


def mask_grid(T):
    """The small masks' common layout: a square per (query, key), labels left and on top.
    The masks differ only in which squares are masked (mask_marks)."""
    side = MASK_LABEL + T * MASK_CELL
    return {"width": side, "height": side, "label": MASK_LABEL,
            "cols": [{"x": MASK_LABEL + j * MASK_CELL + MASK_CELL / 2} for j in range(T)],
            "rows": [{"y": MASK_LABEL + i * MASK_CELL + MASK_CELL / 2 + 4} for i in range(T)],
            "size": MASK_CELL - 1}


def mask_marks(allowed, tokens):
    """What one small mask shows: its labels, how many squares are allowed, and its squares as
    two paths (figure.cell_paths): the allowed ones, then the masked ones."""
    allowed = np.asarray(allowed, dtype=bool)  # (T, T)
    return {"labels": [_short_label(t) for t in tokens],
            "n_allowed": int(allowed.sum()),
            "paths": figure.cell_paths(~allowed, MASK_CELL, gap=1, n=2,
                                       x0=MASK_LABEL, y0=MASK_LABEL)}


def batch_grid(tokens):
    """The batch as rows of boxes, one per column; a pad is drawn apart (data-pad)."""
    cells = []
    for b, row in enumerate(tokens):
        for t, token in enumerate(row):
            cells.append({"x": BATCH_LABEL_W + t * BATCH_W + 1, "y": b * (BATCH_H + 6) + 1,
                          "w": BATCH_W - 2, "h": BATCH_H, "cx": BATCH_LABEL_W + t * BATCH_W
                          + BATCH_W / 2, "ty": b * (BATCH_H + 6) + BATCH_H / 2 + 5,
                          "label": "pad" if token == PAD else token,  # fits its box
                          "pad": token == PAD, "b": b, "t": t})
    rows = [{"y": b * (BATCH_H + 6) + BATCH_H / 2 + 5, "label": f"句子 {b + 1}"}
            for b in range(len(tokens))]
    return {"width": BATCH_LABEL_W + len(tokens[0]) * BATCH_W,
            "height": len(tokens) * (BATCH_H + 6), "cells": cells, "rows": rows}


# What a cell of the view keeps: templates/widgets/_marks.html live_heatmap draws the colours
# from the paths (figure.heatmap's paths) and reads a cell's place and readout; a
# cell's value and its text at 2 digits are not drawn (its readout says the value), and
# leaving them out makes the view that goes to the page a fifth lighter.
HEAT_CELL = ("i", "j", "x", "y", "w", "h", "c", "say", "masked")


def figures(batch, side, causal, mask):
    """What depends on the batch and the masks but not on the query."""
    v = batch["_v"]
    b = 1  # the short sentence
    tokens = v["tokens"][b]
    real = v["real"][b]
    T = len(tokens)
    if mask:
        allowed, weights, outputs = v["combined"][b], v["weights"][b], v["outputs"][b]
    else:
        allowed = v["causal_mask"] if causal else np.ones((T, T), dtype=bool)
        weights, outputs = v["weights_unmasked"][b], v["outputs_unmasked"][b]
    effect = v["effect"][b]
    change = effect["max_diff_from_alone"] if mask else effect["max_output_change"]
    labels = ["pad" if t == PAD else t for t in tokens]  # short enough for a column
    heat = figure.heatmap(weights, labels, labels, cell=CELL, weights=True, masked=~allowed,
                          selected_row=0, label_w=48, paths=True)  # paths: what the page binds
    heat["cells"] = [{k: c[k] for k in HEAT_CELL} for c in heat["cells"]]
    del heat["row_band"], heat["selected_row"]  # the query's frame: the query's part's
    n_pads = int((~real).sum())
    in_force = ("padding 掩码 ∧ 因果掩码" if mask and causal else "padding 掩码" if mask
                else "因果掩码" if causal else "不加掩码")
    return {
        "side_name": SIDE_NAMES[side], "in_force": in_force,
        "shape": "(B, n, d) = ({}, {}, {})".format(*v["shape"]),
        "lengths": f"{len(example.TOKENS)} 和 {len(SHORT)} 个词，短句补 {n_pads} 个 {PAD}",
        "batch": batch_grid(v["tokens"]),
        "tokens": tokens, "labels": labels,
        "grid": mask_grid(T),
        "pad_mask": mask_marks(v["padding_mask"][b], tokens),
        "causal_mask": mask_marks(v["causal_mask"], tokens),
        "combined": mask_marks(allowed, tokens),
        "side": side, "mask": mask, "causal": causal,
        "heat": heat, "weights": weights, "outputs": outputs,
        "change": float(change),
        "pad_weight": effect["pad_weight"],  # without the mask, per real query
        "verdict": ("和单独算这句话完全一样" if change < 1e-12 and mask else
                    "pad 都在右边，因果掩码已经把它们挡在后面" if change < 1e-12 else
                    "pad 分走了权重，真实词的输出变了"),
        "_allowed": allowed, "_real": real,
        "_row_alone": v["weights"][b],  # with the mask = each sentence alone (padding.py)
    }


def chosen(figures, query):
    """What the query decides: its row of weights, its curves and its frame on the heatmap."""
    f = figures
    real, weights, labels = f["_real"], f["weights"], f["labels"]
    qi = int(np.flatnonzero(real)[SHORT.index(query)])  # the query's column
    curves = figure.attention_curves(labels, weights[qi], qi,
                                     width=figure.r(len(labels) * CELL + 48), height=150,
                                     masked=~f["_allowed"][qi])
    return {"query": query,
            "heat": {"row_band": f["heat"]["row_bands"][qi],
                     "selected_row": qi},
            "curves": curves, "row": weights[qi], "row_alone": f["_row_alone"][qi],
            "pad_share": float(weights[qi][~real].sum()), "self_weight": float(weights[qi][qi])}


PARTS = (batch, figures, chosen)
