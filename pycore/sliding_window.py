"""Sliding-window attention: a causal mask that also forgets what is more than w tokens back.

Query i may look at key j when i - w <= j <= i (the window w counts the tokens back; the query
itself is always in). One layer moves information at most w positions to the right, but the
layers stack: a token at layer l reads tokens at layer l - 1 that each read w further back, so
after L layers position i can have heard from position i - L w (the receptive field L x w).
reach() finds that by following the mask layer by layer, not from the formula, so the formula
can be checked against it.
"""
import numpy as np

from .softmax import softmax


def window_mask(n, w):
    """(n, n) booleans: True where query i may look at key j, i - w <= j <= i."""
    i, j = np.indices((n, n))
    return (j <= i) & (j >= i - w)


def window_attention(q, k, w, scale=1.0):
    """The weights softmax(scale Q K^T / sqrt(d_k)) with every key outside the window at 0."""
    scores = scale * (q @ k.T) / np.sqrt(q.shape[-1])
    return softmax(np.where(window_mask(len(q), w), scores, -np.inf), axis=-1)


def reach(n, w, layers, query):
    """(layers + 1, n) booleans: row l says which positions at layer l (0: the embeddings) can
    send information to `query` at the top layer, following the mask down one layer at a time."""
    mask = window_mask(n, w)
    rows = [np.eye(n, dtype=bool)[query]]           # the top layer: the query itself
    for _ in range(layers):
        rows.append(mask[rows[-1]].any(axis=0))  # every key those positions read
    return np.array(rows[::-1])
