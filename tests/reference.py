"""Plain-loop reference implementations for the pycore tests: written the long way, with math
and lists, so that a test compares pycore's NumPy with an independent computation."""
import math

import numpy as np


def softmax_row(s):
    e = [math.exp(t - max(s)) for t in s]
    return [t / sum(e) for t in e]


def pe(p, d=16):
    """The sinusoidal positional encoding of position p, pair by pair."""
    v = []
    for i in range(d // 2):
        w = 10000 ** (-2 * i / d)
        v += [math.sin(w * p), math.cos(w * p)]
    return np.array(v)


def semantic_attention(x):
    """The book's semantic head over the rows of x, one query at a time with loops (no
    pycore.attention): out_i = sum_j softmax_j(q_i . k_j / sqrt(d)) v_j."""
    from pycore.example import semantic_head
    w_q, w_k, w_v = semantic_head()
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    n, d = x.shape
    out = np.zeros((n, d))
    for i in range(n):
        e = [math.exp(float(q[i] @ k[j]) / math.sqrt(d)) for j in range(n)]
        for j in range(n):
            out[i] += e[j] / sum(e) * v[j]
    return out
