"""Random inputs for the random cases, the kind a property-based test would pick: sizes that
start at 1 and grow from case to case (so the first failing case tends to be small), and
values of very different magnitudes, sometimes small integers (which make ties).
"""
import numpy as np

N_RANDOM = 20  # random cases per exercise
SCALES = (1.0, 0.01, 10.0, 300.0)


def sizes(rng, n=N_RANDOM, low=1, high=8):
    """n sizes; case k is drawn from low .. low + (high - low) * (k + 1) / n."""
    return [int(rng.integers(low, low + (high - low) * (k + 1) // n + 1)) for k in range(n)]


def values(rng, shape, scale=None):
    """Numbers of one magnitude for the whole array: normal with a scale from SCALES (or the
    one given), or, one time in five, integers from -3 to 3."""
    if scale is None and rng.random() < 0.2:
        return rng.integers(-3, 4, size=shape).astype(float)
    s = SCALES[int(rng.integers(len(SCALES)))] if scale is None else scale
    return rng.normal(0.0, s, size=shape)


def probabilities(rng, n):
    """A probability vector of length n, from peaked to nearly flat (Dirichlet draws)."""
    alpha = (0.3, 1.0, 5.0)[int(rng.integers(3))]
    p = rng.gamma(alpha, size=n) + 1e-12  # + 1e-12: never an exact zero
    return p / p.sum()


def divisor(rng, n):
    """A random divisor of n."""
    ds = [d for d in range(1, n + 1) if n % d == 0]
    return ds[int(rng.integers(len(ds)))]
