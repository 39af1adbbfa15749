"""Widget sliding-window: the causal mask with a window w over the running example, and how far
information travels through stacked layers.

The reader sets the window w, the number of layers and the query token. The heatmap is the
semantic head's weights (chapter 4) with every key more than w tokens back masked; under it,
one row per layer (the embeddings at the top, the last layer at the bottom) marks the tokens
whose information can reach the query at the last layer (pycore/sliding_window.py): the
receptive field grows by w a layer, layers x w in all.
"""
from ... import figure
from ...example import EMBEDDINGS, PRONOUN, TOKENS, semantic_head
from ...sliding_window import reach, window_attention, window_mask

MAX_LAYERS = 4
PARAMS = {
    "w": {"type": "int", "min": 1, "max": 8, "default": 2,
          "help": "the window: a query looks at most w tokens back (and at itself)"},
    "layers": {"type": "int", "min": 1, "max": MAX_LAYERS, "default": 2,
               "help": "how many sliding-window layers are stacked"},
    "query": {"type": "choice", "choices": TOKENS, "default": PRONOUN,
              "help": "the token whose window and receptive field are shown"},
}

# The reach grid, SVG units: a row label, then one cell per token; a row per layer.
LABEL_W, HEAD_H, CELL, ROW = 60, 22, 40, 30


def reach_grid(lit, layers, q):
    """Rows for layer 0 (the embeddings) .. MAX_LAYERS; rows past `layers` hidden; a lit cell's
    token can send information to the query at the last layer."""
    n = len(TOKENS)
    rows = []
    for l in range(MAX_LAYERS + 1):
        used = l <= layers
        y = HEAD_H + l * ROW
        names = [TOKENS[j] for j in range(n) if used and lit[l][j]]
        rows.append({
            "y": y, "ty": y + ROW / 2 + 4, "hidden": not used,
            "label": "嵌入" if l == 0 else f"第 {l} 层",
            "cells": [{"on": bool(used and lit[l][j]), "query": used and l == layers and j == q}
                      for j in range(n)],
            "say": (f"{'嵌入' if l == 0 else f'第 {l} 层'}：能传到最后一层「{TOKENS[q]}」的是 "
                    + "、".join(names)) if used else ""})
    height = HEAD_H + (layers + 1) * ROW + 4
    return {"width": LABEL_W + n * CELL, "height": height, "viewbox":
            f"0 0 {LABEL_W + n * CELL} {height}", "cell": CELL, "row": ROW,
            "label_x": LABEL_W - 6,
            "cols": [{"x": LABEL_W + j * CELL, "cx": LABEL_W + j * CELL + CELL / 2,
                      "label": t} for j, t in enumerate(TOKENS)],
            "rows": rows}


def view(w, layers, query):
    """The query's window, its weights, the mask, and the receptive field layer by layer."""
    n = len(TOKENS)
    q = TOKENS.index(query)
    w_q, w_k, _ = semantic_head()
    weights = window_attention(EMBEDDINGS @ w_q, EMBEDDINGS @ w_k, w)
    allowed = window_mask(n, w)
    heat = figure.heatmap(weights, TOKENS, TOKENS, masked=~allowed, selected_row=q, weights=True,
                          paths=True)
    lit = reach(n, w, layers, q)
    first = int(lit[0].argmax())                  # the farthest token that reaches the query
    return {
        "w": w, "layers": layers, "query": query,
        "field": layers * w, "reached": q - first,
        "first": TOKENS[first], "seen": [TOKENS[j] for j in range(n) if allowed[q, j]],
        "seen_text": "、".join(TOKENS[j] for j in range(n) if allowed[q, j]),
        "reach_text": "、".join(TOKENS[j] for j in range(n) if lit[0][j]),
        "weights": weights[q], "heat": heat, "grid": reach_grid(lit, layers, q),
    }
