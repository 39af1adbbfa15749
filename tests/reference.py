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
