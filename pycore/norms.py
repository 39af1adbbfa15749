"""LayerNorm (with its backward pass) and RMSNorm: rescale every token vector (the last axis)
on its own.

LayerNorm (the original Transformer, BERT, GPT-2) subtracts the row mean and divides by the
row standard deviation, then applies a learned scale gamma and shift beta. RMSNorm (LLaMA,
T5) skips the mean: it only divides by the root mean square and has a scale g, no shift.
Both use the biased variance (divide by d, not d - 1) and add eps inside the square root.
"""
import numpy as np


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """(..., d) -> (..., d): gamma * (x - mean) / sqrt(var + eps) + beta, row by row.

    gamma defaults to ones and beta to zeros (the values at initialisation).
    """
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    # np.mean's and np.var's own steps (the sum over the row, divided by d), without their
    # Python layer, which costs as much as the arithmetic at one position in Pyodide (the
    # poem model's continuation pays it seven times per character); the centred rows are kept
    mean = np.add.reduce(x, axis=-1, keepdims=True) / d  # (..., 1)
    centred = x - mean  # (..., d)
    var = np.add.reduce(centred * centred, axis=-1, keepdims=True) / d  # (..., 1)
    y = centred / np.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def layer_norm_backward(dy, x, gamma=None, eps=1e-5):
    """Gradients (dx, dgamma, dbeta) of layer_norm(x, gamma, beta, eps), given dL/dy.

    With x_hat = (x - mean) / sigma and g = dy * gamma, each row gets
    dx = (g - mean(g) - x_hat * mean(g * x_hat)) / sigma: the two means remove what moving the
    row's mean and its spread would undo. dgamma and dbeta sum over every row (all leading
    axes). The mean and sigma are recomputed from x: cheaper to redo than to keep.
    """
    x, dy = np.asarray(x, dtype=float), np.asarray(dy, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
    inv_sigma = 1.0 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)  # (..., 1)
    x_hat = (x - mean) * inv_sigma  # (..., d)
    g = dy if gamma is None else dy * gamma  # (..., d)
    dx = (g - g.mean(axis=-1, keepdims=True)
          - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * inv_sigma  # (..., d)
    rows = tuple(range(x.ndim - 1))  # every axis but the last
    return dx, (dy * x_hat).sum(axis=rows), dy.sum(axis=rows)


def rms_norm(x, g=None, eps=1e-6):
    """(..., d) -> (..., d): g * x / sqrt(mean(x**2) + eps). No centring, no shift.

    eps = 1e-6 is LLaMA's value; g defaults to ones.
    """
    x = np.asarray(x, dtype=float)
    rms = np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)  # (..., 1)
    y = x / rms
    return y if g is None else y * g


def row_stats(x):
    """Mean and (biased) standard deviation of every row: two arrays of shape x.shape[:-1]."""
    x = np.asarray(x, dtype=float)
    return x.mean(axis=-1), x.std(axis=-1)
