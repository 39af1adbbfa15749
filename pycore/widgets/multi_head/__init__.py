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

The view is declared in parts (PARTS, pycore/view_parts.py): the heads' weights change only
with the example (`sentence`), the query moves the rows, curves and bands (`row`), the heads
the layer (`layer`), and both the query's output row (`output`); a move sends only the parts
that read what it changed.
"""
import numpy as np

from ... import figure, multihead
from ...example import (ALL_TOKENS, FEATURES, MAX_TOKENS, PRONOUN, example_key, example_of_key,
                       resolve_example, semantic_head_of, sentence_embeddings)
from ..attention import padded, slots

HEAD_CHOICES = ["A+B", "A", "B"]
HEAD_NAMES = {"A": "头 A（语义）", "B": "头 B（位置）"}
UNIT = 7  # SVG units per matrix entry in the shape diagram
CELL = 32  # SVG units per heatmap cell
CURVES_WIDTH = 360  # the curves' width: two heads side by side on a wide page
CONCAT_SLOTS = 2 * len(FEATURES)  # the concat table's columns, W_O's rows: both heads'

# `example`: the reader's edited example (None: the book's), from the page, not a block parameter.
INPUTS = ("example",)

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
    """The query's row i and its strongest key j framed over a heatmap in slots (to the used
    part)."""
    return {"row_band": heat["row_bands"][i], "col_band": heat["col_bands"][j],
            "selected_row": i, "selected_col": j}


# The keys of the heatmap that the query's row draws (bands), not the sentence.
BAND_KEYS = ("row_band", "col_band", "selected_row", "selected_col")


def sentence(example=None):
    """What only the example decides: the sentence's slots, both heads' weights and outputs,
    head B's peaks, the heatmaps (one 0-1 scale) but their bands."""
    ex, _ = resolve_example(example)
    tokens = list(ex["tokens"])
    full = multihead.two_heads(sentence_embeddings(ex), w_q=semantic_head_of(ex)[0],
                               tokens=tokens)
    head_a, head_b = full["heads"]
    heat = {}
    for h in full["heads"]:
        fig = figure.heatmap(h["weights"], tokens, tokens, slots=MAX_TOKENS, weights=True,
                             cell=CELL, row_name="查询", col_name="键")
        heat[h["name"]] = {k: v for k, v in fig.items() if k not in BAND_KEYS}
    peaks = np.argmax(head_b["weights"], axis=1)  # (n,): i - 1 for every i >= 1
    return {
        "tokens": tokens, "n": len(tokens), "features": FEATURES, "slots": slots(tokens),
        "weights_a": padded(head_a["weights"], MAX_TOKENS, MAX_TOKENS),  # (n, n) in (s, s)
        "weights_b": padded(head_b["weights"], MAX_TOKENS, MAX_TOKENS),
        # column of the largest weight in each row of head B
        "peak_b": peaks,
        "peak_b_tokens": [tokens[j] for j in peaks] + [""] * (MAX_TOKENS - len(tokens)),
        "head_a": head_a["output"], "head_b": head_b["output"],  # (n, 6) each
        "heat_a": heat["A"], "heat_b": heat["B"],
        "head_names": HEAD_NAMES,
        "_full": full,
    }


def row(query, sentence):
    """What the query changes (它 if the sentence lacks it): its rows (in MAX_TOKENS slots),
    each head's strongest key, the curves, the bands."""
    full, tokens = sentence["_full"], sentence["tokens"]
    i = tokens.index(query if query in tokens else PRONOUN)
    out = {"query": tokens[i], "index": i}
    for h in full["heads"]:
        name, weights = h["name"].lower(), h["weights"][i]  # (n,)
        j = int(np.argmax(weights))  # the first of equal weights
        out[f"row_{name}"] = padded([weights], 1, MAX_TOKENS)[0]
        out[f"top_{name}"] = {"token": tokens[j], "weight": float(weights[j])}
        out[f"curves_{name}"] = figure.attention_curves(tokens, weights, i, slots=MAX_TOKENS,
                                                        width=CURVES_WIDTH)
        out[f"heat_{name}"] = bands(sentence[f"heat_{name}"], i, j)
    return out


def layer(heads, sentence):
    """What the choice of heads changes: the layer's matrices (padded to the tables' slots:
    MAX_TOKENS rows, CONCAT_SLOTS columns of the concatenation), their shapes and blocks."""
    full = sentence["_full"]
    if heads == "A+B":
        concat, w_o, out = full["concat"], full["w_o"], full["output"]
    else:
        concat, w_o, out = _layer(full["heads"], heads)  # (n, k d_v), (k d_v, 6), (n, 6)
    head_a = full["heads"][0]
    n, d_v = sentence["n"], head_a["v"].shape[1]
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
        "_out": out,
    }


def output(row, layer):
    """The query's row of the layer's output."""
    return {"output_row": layer["_out"][row["index"]]}


PARTS = (sentence, row, layer, output)
