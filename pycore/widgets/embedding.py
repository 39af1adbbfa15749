"""Widget embedding: the running example's 9x6 embedding table, one chosen pair of tokens
compared by dot product and cosine, and the 9x9 similarity matrices of all tokens.

The picture: the table as a heatmap (tokens × features) with the two picked rows framed, and
both similarity matrices as heatmaps with the pair's two cells framed. The matrices never
change with the pair (only with the reader's edited example); only the frames and the pair's
figures follow the reader's choice. So the view has a fixed part (the matrices and their
heatmaps, computed once per example) and a part of the pair: without `shown` it is the whole
view (the build, the tests); the page, which already shows the fixed part of an example,
passes `shown` (that example) and gets the pair's part alone."""
from functools import lru_cache

import numpy as np

from .. import figure, vectors
from ..example import (FEATURES, TOKENS, embeddings, example_key, resolve_example,
                       sentence_note)

# What the page already displays ({"example": ...}) is an input of the view, not a block
# parameter: the fixed part depends on no parameter, so a `shown` of the same example means
# the page has it. `example`: the reader's edited example (None: the book's).
INPUTS = ("shown", "example")

PARAMS = {
    "a": {"type": "choice", "choices": TOKENS, "default": "小猫",
          "help": "the first token of the compared pair"},
    "b": {"type": "choice", "choices": TOKENS, "default": "马路",
          "help": "the second token of the compared pair"},
}


def similarity_matrices(rows):
    """(every pairwise dot product, every pairwise cosine) of the rows, each as nested lists."""
    dots = [[vectors.dot(x, y) for y in rows] for x in rows]
    cosines = [[vectors.cosine(x, y) for y in rows] for x in rows]
    return dots, cosines


def pairwise(matrix, tokens, say, digits, cell=30):
    """A 9x9 similarity heatmap: sequential from 0 when no entry is negative, else diverging
    around 0; each cell says `say(token, token, value)`."""
    diverging = min(min(row) for row in matrix) < 0
    heat = figure.heatmap(matrix, tokens, tokens, cell=cell, diverging=diverging, digits=digits,
                          lo=None if diverging else 0.0)
    for c in heat["cells"]:
        c["say"] = say(tokens[c["i"]], tokens[c["j"]], c["v"])
    return heat


def fixed(ex):
    """What no choice changes: the similarity matrices and the three heatmaps of a checked
    example. Computed once per example (the reader's picks only move the frames); callers
    must not modify it."""
    return _fixed(example_key(ex))


@lru_cache(maxsize=4)
def _fixed(key):
    tokens, features = TOKENS, FEATURES
    e = np.array(key[0], dtype=float)  # (9, 6)
    dots, cosines = similarity_matrices(e)
    table = figure.heatmap(e, tokens, features, cell=36, lo=0.0, hi=max(1.0, float(e.max())),
                           digits=0, label_w=44, label_h=26)
    for c in table["cells"]:
        c["say"] = f"{tokens[c['i']]} 的「{features[c['j']]}」 = {figure.fmt(c['v'], 0)}"
    dot_heat = pairwise(dots, tokens, lambda s, t, x: f"{s} · {t} = {figure.fmt(x, 0)}", 0)
    cos_heat = pairwise(cosines, tokens,
                        lambda s, t, x: f"cos(「{s}」,「{t}」) = {figure.fmt(x, 4)}", 2)
    return dots, cosines, table, dot_heat, cos_heat


def view(a, b, shown=None, example=None):
    ex, _ = resolve_example(example)
    tokens = TOKENS
    e = embeddings(ex)  # (9, 6): one row per token
    ia, ib = tokens.index(a), tokens.index(b)
    dots, cosines, table, dot_heat, cos_heat = fixed(ex)
    pair = [(ia, ib), (ib, ia)]
    out = {
        "a": a, "b": b, "ia": ia, "ib": ib,
        "sentence_note": sentence_note(ex),  # the nine book tokens only, so far
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
        "tokens": tokens, "features": FEATURES,
        "embeddings": e,
        "dots": dots,          # (9, 9): E E^T
        "cosines": cosines,    # (9, 9): E E^T divided by the product of the row lengths
        "max_dot": max(max(row) for row in dots),  # the dot heatmap's top
        "table": {**table, **out["table"]},
        "dot_heat": {**dot_heat, **out["dot_heat"]},
        "cos_heat": {**cos_heat, **out["cos_heat"]},
    }
