"""Widget attention: the semantic head over the running example.

The view returns the numbers and the picture: the query's row as curves over the sentence
(figure.attention_curves_slots), the whole matrix as a heatmap with the query's row and its
strongest key highlighted (figure.heatmap_sized), and the key figure (the weight on that key).
The reader's sentence may be longer or shorter than the book's (pycore.example.PALETTE): the
page keeps MAX_TOKENS slots of every token list, and the view fills them (unused ones hidden,
every table padded with zeros) so the same elements redraw any sentence."""
import json

import numpy as np

from .. import figure
from ..example import (ALL_TOKENS, FEATURES, MAX_TOKENS, PRONOUN, resolve_example,
                       semantic_head_of, sentence_embeddings)
from ..attention import attention, causal_mask

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


def padded(m, rows, cols=None):
    """m (n, c) as a list of `rows` rows (of `cols` entries if given), zeros added."""
    m = np.asarray(m, dtype=float)
    out = np.zeros((rows, cols if cols is not None else m.shape[1]))
    out[:m.shape[0], :m.shape[1]] = m
    return out


def slots(tokens):
    """The sentence in MAX_TOKENS slots: label, the query picker's value (JSON, False when
    unused: the button has no value) and hidden."""
    return [{"label": t, "value": json.dumps(t, ensure_ascii=False), "hidden": False}
            for t in tokens] + [{"label": "", "value": False, "hidden": True}
                                for _ in range(MAX_TOKENS - len(tokens))]


def view(query, scale, causal, example=None):
    ex, _ = resolve_example(example)
    tokens = ex["tokens"]
    n, s = len(tokens), MAX_TOKENS
    x = sentence_embeddings(ex)  # (n, 6)
    w_q, w_k, w_v = semantic_head_of(ex)
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (n, 6)
    weights, out, scores = attention(q, k, v, causal=causal, scale=scale)
    query = query if query in tokens else PRONOUN
    i = tokens.index(query)
    strongest = int(np.argmax(weights[i]))
    hidden = ~causal_mask(n) if causal else np.zeros((n, n), dtype=bool)
    return {
        "tokens": tokens, "n": n, "features": FEATURES, "slots": slots(tokens),
        "query": query, "index": i, "scale": scale, "causal": causal,
        "q": padded(q, s), "k": padded(k, s), "v": padded(v, s),
        "scores": padded(scores, s, s),  # scale * Q K^T / sqrt(d_k), before mask and softmax
        "weights": padded(weights, s, s),  # (n, n) in (s, s), rows sum to 1
        "row": padded(weights[i:i + 1], 1, s)[0],
        "output": out[i],          # the query's new vector, a weighted mean of the V rows
        "top": {"token": tokens[strongest], "weight": weights[i, strongest]},
        "curves": figure.attention_curves_slots(tokens, weights[i], i, s, masked=hidden[i]),
        "heat": figure.heatmap_sized(weights, tokens, s, lo=0.0, hi=float(weights.max()),
                                     selected_row=i, selected_col=strongest, masked=hidden,
                                     row_name="查询", col_name="键"),
    }
