"""Choosing the next token: temperature, then top-k, then top-p (nucleus), then a seeded draw.

Pipeline (the order most libraries use):
1. p = softmax(logits / T).
2. top-k: keep the k most probable tokens, renormalise. Ties are broken by position
   (the earlier token in the vocabulary list wins), via a stable sort.
3. top-p: in decreasing probability order (same tie rule), keep the smallest prefix whose
   mass is >= top_p (up to a 1e-12 rounding allowance), renormalise. Works on the
   distribution left by step 2.
top_k=None and top_p=None (or top_p >= 1) switch a stage off.

Drawing N samples with a seed (identical in CPython NumPy and in Pyodide's NumPy 2.0.2,
which share the PCG64 generator):
    c = cumsum(p); c = c / c[-1]                 # c[-1] becomes exactly 1.0
    u = np.random.default_rng(seed).random(N)    # N uniforms in [0, 1), one call
    token = np.searchsorted(c, u, side="right")  # first j with u < c[j]
so token j is drawn when c[j-1] <= u < c[j]; tokens with p = 0 are never drawn.
"""
import numpy as np

from . import example
from .softmax import softmax

TOLERANCE = 1e-12


def _order(probs):
    """Indices by decreasing probability; ties keep vocabulary order."""
    return np.argsort(-np.asarray(probs), kind="stable")


def top_k_keep(probs, k):
    """Boolean mask of the k most probable tokens (all True when k is None or >= V)."""
    probs = np.asarray(probs, dtype=float)
    keep = np.ones(len(probs), dtype=bool)
    if k is None or k >= len(probs):
        return keep
    if k < 1:
        raise ValueError("top_k must be >= 1")
    keep[:] = False
    keep[_order(probs)[:k]] = True
    return keep


def top_p_keep(probs, top_p):
    """Boolean mask of the smallest most-probable set with mass >= top_p."""
    probs = np.asarray(probs, dtype=float)
    if top_p is None or top_p >= 1:
        return np.ones(len(probs), dtype=bool)
    if top_p <= 0:
        raise ValueError("top_p must be > 0")
    order = _order(probs)
    mass = np.cumsum(probs[order]) / probs.sum()
    size = int(np.argmax(mass >= top_p - TOLERANCE)) + 1  # first prefix that reaches top_p
    keep = np.zeros(len(probs), dtype=bool)
    keep[order[:size]] = True
    return keep


def renormalise(probs, keep):
    p = np.where(keep, probs, 0.0)
    return p / p.sum()


def pipeline(logits=None, temperature=1.0, top_k=None, top_p=None, tokens=None):
    """Every stage of the sampling widget. Defaults: the book's NEXT_LOGITS / NEXT_TOKENS."""
    logits = example.NEXT_LOGITS if logits is None else np.asarray(logits, dtype=float)
    tokens = (example.NEXT_TOKENS if tokens is None else list(tokens))[:len(logits)]
    p_t = softmax(logits, temperature)
    keep_k = top_k_keep(p_t, top_k)
    p_k = renormalise(p_t, keep_k)
    keep_p = top_p_keep(p_k, top_p) & keep_k
    final = renormalise(p_k, keep_p)
    names = lambda mask: [t for t, m in zip(tokens, mask) if m]
    return {
        "tokens": tokens, "logits": logits,
        "temperature": temperature, "top_k": top_k, "top_p": top_p,
        "after_temperature": p_t, "after_top_k": p_k, "final": final,
        "keep_top_k": keep_k, "keep_top_p": keep_p,
        "cut_by_top_k": names(~keep_k), "cut_by_top_p": names(keep_k & ~keep_p),
        "kept": names(keep_p),
    }


def sample(probs, n, seed):
    """n token indices drawn from probs with the recipe in the module docstring."""
    c = np.cumsum(np.asarray(probs, dtype=float))
    c = c / c[-1]
    u = np.random.default_rng(seed).random(n)
    return np.searchsorted(c, u, side="right")


def sample_counts(probs, n, seed):
    """How often each token came up in sample(probs, n, seed): (V,) ints."""
    return np.bincount(sample(probs, n, seed), minlength=len(probs))
