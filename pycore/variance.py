"""Why divide by sqrt(d_k): the dot product of two random unit-variance vectors has
variance d_k, and dividing by sqrt(d_k) brings it back to 1.

How the samples are drawn. For q, k with independent N(0, 1) entries, fix q: then
q.k = sum_i q_i k_i is a fixed linear combination of independent standard normals, so it is
N(0, |q|^2). Hence q.k has exactly the distribution of |q| * z, where |q|^2 (a sum of d_k
squared standard normals) is chi-square with d_k degrees of freedom and z ~ N(0, 1) is
independent of it. Drawing |q|^2 and z costs two random numbers per sample whatever d_k is;
drawing q and k entry by entry would cost 2 d_k.

The stream (so the browser reproduces the build exactly): rng = np.random.default_rng(seed),
then sq_norm = rng.chisquare(d_k, n) and z = rng.standard_normal(n), in that order; sample s
is sqrt(sq_norm[s]) * z[s].
"""
import math

import numpy as np


def dot_draws(d_k, n=2000, seed=0):
    """(sq_norm, z): n draws of |q|^2 ~ chi-square(d_k) and of z ~ N(0, 1), each of shape (n,)."""
    rng = np.random.default_rng(seed)
    sq_norm = rng.chisquare(d_k, size=n)
    z = rng.standard_normal(n)
    return sq_norm, z


def dots_from_draws(sq_norm, z, d_k):
    """(raw, scaled): q.k = |q| z and q.k / sqrt(d_k), elementwise (shapes as sq_norm, z)."""
    raw = np.sqrt(sq_norm) * z
    return raw, raw / np.sqrt(d_k)


def dot_samples(d_k, n=2000, seed=0):
    """(raw, scaled): n samples of q.k and of q.k / sqrt(d_k), each of shape (n,)."""
    return dots_from_draws(*dot_draws(d_k, n, seed), d_k)


def histogram(values, edges):
    """Counts per bin [e_i, e_{i+1}) (the last bin includes its right edge), plus the number
    of values below edges[0] and above edges[-1]. Edges must increase."""
    values, edges = np.asarray(values, dtype=float), np.asarray(edges, dtype=float)
    n_bins = len(edges) - 1
    slot = np.searchsorted(edges, values, side="right") - 1  # edges[slot] <= v < edges[slot + 1]
    below, above = slot < 0, values > edges[-1]
    inside = np.minimum(slot[~below & ~above], n_bins - 1)  # v == edges[-1]: the last bin
    counts = np.bincount(inside, minlength=n_bins)
    return counts, int(below.sum()), int(above.sum())


def default_edges(d_k, n_bins=32):
    """n_bins equal bins over [-4 sqrt(d_k), 4 sqrt(d_k)]: wide enough for the raw dots, so
    the scaled ones show up as a narrow peak on the same axis."""
    half = 4.0 * np.sqrt(d_k)
    return np.linspace(-half, half, n_bins + 1)


def variance_demo(d_k, n=2000, seed=0, edges=None, scaled_edges=None):
    """What the scaling-variance widget shows for one d_k and one seed. The scaled samples are
    counted on scaled_edges (by default the same bins as the raw ones)."""
    sq_norm, z = dot_draws(d_k, n, seed)
    raw, scaled = dots_from_draws(sq_norm, z, d_k)
    edges = default_edges(d_k) if edges is None else np.asarray(edges, dtype=float)
    scaled_edges = edges if scaled_edges is None else np.asarray(scaled_edges, dtype=float)
    counts_raw, below_raw, above_raw = histogram(raw, edges)
    counts_scaled, below_scaled, above_scaled = histogram(scaled, scaled_edges)
    var_raw, var_scaled = float(np.var(raw)), float(np.var(scaled))
    return {
        "d_k": d_k, "n": n, "seed": seed, "edges": edges, "scaled_edges": scaled_edges,
        "sq_norm": sq_norm, "z": z, "raw": raw, "scaled": scaled,
        "var_raw": var_raw, "var_scaled": var_scaled,
        "std_raw": math.sqrt(var_raw), "std_scaled": math.sqrt(var_scaled),  # as np.std
        "counts_raw": counts_raw, "below_raw": below_raw, "above_raw": above_raw,
        "counts_scaled": counts_scaled, "below_scaled": below_scaled,
        "above_scaled": above_scaled,
    }
