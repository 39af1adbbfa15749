"""Widget attention: the semantic head over the running example.

The view returns the numbers and the picture: the query's row as curves over the sentence
(figure.attention_curves_slots' geometry), the whole matrix as a heatmap with the query's row
and its strongest key highlighted (figure.heatmap_sized's), and the key figure (the weight on
that key). The reader's sentence may be longer or shorter than the book's
(pycore.example.PALETTE): the page keeps MAX_TOKENS slots of every token list, and the view
fills them (unused ones hidden, every table padded with zeros) so the same elements redraw any
sentence.

A view is asked for at every click and slider step, in Pyodide, so it is declared in three
parts (PARTS, pycore/view_parts.py), each computed when what it reads changes: the
sentence's (labels, slots, Q, K, V, every place of the picture), the weights' (the logits'
scale and the mask: the weights and the heatmap's cells) and the query's row (its weights,
curves and bands). Those parts draw exactly what figure.attention_curves_slots and
figure.heatmap_sized draw (tests/test_pycore_example.py compares them), in plain Python floats:
one NumPy call per matrix, none per cell. A click on another query brings the row part alone."""
import json
import numpy as np

from ... import figure
from ...example import (ALL_TOKENS, FEATURES, MAX_TOKENS, PRONOUN, resolve_example,
                       semantic_head_of, sentence_embeddings)
from ...attention import attention

# The reader's edited example (pycore.example.checked_example's dict), from the page: never a
# block parameter. Without it (or with junk in it), the book's example.
INPUTS = ("example",)

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


def sentence(example=None):
    """What only the example decides: its sentence, X, Q, K, V and the picture's places (the
    curves' key row, the heatmap's frame); for the parts after it, the places of the curves
    and the cells."""
    ex, _ = resolve_example(example)
    tokens = ex["tokens"]
    n, s = len(tokens), MAX_TOKENS
    x = sentence_embeddings(ex)  # (n, 6)
    w_q, w_k, w_v = semantic_head_of(ex)
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (n, 6)
    spare = range(n, s)
    # the curves' token rows (figure.token_row): the query's row on top, the keys below
    row = figure.token_row(tokens, width=WIDTH, y=TOP_Y)
    top = [{**t, "hidden": False} for t in row] + [
        {"x": 0, "label": "", "hidden": True, "i": i, "y": TOP_Y} for i in spare]
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
    return {"tokens": tokens, "n": n, "features": FEATURES, "slots": slots(tokens),
            "q": padded(q, s), "k": padded(k, s), "v": padded(v, s),
            "curves": {"width": WIDTH, "height": HEIGHT, "bottom": bottom},
            # the cells' places are the sentence's: a move of the scale brings their colours
            # and readouts alone (mk.heatmap_sized reads a cell's place here)
            "heat": {**heat, "places": places},
            "_q": q, "_k": k, "_v": v, "_top": top, "_paths": paths,
            "_says": [f"{a} → {b}：" for a in tokens for b in tokens]}  # the cells' readouts


def weights(sentence, scale, causal):
    """What the logits' scale and the mask decide: the weights, the outputs and the heatmap's
    cells (figure.heatmap's colour class and readout of each: what the page draws; the
    values are the weights' table)."""
    sen = sentence
    n, s = sen["n"], MAX_TOKENS
    w_all, out, scores = attention(sen["_q"], sen["_k"], sen["_v"], causal=causal, scale=scale)
    # the book's one weight scale (figure.weight_classes), the whole matrix at once
    classes = figure.weight_classes(w_all)
    w, cls = w_all.tolist(), classes.tolist()
    says = sen["_says"]
    cells = []
    for i in range(s):
        for j in range(s):
            if i < n and j < n:
                v = w[i][j]
                cells.append({"c": cls[i][j], "say": says[i * n + j] + figure.fmt(v, 4),
                              "masked": causal and j > i, "hidden": False})
            else:
                cells.append({"c": 0, "say": "", "masked": False, "hidden": True})
    return {"scale": scale, "causal": causal,
            "weights": padded(w_all, s, s),  # (n, n) in (s, s), rows sum to 1
            "scores": padded(scores, s, s),  # scale * Q K^T / sqrt(d_k), before mask, softmax
            "heat": {"cells": cells, "legend": figure.weight_legend()},
            "_w": w, "_out": out.tolist()}


def query_curves(sen, row, i, causal):
    """The query i's curves (figure.attention_curves): width and opacity in proportion to its
    weight on each key, row (n floats). The spare slots' curves are empty."""
    tokens, paths = sen["tokens"], sen["_paths"][i]
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


def row(query, causal, sentence, weights):
    """The query's row: its weights, output, strongest key, curves and bands (an unknown
    query, e.g. a word the reader's sentence lacks, is 它)."""
    tokens, n = sentence["tokens"], sentence["n"]
    query = query if query in tokens else PRONOUN
    i = tokens.index(query)
    w = weights["_w"][i]
    strongest = w.index(max(w))  # the first of equal weights, as np.argmax
    heat = sentence["heat"]
    return {
        "query": query, "index": i,
        "row": w + [0.0] * (MAX_TOKENS - n),
        "output": weights["_out"][i],  # the query's new vector, a weighted mean of the V rows
        "top": {"token": tokens[strongest], "weight": w[strongest]},
        "curves": {"top": [{**t, "query": t["i"] == i} for t in sentence["_top"]],
                   "curves": query_curves(sentence, w, i, causal), "query": i},
        "heat": {"selected_row": i, "selected_col": strongest,
                 "row_band": {"x": 0, "y": LABEL_H + i * CELL, "w": heat["vw"], "h": CELL},
                 "col_band": {"x": LABEL_W + strongest * CELL, "y": 0, "w": CELL,
                              "h": heat["vh"]}},
    }


PARTS = (sentence, weights, row)
