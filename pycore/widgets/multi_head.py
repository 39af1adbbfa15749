"""Widget multi-head: head A (semantic) and head B (previous token) over the reader's sentence,
their concatenation and W_O. The math is pycore.multihead; this module only picks what the
page shows.

`heads` chooses which heads feed the layer: "A+B" (the chapter's two-head layer: concat
(n, 12), W_O (12, 6)), or one head alone (concat (n, 6), W_O = I (6, 6)). Both weight
matrices are always shown, so the reader can compare them whatever is switched on.

The picture: both heads' weights as heatmaps on one 0-1 scale with the query's row and its
strongest key framed, the query's row of each head as curves over the sentence, and the
layer's matrices as blocks drawn to their shapes (concatenated heads × W_O = output).

The reader's sentence may be longer or shorter than the book's (4 to 12 tokens,
pycore.example.PALETTE): the page keeps MAX_TOKENS slots of every token list (the query
picker, the curves' tokens, the heatmaps' rows and columns, the tables' rows) and the view
fills them, the unused ones hidden and every table padded with zeros, as the attention widget
does. The concat table keeps 12 columns and W_O 12 rows, of which one head uses 6.

The heads' weights change only with the example, the query moves the rows, curves and
bands, the heads the layer: each part is cached on what it depends on. Without `shown` the
view is whole (the build, the tests); the page passes `shown`, the query, heads and example it
displays, and gets only the parts those changed (the query's output row always), and of the
parts it draws in fixed slots (the curves' tokens, the heatmaps' cells) only what it binds.
"""
from functools import lru_cache

import numpy as np

from .. import figure, multihead
from ..example import (ALL_TOKENS, FEATURES, MAX_TOKENS, PRONOUN, example_key, example_of_key,
                       resolve_example, semantic_head_of, sentence_embeddings)
from .attention import padded, slots

HEAD_CHOICES = ["A+B", "A", "B"]
HEAD_NAMES = {"A": "头 A（语义）", "B": "头 B（位置）"}
UNIT = 7  # SVG units per matrix entry in the shape diagram
CELL = 32  # SVG units per heatmap cell
CURVES_WIDTH = 360  # the curves' width: two heads side by side on a wide page
CONCAT_SLOTS = 2 * len(FEATURES)  # the concat table's columns, W_O's rows: both heads'

# What the page already displays ({query, heads, example}) is an input of the view, not a
# block parameter: the heads' weights depend on no parameter, so a `shown` of the same example
# means the page has them. `example`: the reader's edited example (None: the book's).
INPUTS = ("shown", "example")

PARAMS = {
    "query": {"type": "choice", "choices": ALL_TOKENS, "default": PRONOUN,
              "help": "the token whose row is highlighted in both heads (它 if the sentence "
                      "lacks it)"},
    "heads": {"type": "choice", "choices": HEAD_CHOICES, "default": "A+B",
              "help": "which heads are concatenated and fed to W_O"},
}


def _shape(a):
    return " × ".join(str(s) for s in np.shape(a))


def _layer(heads, used):
    """Concatenation, W_O and output for the heads in `used` (their outputs side by side)."""
    outs = [h["output"] for h in heads if h["name"] in used]
    concat = np.concatenate(outs, axis=1)  # (n, 6 * len(outs))
    w_o = multihead.output_matrix(outs[0].shape[1], len(outs))  # (6 * len(outs), 6)
    return concat, w_o, concat @ w_o


def fixed(ex):
    """The two heads over the sentence and their heatmaps (one 0-1 scale) of a checked
    example: no parameter changes them. Computed once per example; callers must not modify
    it."""
    return _fixed(example_key(ex))


@lru_cache(maxsize=4)
def _fixed(key):
    ex = example_of_key(key)
    tokens = key[2]
    full = multihead.two_heads(sentence_embeddings(ex), w_q=semantic_head_of(ex)[0],
                               tokens=tokens)
    heat = {h["name"]: figure.heatmap_slots(h["weights"], tokens, tokens, MAX_TOKENS, lo=0.0,
                                            hi=1.0, cell=CELL, row_name="查询", col_name="键")
            for h in full["heads"]}
    return full, heat


def box(x, y, w, h, text="", hidden=False):
    """A matrix drawn as a block: its corner and size, its centre (cx, cy: the name inside)
    and its label's baseline under it (ty)."""
    return {"x": x, "y": y, "w": w, "h": h, "cx": x + w / 2, "cy": y + h / 2 + 4,
            "ty": y + h + 14, "text": text, "hidden": hidden}


