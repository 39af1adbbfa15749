"""The multi-head widget: two hand-made heads over the running example, concatenated, then W_O.

Head A (semantic): the semantic head of pycore.example (W_Q, W_K, W_V), on the embeddings.
Head B (positional): ignores the words when it scores. Query of token i = PE(i - 1), key of
token j = PE(j), with the sinusoidal encoding of pycore.positional at d_pe = 16. Since
PE(p) . PE(p + k) = sum_i cos(w_i k) is largest only at k = 0, the score of row i peaks at
j = i - 1 (for i = 0 the query is PE(-1) and the peak falls on j = 0, the nearest position).
Logit scale: scale_b = 16, so logits = 16 * PE(i-1).PE(j) / sqrt(16) = 4 PE(i-1).PE(j).
With it the weight on the previous token is between 0.79 and 0.88 for every i >= 1 (at
scale 1 the argmax is the same but the row is nearly flat, about 0.15-0.17). Its values
are the embeddings themselves (W_V = I), so head B hands each token the previous word.

Concatenation: (n, 6) | (n, 6) -> (n, 12) for a sentence of n tokens (the book's has 9).
W_O = [I; I] / 2, shape (12, 6): the output is the mean of the two heads' outputs, feature by
feature.
"""
import numpy as np

from . import example, positional
from .attention import attention

D_PE = 16
SCALE_B = 16.0


def head_a(x, scale=1.0, w_q=None):
    """The semantic head on x (n, d): dict of q, k, v, scores, weights, output. w_q: another
    W_Q (d, d), e.g. with the reader's pronoun row (default: the book's)."""
    w_book, w_k, w_v = example.semantic_head()
    w_q = w_book if w_q is None else np.asarray(w_q, dtype=float)
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # each (n, d)
    weights, out, scores = attention(q, k, v, scale=scale)
    return {"name": "A", "q": q, "k": k, "v": v, "scores": scores, "weights": weights,
            "output": out}


def head_b(x, d_pe=D_PE, scale=SCALE_B):
    """The previous-token head on x (n, d): queries PE(i-1), keys PE(j), values x."""
    n = len(x)
    q = positional.encode(np.arange(n) - 1, d_pe)  # (n, d_pe): PE of the previous slot
    k = positional.sinusoidal(n, d_pe)  # (n, d_pe)
    v = np.asarray(x, dtype=float)  # (n, d)
    weights, out, scores = attention(q, k, v, scale=scale)
    return {"name": "B", "q": q, "k": k, "v": v, "scores": scores, "weights": weights,
            "output": out}


def output_matrix(d, n_heads=2):
    """W_O = [I; I; ...] / n_heads, shape (n_heads * d, d): the mean of the heads."""
    return np.vstack([np.eye(d)] * n_heads) / n_heads


def two_heads(x=None, scale_a=1.0, d_pe=D_PE, scale_b=SCALE_B, w_q=None, tokens=None):
    """Everything the multi-head widget shows, for x (n, 6) (default: the running example's
    nine tokens) and head A's w_q (default: the book's). tokens: the sentence x stands for
    (default: the book's)."""
    x = example.EMBEDDINGS if x is None else np.asarray(x, dtype=float)  # (n, 6)
    heads = [head_a(x, scale_a, w_q), head_b(x, d_pe, scale_b)]
    concat = np.concatenate([h["output"] for h in heads], axis=1)  # (n, 12)
    w_o = output_matrix(x.shape[1], len(heads))  # (12, 6)
    out = concat @ w_o  # (n, 6)
    shapes = [("X", x.shape)]
    for h in heads:
        n = h["name"]
        shapes += [(f"Q_{n}", h["q"].shape), (f"K_{n}", h["k"].shape), (f"V_{n}", h["v"].shape),
                   (f"weights_{n}", h["weights"].shape), (f"head_{n}", h["output"].shape)]
    shapes += [("concat", concat.shape), ("W_O", w_o.shape), ("output", out.shape)]
    return {"tokens": list(example.TOKENS if tokens is None else tokens), "heads": heads,
            "concat": concat, "w_o": w_o, "output": out, "shapes": shapes}
