"""Softmax with a temperature, its backward pass, and the entropy of the result."""
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


def softmax_backward(dy, y, temperature=1.0, axis=-1):
    """Gradient with respect to the logits z, given y = softmax(z) and dL/dy.

    The Jacobian is dy_i/dz_j = y_i (delta_ij - y_j) / T, so dL/dz = y * (dy - sum(dy * y)) / T
    along `axis`. A masked entry (y = 0) gets gradient 0.
    """
    y, dy = np.asarray(y, dtype=float), np.asarray(dy, dtype=float)
    return y * (dy - np.sum(dy * y, axis=axis, keepdims=True)) / temperature


def entropy(p):
    """Shannon entropy in nats; terms with p = 0 contribute 0."""
    p = np.asarray(p, dtype=float)
    nz = p[p > 0]
    return float(-np.sum(nz * np.log(nz)))
