"""Widget multi-head: head A (semantic) and head B (previous token) over the running example,
their concatenation and W_O. The math is pycore.multihead; this module only picks what the
page shows.

`heads` chooses which heads feed the layer: "A+B" (the chapter's two-head layer: concat
(9, 12), W_O (12, 6)), or one head alone (concat (9, 6), W_O = I (6, 6)). Both weight
matrices are always shown, so the reader can compare them whatever is switched on.

The picture: both heads' weights as heatmaps on one 0-1 scale with the query's row framed,
the query's row of each head as curves over the sentence, and the layer's matrices as blocks
drawn to their shapes (concatenated heads × W_O = output). The heads' weights never change,
the query moves the rows and curves, the heads the layer: without `shown` the view is whole
(the build, the tests); the page passes `shown`, the query and heads it displays, and gets
only the parts those changed (the query's output row always).
"""
from functools import lru_cache

import numpy as np

from .. import figure, multihead
from ..example import (FEATURES, TOKENS, embeddings, example_key, resolve_example,
                       semantic_head_of, sentence_note)

HEAD_CHOICES = ["A+B", "A", "B"]
HEAD_NAMES = {"A": "头 A（语义）", "B": "头 B（位置）"}
UNIT = 7  # SVG units per matrix entry in the shape diagram

# What the page already displays ({query, heads, example}) is an input of the view, not a
# block parameter: the heads' weights depend on no parameter, so a `shown` of the same example
# means the page has them. `example`: the reader's edited example (None: the book's).
INPUTS = ("shown", "example")

PARAMS = {
    "query": {"type": "choice", "choices": TOKENS, "default": "它",
              "help": "the token whose row is highlighted in both heads"},
    "heads": {"type": "choice", "choices": HEAD_CHOICES, "default": "A+B",
              "help": "which heads are concatenated and fed to W_O"},
}


def _shape(a):
    return " × ".join(str(s) for s in np.shape(a))


def _layer(heads, used):
    """Concatenation, W_O and output for the heads in `used` (their outputs side by side)."""
    outs = [h["output"] for h in heads if h["name"] in used]
    concat = np.concatenate(outs, axis=1)  # (9, 6 * len(outs))
    w_o = multihead.output_matrix(outs[0].shape[1], len(outs))  # (6 * len(outs), 6)
    return concat, w_o, concat @ w_o


def fixed(ex):
    """The two heads and their heatmaps (one 0-1 scale) of a checked example: no parameter
    changes them. Computed once per example; callers must not modify it."""
    return _fixed(example_key(ex))


@lru_cache(maxsize=4)
def _fixed(key):
    x, pronoun = key
    ex = {"x": [list(r) for r in x], "pronoun": list(pronoun)}
    full = multihead.two_heads(embeddings(ex), w_q=semantic_head_of(ex)[0])
    tokens = TOKENS
    heat = {h["name"]: figure.heatmap(h["weights"], tokens, tokens, cell=32, lo=0.0, hi=1.0,
                                      row_name="查询", col_name="键")
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
    width, height}: the same elements whatever `used` is."""
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
    out["width"], out["height"] = 2 * cols + 2 * gap + 2 * d_model * UNIT, top + 2 * cols + 18
    return out


def query_part(query, i, ex):
    """What the query changes: its rows, each head's strongest key, the curves, the frames."""
    return _query_part(query, i, example_key(ex))


@lru_cache(maxsize=64)
def _query_part(query, i, key):
    """query_part of a checked example's key (cached: clicking through the words comes back
    to the same ones; callers must not modify it)."""
    full, heat = _fixed(key)
    head_a, head_b = full["heads"]
    tokens = TOKENS

    def top(h):
        j = int(np.argmax(h["weights"][i]))
        return {"token": tokens[j], "weight": h["weights"][i, j]}

    return {
        "query": query, "index": i,
        "row_a": head_a["weights"][i], "row_b": head_b["weights"][i],
        "top_a": top(head_a), "top_b": top(head_b),
        # the picture: each head's row over the sentence, its row framed in its heatmap
        "curves_a": figure.attention_curves(tokens, head_a["weights"][i], i, width=360),
        "curves_b": figure.attention_curves(tokens, head_b["weights"][i], i, width=360),
        "heat_a": {"frames": figure.heat_frames(heat["A"], rows=[i])},
        "heat_b": {"frames": figure.heat_frames(heat["B"], rows=[i])},
    }


def heads_part(heads, ex):
    """What the choice of heads changes: the layer's matrices, their shapes and blocks."""
    return _heads_part(heads, example_key(ex))


@lru_cache(maxsize=16)
def layer(heads, key):
    """(concat, W_O, output) of the chosen heads for a checked example's key (cached; callers
    must not modify them)."""
    full = _fixed(key)[0]
    if heads == "A+B":
        return full["concat"], full["w_o"], full["output"]
    return _layer(full["heads"], heads)


@lru_cache(maxsize=16)
def _heads_part(heads, key):
    """heads_part of a checked example's key (cached; callers must not modify it)."""
    concat, w_o, out = layer(heads, key)
    head_a = _fixed(key)[0]["heads"][0]
    d_v = head_a["v"].shape[1]
    used = heads.replace("+", "")
    return {
        "tokens": TOKENS, "features": FEATURES,  # the tables' labels (JS)
        "heads": heads,
        "concat": concat, "w_o": w_o, "output": out,
        "n_heads": len(used), "d_v": d_v,
        "shape_head": _shape(head_a["output"]),
        "shape_concat": _shape(concat), "shape_w_o": _shape(w_o), "shape_output": _shape(out),
        "concat_cols": [f"{h}{j}" for h in used for j in range(d_v)],
        "concat_caption": "拼接 = [" + " | ".join(f"头 {h} 的输出" for h in used) + "]",
        "blocks": blocks(used, len(TOKENS), d_v, out.shape[1]),
    }


def view(query, heads, shown=None, example=None):
    ex, _ = resolve_example(example)
    key = example_key(ex)
    full, heat = _fixed(key)
    head_a, head_b = full["heads"]
    out = layer(heads, key)[2]  # (9, 6) the layer's output
    i = TOKENS.index(query)
    if isinstance(shown, dict) and shown.get("example") != example:
        shown = None  # another example: the page's weights are out of date, all is new
    if shown is not None:  # the page shows the weights, and the parts of `shown`'s parameters
        part = {"output_row": out[i], "sentence_note": sentence_note(ex)}
        if shown.get("query") != query:
            part.update(query_part(query, i, ex))
        if shown.get("heads") != heads:
            part.update(heads_part(heads, ex))
        return part
    part = {**query_part(query, i, ex), **heads_part(heads, ex),
            "output_row": out[i], "sentence_note": sentence_note(ex)}
    return {
        **part,
        "weights_a": head_a["weights"], "weights_b": head_b["weights"],
        # column of the largest weight in each row of head B (i - 1 for every i >= 1)
        "peak_b": np.argmax(head_b["weights"], axis=1),
        "peak_b_tokens": [TOKENS[j] for j in np.argmax(head_b["weights"], axis=1)],
        "head_a": head_a["output"], "head_b": head_b["output"],
        "heat_a": {**heat["A"], **part["heat_a"]},
        "heat_b": {**heat["B"], **part["heat_b"]},
        "head_names": HEAD_NAMES,
    }
