"""Scaled dot-product attention with an optional causal mask, and its backward pass."""
import numpy as np

from .softmax import softmax, softmax_backward


def causal_mask(n):
    """(n, n) boolean matrix, True where query i may look at key j (j <= i)."""
    return np.tril(np.ones((n, n), dtype=bool))


def attention(q, k, v, *, causal=False, scale=1.0):
    """softmax(scale * Q K^T / sqrt(d_k)) V.

    q: (n, d_k), k: (m, d_k), v: (m, d_v), or with the same leading axes on all three (a
    batch of heads: (B, H, n, d_k) ...). `scale` multiplies the logits: 1 is the paper's
    choice; larger values imitate leaving out the 1/sqrt(d_k) and show softmax saturating.
    Returns (weights (n, m), output (n, d_v), scores (n, m)), where scores are the logits
    before the mask and the softmax.
    """
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    d_k = q.shape[-1]
    scores = scale * (q @ np.swapaxes(k, -1, -2)) / np.sqrt(d_k)  # (..., n, m)
    logits = np.where(causal_mask(q.shape[-2]), scores, -np.inf) if causal else scores
    weights = softmax(logits, axis=-1)  # (..., n, m), rows sum to 1
    return weights, weights @ v, scores


def attention_backward(d_out, q, k, v, weights, *, scale=1.0):
    """Gradients (dq, dk, dv) of attention(), given dL/d(output) (..., n, d_v) and the
    forward's inputs and weights. The causal mask needs no argument: masked weights are 0,
    so no gradient flows through them."""
    d_k = q.shape[-1]
    dv = np.swapaxes(weights, -1, -2) @ d_out  # (..., m, n) @ (..., n, d_v) = (..., m, d_v)
    d_weights = d_out @ np.swapaxes(v, -1, -2)  # (..., n, d_v) @ (..., d_v, m) = (..., n, m)
    d_scores = softmax_backward(d_weights, weights) * (scale / np.sqrt(d_k))  # (..., n, m)
    dq = d_scores @ k  # (..., n, m) @ (..., m, d_k) = (..., n, d_k)
    dk = np.swapaxes(d_scores, -1, -2) @ q  # (..., m, n) @ (..., n, d_k) = (..., m, d_k)
    return dq, dk, dv
