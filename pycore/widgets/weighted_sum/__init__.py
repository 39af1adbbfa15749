"""Widget weighted-sum: attention's third step, weights × V → output, for one query token.

The attention widget shows the weights; this one shows what they are for. Each token's row of
V (the semantic head's W_V = I, so V = X) is drawn in the value colour as six cells, the
full row as a ghost outline and the part the query takes of it (weight × v) filled. The
output row under them lays those filled parts end to end, feature by feature: the output is
their sum. A feature's cell spans 0 to TOP on the same scale in every row, and since the
weights sum to 1 the output never exceeds the largest v in its column, so the sum fits the
cell it is drawn in.
"""
import numpy as np

from ... import figure
from ...attention import attention
from ...example import EMBEDDINGS, FEATURES, PRONOUN, TOKENS, semantic_head

PARAMS = {
    "query": {"type": "choice", "choices": TOKENS, "default": PRONOUN,
              "help": "the token whose output is built"},
    "scale": {"type": "float", "min": 0.25, "max": 6.0, "default": 1.0, "step": 0.25,
              "help": "multiplies the logits; 1 = divide by sqrt(d_k) as in the paper"},
}

# The picture's layout, SVG units: token names, weights, then six feature cells per row.
LABEL_X, WEIGHT_X, CELLS_X = 38, 84, 92
CELL_W, PAD, ROW_H, BAR_H = 42, 3, 24, 16
HEAD_H = 22                      # the feature names above the cells
GAP = 18                         # between the last token row and the output row
OUT_H = 24                       # the output's bars are taller: the figure's answer
TOP = 1.0                        # a cell's full width: the largest entry of the book's V


def cell_width(value):
    """The width of a bar for value on the cells' common 0..TOP scale."""
    return figure.r(max(0.0, value) / TOP * (CELL_W - 2 * PAD))


def picture(weights, v, contrib, output, query):
    """The figure's geometry: one row per token (label, weight, six cells: ghost v and filled
    weight × v) and the output row (per feature, the filled parts end to end, its total)."""
    n, d = v.shape
    xs = [CELLS_X + k * CELL_W for k in range(d)]
    rows = []
    for j in range(n):
        y = HEAD_H + j * ROW_H
        cells = [{"x": figure.r(xs[k] + PAD), "ghost": cell_width(v[j, k]),
                  "w": cell_width(contrib[j, k])} for k in range(d)]
        rows.append({"y": y, "ty": y + ROW_H / 2 + 4, "by": y + (ROW_H - BAR_H) / 2,
                     "label": TOKENS[j], "query": TOKENS[j] == query,
                     "weight": figure.fmt(weights[j], 3), "cells": cells,
                     "say": f"{TOKENS[j]}：权重 {figure.fmt(weights[j], 3)}，"
                            f"取走 v 的 {figure.fmt(weights[j], 3)} 倍"})
    out_y = HEAD_H + n * ROW_H + GAP
    out = []
    for k in range(d):
        left = np.concatenate([[0.0], np.cumsum(contrib[:, k])[:-1]])
        segs = [{"x": figure.r(xs[k] + PAD + cell_width(left[j])), "w": cell_width(contrib[j, k])}
                for j in range(n)]
        out.append({"x": figure.r(xs[k] + PAD), "cx": xs[k] + CELL_W / 2, "segs": segs,
                    "text": figure.fmt(output[k], 3),
                    "say": f"输出的「{FEATURES[k]}」= {figure.fmt(output[k], 3)}"})
    return {"width": CELLS_X + d * CELL_W, "height": out_y + OUT_H + 20,
            "label_x": LABEL_X, "weight_x": WEIGHT_X, "head_y": HEAD_H - 7,
            "cols": [{"cx": x + CELL_W / 2, "label": f} for x, f in zip(xs, FEATURES)],
            "rows": rows, "row_h": ROW_H, "bar_h": BAR_H, "cell_w": CELL_W - 2 * PAD,
            "out": {"y": out_y, "h": OUT_H, "ty": out_y + OUT_H + 15, "rule_y": out_y - GAP / 2,
                    "cells": out}}


def view(query, scale):
    """The query's weights over the sentence, each token's weight × v, and their sum."""
    x = EMBEDDINGS
    w_q, w_k, w_v = semantic_head()
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    i = TOKENS.index(query)
    weights, outputs, _ = attention(q, k, v, scale=scale)
    row = weights[i]
    contrib = row[:, None] * v          # (9, 6): what each token gives the query
    output = outputs[i]                 # = contrib.sum(axis=0), from attention() itself
    top = int(np.argmax(output))
    return {
        "query": query, "scale": scale, "tokens": TOKENS, "features": FEATURES,
        "weights": row, "v": v, "contrib": contrib, "output": output,
        "top": {"feature": FEATURES[top], "value": float(output[top])},
        "fig": picture(row, v, contrib, output, query),
    }
