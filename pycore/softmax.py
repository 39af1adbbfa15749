"""Softmax with a temperature, and the entropy of the result."""
import numpy as np


def softmax(z, temperature=1.0, axis=-1):
    """exp(z/T) / sum exp(z/T) along `axis`, stable for any logits.

    Subtracting the row maximum changes nothing mathematically (softmax is invariant to
    shifts) but keeps exp() from overflowing. Entries of -inf (masked) get weight 0.
    """
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(z, dtype=float) / temperature
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def entropy(p):
    """Shannon entropy in nats; terms with p = 0 contribute 0."""
    p = np.asarray(p, dtype=float)
    nz = p[p > 0]
    return float(-np.sum(nz * np.log(nz)))
