"""Widget embedding: the running example's embedding table (a row of six features per token of
the sentence), one chosen pair of tokens compared by dot product and cosine, and the
similarity matrices of all the sentence's tokens.

The picture: the table as a heatmap (tokens × features) with the two picked rows framed, and
both similarity matrices as heatmaps with the pair's two cells framed. The matrices never
change with the pair (only with the reader's edited example); only the frames and the pair's
figures follow the reader's choice. So the view has a fixed part (the matrices and their
heatmaps, computed once per example) and a part of the pair: without `shown` it is the whole
view (the build, the tests); the page, which already shows the fixed part of an example,
passes `shown` (that example) and gets the pair's part alone.

The reader's sentence may be longer or shorter than the book's (pycore.example.PALETTE): the
page keeps MAX_TOKENS slots of every token list (the pickers, the table's rows, the matrices'
rows and columns), and the view fills them, the unused ones hidden and every table padded
with zeros, as the attention widget does."""
from functools import lru_cache

import numpy as np

from .. import figure, vectors
from ..example import (ALL_TOKENS, FEATURES, MAX_TOKENS, example_key, example_of_key,
                       resolve_example, sentence_embeddings)
from .attention import padded, slots

# What the page already displays ({"example": ...}) is an input of the view, not a block
# parameter: the fixed part depends on no parameter, so a `shown` of the same example means
# the page has it. `example`: the reader's edited example (None: the book's).
INPUTS = ("shown", "example")

PARAMS = {
    "a": {"type": "choice", "choices": ALL_TOKENS, "default": "小猫",
          "help": "the first token of the compared pair (the sentence's first if it lacks it)"},
    "b": {"type": "choice", "choices": ALL_TOKENS, "default": "马路",
          "help": "the second token of the compared pair (the sentence's last if it lacks it)"},
}


def similarity_matrices(rows):
    """(every pairwise dot product, every pairwise cosine) of the rows, each as nested lists."""
    dots = [[vectors.dot(x, y) for y in rows] for x in rows]
    cosines = [[vectors.cosine(x, y) for y in rows] for x in rows]
    return dots, cosines


def pairwise(matrix, tokens, say, digits, cell=30):
    """An n x n similarity heatmap in MAX_TOKENS slots (figure.heatmap_slots), sequential from
    0 (a checked example's entries are 0..2, so no similarity is negative); each used cell
    says `say(token, token, value)`."""
    hi = max(max(row) for row in matrix)
    heat = figure.heatmap_slots(matrix, tokens, tokens, MAX_TOKENS, lo=0.0, hi=hi, cell=cell,
                                digits=digits)
    for c in heat["cells"]:
        if not c["hidden"]:
            c["say"] = say(tokens[c["i"]], tokens[c["j"]], c["v"])
    return heat


def table_heatmap(e, tokens, cell=36, label_w=44, label_h=26):
    """The embedding table (n tokens x 6 features) in MAX_TOKENS rows: figure.heatmap of the
    rows padded with zeros, the spare rows hidden (no label, no readout) and below the
    viewBox, which frames the used rows."""
    n = len(tokens)
    labels = list(tokens) + [""] * (MAX_TOKENS - n)
    table = figure.heatmap(padded(e, MAX_TOKENS), labels, FEATURES, cell=cell, lo=0.0,
                           hi=max(1.0, float(e.max())), digits=0, label_w=label_w,
                           label_h=label_h)
    for c in table["cells"]:
        c["hidden"] = c["i"] >= n
        c["say"] = "" if c["hidden"] else \
            f"{tokens[c['i']]} 的「{FEATURES[c['j']]}」 = {figure.fmt(c['v'], 0)}"
    for rw in table["rows"]:
        rw["hidden"] = rw["i"] >= n
    vw, vh = table["width"], label_h + n * cell
    table.update({"slots": MAX_TOKENS, "n_rows": n, "vw": vw, "vh": vh,
                  "viewbox": f"0 0 {vw} {vh}"})
    return table


def fixed(ex):
    """What no choice changes: the similarity matrices and the three heatmaps of a checked
    example's sentence. Computed once per example (the reader's picks only move the frames);
    callers must not modify it."""
    return _fixed(example_key(ex))


@lru_cache(maxsize=4)
def _fixed(key):
    tokens = key[2]
    e = sentence_embeddings(example_of_key(key))  # (n, 6)
    dots, cosines = similarity_matrices(e)  # each (n, n)
    table = table_heatmap(e, tokens)
    dot_heat = pairwise(dots, tokens, lambda s, t, x: f"{s} · {t} = {figure.fmt(x, 0)}", 0)
    cos_heat = pairwise(cosines, tokens,
                        lambda s, t, x: f"cos(「{s}」,「{t}」) = {figure.fmt(x, 4)}", 2)
    return e, dots, cosines, table, dot_heat, cos_heat


def view(a, b, shown=None, example=None):
    ex, _ = resolve_example(example)
    tokens = ex["tokens"]
    a = a if a in tokens else tokens[0]
    b = b if b in tokens else tokens[-1]
    ia, ib = tokens.index(a), tokens.index(b)
    e, dots, cosines, table, dot_heat, cos_heat = fixed(ex)  # e: (n, 6), a row per token
    pair = [(ia, ib), (ib, ia)]
    out = {
        "a": a, "b": b, "ia": ia, "ib": ib,
        "vec_a": e[ia], "vec_b": e[ib],
        "dot": vectors.dot(e[ia], e[ib]),
        "norm_a": vectors.norm(e[ia]), "norm_b": vectors.norm(e[ib]),
        "cos": vectors.cosine(e[ia], e[ib]),
        # the picked rows (A, then B) and the pair's two cells, framed
        "table": {"frames": figure.heat_frames(table, rows=[ia, ib])},
        "dot_heat": {"frames": figure.heat_frames(dot_heat, cells=pair)},
        "cos_heat": {"frames": figure.heat_frames(cos_heat, cells=pair)},
    }
    if isinstance(shown, dict) and shown.get("example") == example:
        return out
    return {
        **out,
        "tokens": tokens, "n": len(tokens), "features": FEATURES, "slots": slots(tokens),
        "embeddings": padded(e, MAX_TOKENS),        # (n, 6) in (s, 6)
        "dots": padded(dots, MAX_TOKENS, MAX_TOKENS),  # (n, n) in (s, s): E E^T
        # (n, n) in (s, s): E E^T divided by the product of the row lengths
        "cosines": padded(cosines, MAX_TOKENS, MAX_TOKENS),
        "max_dot": max(max(row) for row in dots),  # the dot heatmap's top
        "table": {**table, **out["table"]},
        "dot_heat": {**dot_heat, **out["dot_heat"]},
        "cos_heat": {**cos_heat, **out["cos_heat"]},
    }
