"""Widget attention: the semantic head over the running example.

The view returns the numbers and the picture: the query's row as curves over the sentence
(figure.attention_curves with slots), the whole matrix as a heatmap with the query's row and
its strongest key highlighted (figure.heatmap with slots, two of its row_bands and col_bands),
and the key figure (the weight on that key). The reader's sentence may be longer or shorter
than the book's (pycore.example.PALETTE): the page keeps MAX_TOKENS slots of every token list,
and the view fills them (unused ones hidden, every table padded with zeros) so the same
elements redraw any sentence.

A view is asked for at every click and slider step, in Pyodide, so it is declared in three
parts (PARTS, pycore/view_parts.py), each computed when what it reads changes: the
sentence's (labels, slots, Q, K, V, every place of the picture), the weights' (the logits'
scale and the mask: the weights and the heatmap's cells) and the query's row (its weights,
curves and bands), each with the marks of pycore/figure.py; the parts together are what
figure.attention_curves and figure.heatmap draw in one piece (tests/test_pycore_example.py
compares them). A click on another query brings the row part alone."""
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

# The picture's layout (the marks' defaults but the curves' width).
WIDTH = 400
HEAT = {"weights": True, "row_name": "查询", "col_name": "键"}
# What the later parts draw of the heatmap (its cells, legend and bands), not the sentence's.
LATER = ("cells", "legend", "row_band", "col_band", "selected_row", "selected_col")


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
    curves' key row, the heatmap's frame and its cells' places)."""
    ex, _ = resolve_example(example)
    tokens = ex["tokens"]
    n, s = len(tokens), MAX_TOKENS
    x = sentence_embeddings(ex)  # (n, 6)
    w_q, w_k, w_v = semantic_head_of(ex)
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (n, 6)
    curves = figure.attention_curves(tokens, np.ones(n) / n, 0, width=WIDTH, slots=s)
    frame = figure.heatmap(np.zeros((n, n)), tokens, tokens, slots=s, **HEAT)
    return {"tokens": tokens, "n": n, "features": FEATURES, "slots": slots(tokens),
            "q": padded(q, s), "k": padded(k, s), "v": padded(v, s),
            "curves": {key: curves[key] for key in ("width", "height", "bottom", "slots")},
            # the cells' places are the sentence's: a move of the scale brings their colours
            # and readouts alone (mk.heatmap with slots reads a cell's place here)
            "heat": {**{key: v for key, v in frame.items() if key not in LATER},
                     "places": [{key: c[key] for key in ("i", "j", "x", "y", "w", "h")}
                                for c in frame["cells"]]},
            "_q": q, "_k": k, "_v": v}


def weights(sentence, scale, causal):
    """What the logits' scale and the mask decide: the weights, the outputs and the heatmap's
    cells (each one's colour class, readout, mask and slot: what the page draws; the values
    are the weights' table)."""
    sen = sentence
    tokens, n, s = sen["tokens"], sen["n"], MAX_TOKENS
    w_all, out, scores = attention(sen["_q"], sen["_k"], sen["_v"], causal=causal, scale=scale)
    heat = figure.heatmap(w_all, tokens, tokens, slots=s, masked=_mask(n, causal), **HEAT)
    return {"scale": scale, "causal": causal,
            "weights": padded(w_all, s, s),  # (n, n) in (s, s), rows sum to 1
            "scores": padded(scores, s, s),  # scale * Q K^T / sqrt(d_k), before mask, softmax
            "heat": {"cells": [{key: c[key] for key in ("c", "say", "masked", "hidden")}
                               for c in heat["cells"]], "legend": heat["legend"]},
            "_w": w_all.tolist(), "_out": out.tolist()}


def _mask(n, causal):
    """The causal mask (j > i hidden) of n tokens, or none."""
    return [[causal and j > i for j in range(n)] for i in range(n)]


def row(query, causal, sentence, weights):
    """The query's row: its weights, output, strongest key, curves and bands (an unknown
    query, e.g. a word the reader's sentence lacks, is 它)."""
    tokens, n = sentence["tokens"], sentence["n"]
    query = query if query in tokens else PRONOUN
    i = tokens.index(query)
    w = weights["_w"][i]
    strongest = w.index(max(w))  # the first of equal weights, as np.argmax
    heat = sentence["heat"]
    curves = figure.attention_curves(tokens, w, i, width=WIDTH, slots=MAX_TOKENS,
                                     masked=[causal and j > i for j in range(n)])
    return {
        "query": query, "index": i,
        "row": w + [0.0] * (MAX_TOKENS - n),
        "output": weights["_out"][i],  # the query's new vector, a weighted mean of the V rows
        "top": {"token": tokens[strongest], "weight": w[strongest]},
        "curves": {key: curves[key] for key in ("top", "curves", "query")},
        "heat": {"selected_row": i, "selected_col": strongest,
                 "row_band": heat["row_bands"][i], "col_band": heat["col_bands"][strongest]},
    }


PARTS = (sentence, weights, row)
