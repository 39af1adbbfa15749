"""Widget attention: the semantic head over the running example.

The view returns the numbers and the picture: the query's row as curves over the sentence
(figure.attention_curves_slots' geometry), the whole matrix as a heatmap with the query's row
and its strongest key highlighted (figure.heatmap_sized's), and the key figure (the weight on
that key). The reader's sentence may be longer or shorter than the book's
(pycore.example.PALETTE): the page keeps MAX_TOKENS slots of every token list, and the view
fills them (unused ones hidden, every table padded with zeros) so the same elements redraw any
sentence.

A view is asked for at every click and slider step, in Pyodide, so it is built in three parts,
each cached on what it depends on: the sentence's part (labels, slots, Q, K, V, every position
of the picture: `_sentence`), the part of the logits' scale and the mask (the weights and the
heatmap's cells: `_weights`), and the query's part (its row and curves), computed each time.
Those parts draw exactly what figure.attention_curves_slots and figure.heatmap_sized draw
(tests/test_pycore_example.py compares them), in plain Python floats: one NumPy call per
matrix, none per cell. The page, which shows the sentence's part already, names the example,
scale and mask it shows (`shown`) and gets only what the controls change: a click on another
query brings its row, curves and bands, not the weights (assets/widgets/attention.js)."""
import json
from functools import lru_cache

import numpy as np

from .. import figure
from ..example import (ALL_TOKENS, FEATURES, MAX_TOKENS, PRONOUN, resolve_example,
                       semantic_head_of, sentence_embeddings)
from ..attention import attention

# The reader's edited example (pycore.example.checked_example's dict), from the page: never a
# block parameter. Without it (or with junk in it), the book's example. `shown`: what the
# page draws ({"example": ..., "scale": ..., "causal": ...}; no example for the book's): the
# same example leaves out the sentence's part, the same scale and mask too the weights' part.
INPUTS = ("example", "shown")

PARAMS = {
    "query": {"type": "choice", "choices": ALL_TOKENS, "default": PRONOUN,
              "help": "the token whose row of weights is drawn (它 if the sentence lacks it)"},
    "scale": {"type": "float", "min": 0.25, "max": 6.0, "default": 1.0, "step": 0.25,
              "help": "multiplies the logits; 1 = divide by sqrt(d_k) as in the paper"},
    "causal": {"type": "bool", "default": False, "help": "hide the future (j > i)"},
}

# The picture's layout: figure.attention_curves' defaults and figure.heatmap_sized's here.
WIDTH, HEIGHT, MAX_STROKE, MIN_OPACITY = 400, 170, 9.0, 0.08
TOP_Y, BOTTOM_Y = 16, HEIGHT - 20  # token baselines; each key's weight goes under it
CELL, LABEL_W, LABEL_H = 32, 44, 22


def padded(m, rows, cols=None):
    """m (n, c) as a list of `rows` rows (of `cols` entries if given), zeros added."""
    m = np.asarray(m, dtype=float)
    out = np.zeros((rows, cols if cols is not None else m.shape[1]))
    out[:m.shape[0], :m.shape[1]] = m
    return out.tolist()


def slots(tokens):
    """The sentence in MAX_TOKENS slots: label, the query picker's value (JSON, False when
    unused: the button has no value) and hidden."""
    return [{"label": t, "value": json.dumps(t, ensure_ascii=False), "hidden": False}
            for t in tokens] + [{"label": "", "value": False, "hidden": True}
                                for _ in range(MAX_TOKENS - len(tokens))]


