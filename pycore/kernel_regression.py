"""Attention pooling before Q, K and V: Nadaraya-Watson kernel regression in one dimension.

Given training points (x_i, y_i), the prediction at a query x is a weighted average of the y_i,
the weights a softmax of how close x is to each x_i under a Gaussian kernel of width w:

    a_i(x) = exp(-(x - x_i)^2 / (2 w^2)) / sum_j exp(-(x - x_j)^2 / (2 w^2))
    f(x) = sum_i a_i(x) y_i

In attention's words: the query is x, the keys the x_i, the values the y_i, and the score is
-(x - x_i)^2 / (2 w^2) instead of a dot product. Nothing is learned but the width.
"""
import numpy as np

from .softmax import softmax

N_POINTS = 30
DOMAIN = (0.0, 6.0)
NOISE = 0.3
SEED = 7


def truth(x):
    """The function the data are drawn around."""
    x = np.asarray(x, dtype=float)
    return np.sin(1.5 * x) + 0.4 * x


def training_points(n=N_POINTS, seed=SEED):
    """n points with x uniform on DOMAIN (sorted) and y = truth(x) + Gaussian noise."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(*DOMAIN, n))
    return x, truth(x) + rng.normal(0.0, NOISE, n)


def weights(queries, keys, width):
    """(Q,) queries, (N,) keys -> (Q, N): each row the Gaussian kernel's softmax over the keys."""
    q = np.atleast_1d(np.asarray(queries, dtype=float))[:, None]  # (Q, 1)
    scores = -((q - np.asarray(keys, dtype=float)[None, :]) ** 2) / (2 * width ** 2)  # (Q, N)
    return softmax(scores, axis=-1)


def regress(queries, keys, values, width):
    """(Q,) predictions: each query's weighted average of the values."""
    return weights(queries, keys, width) @ np.asarray(values, dtype=float)