def blocks(used, n_tokens, d_v, d_model):
    """The shape diagram, one matrix entry UNIT units wide: the used heads' outputs
    (n_tokens × d_v each) side by side, which is the concatenation, × W_O (len(used) d_v ×
    d_model) = the output (n_tokens × d_model). A head not used is hidden. {A, B, w_o, out,
    concat (the span of the heads, labelled under them): boxes; times, equals: {x, y};
    width, height}: the same elements whatever `used` is. The frame fits the tallest block
    any view draws (MAX_TOKENS rows, or W_O's two heads), so it never changes."""
    top, gap = 4, 30
    rows, cols = n_tokens * UNIT, d_v * UNIT
    out, x = {}, 0
    for name in "AB":
        on = name in used
        out[name] = box(x if on else 0, top, cols, rows, f"头 {name}", hidden=not on)
        x += cols if on else 0
    width = len(used) * cols  # the concatenation's
    out["concat"] = box(0, top, width, rows, f"拼接 {n_tokens} × {len(used) * d_v}")
    out["times"] = {"x": width + gap / 2, "y": top + rows / 2 + 5}
    out["w_o"] = box(width + gap, top, d_model * UNIT, len(used) * cols,
                     f"W_O {len(used) * d_v} × {d_model}")
    right = width + 2 * gap + d_model * UNIT
    out["equals"] = {"x": right - gap / 2, "y": top + rows / 2 + 5}
    out["out"] = box(right, top, d_model * UNIT, rows, f"输出 {n_tokens} × {d_model}")
    tallest = max(MAX_TOKENS * UNIT, 2 * cols)
    out["width"], out["height"] = 2 * cols + 2 * gap + 2 * d_model * UNIT, top + tallest + 18
    return out


def bands(heat, i, j):
    """The query's row i and its strongest key j framed over a heatmap_slots figure, to the
    used part (as figure.heatmap_sized frames them)."""
    cell, label_w, label_h = heat["cell"], heat["label_w"], heat["label_h"]
    return {"row_band": {"x": 0, "y": label_h + i * cell, "w": heat["vw"], "h": cell},
            "col_band": {"x": label_w + j * cell, "y": 0, "w": cell, "h": heat["vh"]},
            "selected_row": i, "selected_col": j}


@lru_cache(maxsize=64)
def query_part(i, key):
    """What the query (row i of the sentence of `key`) changes: its rows (in MAX_TOKENS
    slots), each head's strongest key, the curves, the bands. Cached: clicking through the
    words comes back to the same ones; callers must not modify it."""
    full, heat = _fixed(key)
    tokens = key[2]
    out = {"query": tokens[i], "index": i}
    for h in full["heads"]:
        name, row = h["name"].lower(), h["weights"][i]  # row: (n,)
        j = int(np.argmax(row))  # the first of equal weights
        out[f"row_{name}"] = padded([row], 1, MAX_TOKENS)[0]
        out[f"top_{name}"] = {"token": tokens[j], "weight": float(row[j])}
        out[f"curves_{name}"] = figure.attention_curves_slots(tokens, row, i, MAX_TOKENS,
                                                              width=CURVES_WIDTH)
        out[f"heat_{name}"] = bands(heat[h["name"]], i, j)
    return out


# What the page binds of a curve (mk.curves_slots): the rest of the curves' figure (the
# tokens' places and labels) changes only with the sentence.
CURVE_BOUND = ("d", "sw", "op", "say", "masked", "tokens", "text", "hidden")


@lru_cache(maxsize=64)
def query_moved(i, key):
    """query_part for a page that shows the sentence already: of the curves' figure only what
    the query moves (the query token's mark, the curves). Cached; callers must not modify it."""
    part = dict(query_part(i, key))
    for name in ("curves_a", "curves_b"):
        fig = part[name]
        part[name] = {"top": [{"query": t["query"]} for t in fig["top"]],
                      "curves": [{k: c[k] for k in CURVE_BOUND} for c in fig["curves"]]}
    return part


@lru_cache(maxsize=16)
def layer(heads, key):
    """(concat, W_O, output) of the chosen heads for a sentence's key (cached; callers must
    not modify them)."""
    full = _fixed(key)[0]
    if heads == "A+B":
        return full["concat"], full["w_o"], full["output"]
    return _layer(full["heads"], heads)


