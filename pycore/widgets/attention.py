"""Widget attention: the semantic head over the running example.

The view returns the numbers and the picture: the query's row as curves over the sentence
(figure.attention_curves), the whole matrix as a heatmap with the query's row and its
strongest key highlighted (figure.heatmap), and the key figure (the weight on that key)."""
import numpy as np

from .. import figure
from ..example import FEATURES, TOKENS, embeddings, resolve_example, semantic_head_of
from ..attention import attention, causal_mask

# The reader's edited example (pycore.example.checked_example's dict), from the page: never a
# block parameter. Without it (or with junk in it), the book's example.
INPUTS = ("example",)

PARAMS = {
    "query": {"type": "choice", "choices": TOKENS, "default": "它",
              "help": "the token whose row of weights is drawn"},
    "scale": {"type": "float", "min": 0.25, "max": 6.0, "default": 1.0, "step": 0.25,
              "help": "multiplies the logits; 1 = divide by sqrt(d_k) as in the paper"},
    "causal": {"type": "bool", "default": False, "help": "hide the future (j > i)"},
}


def view(query, scale, causal, example=None):
    ex, _ = resolve_example(example)
    tokens = TOKENS
    x = embeddings(ex)  # (9, 6)
    w_q, w_k, w_v = semantic_head_of(ex)
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (9, 6)
    weights, out, scores = attention(q, k, v, causal=causal, scale=scale)
    i = tokens.index(query)
    strongest = int(np.argmax(weights[i]))
    hidden = ~causal_mask(len(tokens)) if causal else np.zeros((len(tokens),) * 2, dtype=bool)
    return {
        "tokens": tokens, "features": FEATURES,
        "query": query, "index": i, "scale": scale, "causal": causal,
        "q": q, "k": k, "v": v,
        "scores": scores,          # scale * Q K^T / sqrt(d_k), before mask and softmax
        "weights": weights,        # (9, 9), rows sum to 1
        "row": weights[i],
        "output": out[i],          # the query's new vector, a weighted mean of the V rows
        "top": {"token": tokens[strongest], "weight": weights[i, strongest]},
        "curves": figure.attention_curves(tokens, weights[i], i, masked=hidden[i]),
        "heat": figure.heatmap(weights, tokens, tokens, lo=0.0, hi=float(weights.max()),
                               selected_row=i, selected_col=strongest, masked=hidden,
                               row_name="查询", col_name="键"),
    }