@lru_cache(maxsize=8)
def _sentence(example_json):
    """What only the example decides (its sentence, X, Q, K, V and the picture's places), for
    the example as the page sends it (JSON text). Callers must not modify it."""
    ex, _ = resolve_example(json.loads(example_json))
    tokens = ex["tokens"]
    n, s = len(tokens), MAX_TOKENS
    x = sentence_embeddings(ex)  # (n, 6)
    w_q, w_k, w_v = semantic_head_of(ex)
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (n, 6)
    spare = range(n, s)
    # the curves' token rows (figure.token_row): the query's row on top, the keys below
    row = figure.token_row(tokens, width=WIDTH, y=TOP_Y)
    top = [{**t, "query": False, "hidden": False} for t in row] + [
        {"x": 0, "label": "", "hidden": True, "i": i, "y": TOP_Y, "query": False}
        for i in spare]
    bottom = [{**t, "y": BOTTOM_Y, "wy": HEIGHT - 4, "hidden": False} for t in row] + [
        {"x": 0, "label": "", "hidden": True, "i": i, "y": BOTTOM_Y, "wy": HEIGHT - 4}
        for i in spare]
    y0, y1 = figure.r(TOP_Y + 8), figure.r(BOTTOM_Y - 16)
    mid = figure.r((TOP_Y + 8 + BOTTOM_Y - 16) / 2)
    paths = [[f"M{a['x']},{y0} C{a['x']},{mid} {b['x']},{mid} {b['x']},{y1}" for b in row]
             for a in row]  # paths[i][j]: the curve from query i to key j
    # the heatmap's slots (figure.heatmap_slots): s x s cells, the used n x n framed
    labels = list(tokens) + [""] * (s - n)
    vw, vh = LABEL_W + n * CELL, LABEL_H + n * CELL
    heat = {"width": LABEL_W + s * CELL, "height": LABEL_H + s * CELL, "cell": CELL,
            "label_w": LABEL_W, "label_h": LABEL_H,
            "rows": [{"i": i, "y": LABEL_H + i * CELL + CELL / 2, "label": t,
                      "hidden": i >= n} for i, t in enumerate(labels)],
            "cols": [{"j": j, "x": LABEL_W + j * CELL + CELL / 2, "label": t,
                      "hidden": j >= n} for j, t in enumerate(labels)],
            "row_name": "查询", "col_name": "键", "slots": s, "n_rows": n, "n_cols": n,
            "vw": vw, "vh": vh, "viewbox": f"0 0 {vw} {vh}", "empty": not n}
    places = [{"i": i, "j": j, "x": LABEL_W + j * CELL, "y": LABEL_H + i * CELL, "w": CELL,
               "h": CELL} for i in range(s) for j in range(s)]
    used = [p["i"] < n and p["j"] < n for p in places]
    says = [f"{a} → {b}：" for a in tokens for b in tokens]  # the used cells' readouts
    return {"ex": ex, "tokens": tokens, "n": n, "q": q, "k": k, "v": v,
            "static": {"tokens": tokens, "n": n, "features": FEATURES, "slots": slots(tokens),
                       "q": padded(q, s), "k": padded(k, s), "v": padded(v, s)},
            "top": top, "bottom": bottom, "paths": paths, "heat": heat, "places": places,
            "used": used, "says": says}


# 64: the scale slider's 24 steps with the mask on and off (48) and room for a second example;
# a cache smaller than a sweep of the slider is emptied by it (tests/test_pycore_view_caches.py)
@lru_cache(maxsize=64)
def _weights(example_json, scale, causal):
    """What the logits' scale and the mask decide: the weights, the outputs and the heatmap's
    cells (figure.heatmap's colour class, value, text and readout of each). Callers must not
    modify it."""
    sen = _sentence(example_json)
    n, s = sen["n"], MAX_TOKENS
    weights, out, scores = attention(sen["q"], sen["k"], sen["v"], causal=causal, scale=scale)
    hi = float(weights.max())
    # figure.seq_class over [0, hi] for the whole matrix at once: the same floating-point steps
    classes = np.clip(np.floor(weights / hi * figure.SEQ), 0, figure.SEQ - 1).astype(int)
    w, cls = weights.tolist(), classes.tolist()
    says = sen["says"]
    cells = []  # the live view's part of each cell (what the page binds)
    for i in range(s):
        for j in range(s):
            if i < n and j < n:
                v = w[i][j]
                cells.append({"c": cls[i][j], "v": v, "text": figure.fmt(v, 2),
                              "say": says[i * n + j] + figure.fmt(v, 4),
                              "masked": causal and j > i})
            else:
                cells.append({"c": 0, "v": 0.0, "text": "", "say": "", "masked": False})
    legend = figure.legend(0.0, hi, digits=2)
    return {"w": w, "out": out.tolist(), "weights": padded(weights, s, s),
            "scores": padded(scores, s, s),  # scale * Q K^T / sqrt(d_k), before mask, softmax
            "cells": cells, "legend": legend,
            # what a live view rebinds of the heatmap when the weights change (CELL_BOUND)
            "live_cells": [{k: c[k] for k in CELL_BOUND} if used else {}
                           for c, used in zip(cells, sen["used"])],
            "live_legend": {"lo": legend["lo"], "hi": legend["hi"]}}


