"""Why divide by sqrt(d_k): the dot product of two random unit-variance vectors has
variance d_k, and dividing by sqrt(d_k) brings it back to 1.

Sampling (so the browser reproduces the build exactly): rng = np.random.default_rng(seed),
then q = rng.standard_normal((n, d_k)) and k = rng.standard_normal((n, d_k)), in that
order; sample s is the dot product of row s of q and row s of k.
"""
import numpy as np


def dot_samples(d_k, n=2000, seed=0):
    """(raw, scaled): n samples of q.k and of q.k / sqrt(d_k), each of shape (n,)."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n, d_k))
    k = rng.standard_normal((n, d_k))
    raw = np.sum(q * k, axis=1)  # (n,)
    return raw, raw / np.sqrt(d_k)


def histogram(values, edges):
    """Counts per bin [e_i, e_{i+1}) (the last bin includes its right edge), plus the number
    of values below edges[0] and above edges[-1]."""
    values, edges = np.asarray(values), np.asarray(edges, dtype=float)
    counts, _ = np.histogram(values, bins=edges)
    below = int(np.sum(values < edges[0]))
    above = int(np.sum(values > edges[-1]))
    return counts, below, above


def default_edges(d_k, n_bins=32):
    """n_bins equal bins over [-4 sqrt(d_k), 4 sqrt(d_k)]: wide enough for the raw dots, so
    the scaled ones show up as a narrow peak on the same axis."""
    half = 4.0 * np.sqrt(d_k)
    return np.linspace(-half, half, n_bins + 1)


def variance_demo(d_k, n=2000, seed=0, edges=None):
    """What the scaling-variance widget shows for one d_k and one seed."""
    raw, scaled = dot_samples(d_k, n, seed)
    edges = default_edges(d_k) if edges is None else np.asarray(edges, dtype=float)
    counts_raw, below_raw, above_raw = histogram(raw, edges)
    counts_scaled, below_scaled, above_scaled = histogram(scaled, edges)
    return {
        "d_k": d_k, "n": n, "seed": seed, "edges": edges,
        "raw": raw, "scaled": scaled,
        "var_raw": float(np.var(raw)), "var_scaled": float(np.var(scaled)),
        "std_raw": float(np.std(raw)), "std_scaled": float(np.std(scaled)),
        "counts_raw": counts_raw, "below_raw": below_raw, "above_raw": above_raw,
        "counts_scaled": counts_scaled, "below_scaled": below_scaled,
        "above_scaled": above_scaled,
    }
