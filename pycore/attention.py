"""Scaled dot-product attention with an optional causal mask."""
import numpy as np

from .softmax import softmax


def causal_mask(n):
    """(n, n) boolean matrix, True where query i may look at key j (j <= i)."""
    return np.tril(np.ones((n, n), dtype=bool))


def attention(q, k, v, *, causal=False, scale=1.0):
    """softmax(scale * Q K^T / sqrt(d_k)) V.

    q: (n, d_k), k: (m, d_k), v: (m, d_v). `scale` multiplies the logits: 1 is the paper's
    choice; larger values imitate leaving out the 1/sqrt(d_k) and show softmax saturating.
    Returns (weights (n, m), output (n, d_v), scores (n, m)), where scores are the logits
    before the mask and the softmax.
    """
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    d_k = q.shape[-1]
    scores = scale * (q @ k.T) / np.sqrt(d_k)  # (n, m)
    logits = np.where(causal_mask(len(q)), scores, -np.inf) if causal else scores
    weights = softmax(logits, axis=-1)  # (n, m), rows sum to 1
    return weights, weights @ v, scores