def query_curves(sen, row, i, causal):
    """The query i's curves (figure.attention_curves): width and opacity in proportion to its
    weight on each key, row (n floats). The spare slots' curves are empty."""
    tokens, paths = sen["tokens"], sen["paths"][i]
    biggest = max(max(row), 1e-12)
    curves = []
    for j, w in enumerate(row):
        share = w / biggest
        curves.append({"j": j, "tokens": f"{i} {j}", "d": paths[j],
                       "sw": figure.r(0.6 + (MAX_STROKE - 0.6) * share),
                       "op": figure.r(MIN_OPACITY + (1 - MIN_OPACITY) * share, 3), "weight": w,
                       "text": figure.fmt(w, 3),
                       "say": f"{tokens[i]} → {tokens[j]}：{figure.fmt(w, 4)}",
                       "masked": causal and j > i, "seq": figure.seq_class(w, 0.0, biggest),
                       "hidden": False})
    return curves + [{"j": j, "tokens": "", "d": "M0,0", "sw": 0, "op": 0, "weight": 0.0,
                      "text": "", "say": "", "masked": False, "seq": 0, "hidden": True}
                     for j in range(len(row), MAX_TOKENS)]


# What the page binds of each live part (the rest it keeps as the build or the last whole
# view drew it): a curve's geometry and readout, a cell's colour and readout.
CURVE_BOUND = ("d", "sw", "op", "say", "masked", "tokens", "text")
CELL_BOUND = ("c", "say", "masked")


def view(query, scale, causal, example=None, shown=None):
    example_json = json.dumps(example, sort_keys=True, ensure_ascii=False)
    sen = _sentence(example_json)
    wts = _weights(example_json, scale, causal)
    tokens, n = sen["tokens"], sen["n"]
    query = query if query in tokens else PRONOUN
    i = tokens.index(query)
    row = wts["w"][i]
    strongest = row.index(max(row))  # the first of equal weights, as np.argmax
    curves = query_curves(sen, row, i, causal)
    heat = sen["heat"]
    row_band = {"x": 0, "y": LABEL_H + i * CELL, "w": heat["vw"], "h": CELL}
    col_band = {"x": LABEL_W + strongest * CELL, "y": 0, "w": CELL, "h": heat["vh"]}
    live = {
        "query": query, "index": i, "scale": scale, "causal": causal,
        "scores": wts["scores"], "weights": wts["weights"],  # (n, n) in (s, s), rows sum to 1
        "row": row + [0.0] * (MAX_TOKENS - n),
        "output": wts["out"][i],   # the query's new vector, a weighted mean of the V rows
        "top": {"token": tokens[strongest], "weight": row[strongest]},
    }
    if isinstance(shown, dict) and shown.get("example") == example:
        heat_part = {"row_band": {"y": row_band["y"], "w": row_band["w"]},
                     "col_band": {"x": col_band["x"], "h": col_band["h"]}}
        if shown.get("scale") == scale and shown.get("causal") == causal:
            # only the query moved: the page keeps the weights, their tables and cells
            del live["scores"], live["weights"]
        else:
            heat_part.update(cells=wts["live_cells"], legend=wts["live_legend"])
        return {**live,
                "curves": {"top": [{"query": j == i} for j in range(MAX_TOKENS)],
                           "curves": [{k: c[k] for k in CURVE_BOUND} if not c["hidden"] else {}
                                      for c in curves]},
                "heat": heat_part}
    top = [{**t, "query": t["i"] == i} for t in sen["top"]]
    cells = [{**p, **c, "hidden": not used}
             for p, c, used in zip(sen["places"], wts["cells"], sen["used"])]
    return {
        **sen["static"], **live,
        "curves": {"width": WIDTH, "height": HEIGHT, "top": top, "bottom": sen["bottom"],
                   "curves": curves, "query": i},
        "heat": {**heat, "cells": cells, "legend": wts["legend"], "selected_row": i,
                 "selected_col": strongest, "row_band": row_band, "col_band": col_band},
    }