@lru_cache(maxsize=16)
def heads_part(heads, key):
    """What the choice of heads changes: the layer's matrices (padded to the tables' slots:
    MAX_TOKENS rows, CONCAT_SLOTS columns of the concatenation), their shapes and blocks.
    Cached; callers must not modify it."""
    concat, w_o, out = layer(heads, key)  # (n, k d_v), (k d_v, 6), (n, 6) for k heads
    head_a = _fixed(key)[0]["heads"][0]
    n, d_v = len(key[2]), head_a["v"].shape[1]
    used = heads.replace("+", "")
    cols = [f"{h}{j}" for h in used for j in range(d_v)]
    return {
        "heads": heads,
        "concat": padded(concat, MAX_TOKENS, CONCAT_SLOTS),
        "w_o": padded(w_o, CONCAT_SLOTS),
        "output": padded(out, MAX_TOKENS),
        "n_heads": len(used), "d_v": d_v, "n_concat": len(cols),
        "shape_head": _shape(head_a["output"]),
        "shape_concat": _shape(concat), "shape_w_o": _shape(w_o), "shape_output": _shape(out),
        "concat_cols": cols + [""] * (CONCAT_SLOTS - len(cols)),
        "concat_caption": "拼接 = [" + " | ".join(f"头 {h} 的输出" for h in used) + "]",
        "blocks": blocks(used, n, d_v, out.shape[1]),
    }


@lru_cache(maxsize=4)
def sentence_part(key):
    """What only the example decides, as the page shows it: the sentence's slots, both heads'
    weights and outputs, head B's peaks, the heatmaps' cells and labels. Callers must not
    modify it."""
    full, heat = _fixed(key)
    tokens = list(key[2])
    head_a, head_b = full["heads"]
    peaks = np.argmax(head_b["weights"], axis=1)  # (n,): i - 1 for every i >= 1
    return {
        "tokens": tokens, "n": len(tokens), "features": FEATURES, "slots": slots(tokens),
        "weights_a": padded(head_a["weights"], MAX_TOKENS, MAX_TOKENS),  # (n, n) in (s, s)
        "weights_b": padded(head_b["weights"], MAX_TOKENS, MAX_TOKENS),
        # column of the largest weight in each row of head B
        "peak_b": peaks,
        "peak_b_tokens": [tokens[j] for j in peaks] + [""] * (MAX_TOKENS - len(tokens)),
        "head_a": head_a["output"], "head_b": head_b["output"],  # (n, 6) each
        "heat": heat,
        "head_names": HEAD_NAMES,
    }


# What the page binds of a heatmap (mk.heatmap_sized): its frame, its labels, each cell's
# colour, readout and visibility; the cells' places are the same slots for every sentence.
CELL_BOUND = ("c", "say", "masked", "hidden")


@lru_cache(maxsize=4)
def heat_moved(key):
    """Both heads' heatmaps for a page that shows another sentence's: what it binds."""
    return {h: {"viewbox": fig["viewbox"], "vw": fig["vw"], "legend": fig["legend"],
                "rows": [{"label": rw["label"]} for rw in fig["rows"]],
                "cols": [{"label": cl["label"]} for cl in fig["cols"]],
                "cells": [{k: c[k] for k in CELL_BOUND} for c in fig["cells"]]}
            for h, fig in sentence_part(key)["heat"].items()}


def view(query, heads, shown=None, example=None):
    ex, _ = resolve_example(example)
    key = example_key(ex)
    tokens = key[2]
    i = tokens.index(query if query in tokens else PRONOUN)
    out = layer(heads, key)[2]  # (n, 6) the layer's output
    if isinstance(shown, dict) and shown.get("example") == example:
        # the page shows this example's weights, and the parts of `shown`'s parameters
        part = {"output_row": out[i]}
        if shown.get("query") != query:
            part.update(query_moved(i, key))
        if shown.get("heads") != heads:
            part.update(heads_part(heads, key))
        return part
    sen, rows = sentence_part(key), query_part(i, key)
    # a page (it sends `shown`) has the heatmaps' slots: it gets what it binds of them
    heat = heat_moved(key) if isinstance(shown, dict) else sen["heat"]
    whole = {k: v for k, v in sen.items() if k != "heat"}
    return {
        **whole, **rows, **heads_part(heads, key), "output_row": out[i],
        "heat_a": {**heat["A"], **rows["heat_a"]},
        "heat_b": {**heat["B"], **rows["heat_b"]},
    }
