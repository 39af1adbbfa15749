"""Dot-product variance: the sampling recipe, its law checked against independent references
(dot products summed entry by entry, the Laplace law at d_k = 2, closed-form moments),
measured variances, histogram counts."""
import math

import numpy as np
import pytest

from pycore import variance as V

# Kolmogorov-Smirnov critical coefficient at the 0.1 % level: reject when D > 1.95 sqrt(...)
KS_001 = 1.95


def ks_one_sample(values, cdf):
    """Largest gap between the empirical CDF of values and cdf, checked at every jump."""
    xs = sorted(values)
    n = len(xs)
    return max(max((i + 1) / n - cdf(x), cdf(x) - i / n) for i, x in enumerate(xs))


def ks_two_sample(a, b):
    """Largest gap between the empirical CDFs of a and b, by merging the two sorted lists."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    gap = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] == x:
            i += 1
        while j < len(b) and b[j] == x:
            j += 1
        gap = max(gap, abs(i / len(a) - j / len(b)))
    return gap


def brute_force_dots(d_k, n, seed):
    """n dot products of q, k drawn entry by entry (own generator), summed in a loop."""
    rng = np.random.default_rng(seed)
    dots = []
    for _ in range(n):
        q, k = rng.standard_normal(d_k), rng.standard_normal(d_k)
        dots.append(sum(float(q[i]) * float(k[i]) for i in range(d_k)))
    return dots


def laplace_cdf(x):
    """CDF of density exp(-|x|) / 2: the law of q.k at d_k = 2 (its characteristic function is
    1 / (1 + t^2), the square of that of one product q_i k_i, 1 / sqrt(1 + t^2))."""
    return 0.5 * math.exp(x) if x < 0 else 1 - 0.5 * math.exp(-x)


def test_samples_follow_the_documented_recipe():
    raw, scaled = V.dot_samples(8, n=50, seed=11)
    rng = np.random.default_rng(11)
    sq_norm = rng.chisquare(8, size=50)
    z = rng.standard_normal(50)
    for s in range(50):
        assert raw[s] == pytest.approx(math.sqrt(sq_norm[s]) * z[s])
        assert scaled[s] == pytest.approx(math.sqrt(sq_norm[s]) * z[s] / math.sqrt(8))


def test_d_k_2_follows_the_laplace_law():
    raw, _ = V.dot_samples(2, n=2000, seed=0)
    bound = KS_001 / math.sqrt(2000)
    assert ks_one_sample(raw, laplace_cdf) < bound
    # the check has teeth: normals with the right variance (2) are rejected
    normal = math.sqrt(2) * np.random.default_rng(0).standard_normal(2000)
    assert ks_one_sample(normal, laplace_cdf) > bound


@pytest.mark.parametrize("d_k", [4, 16])
def test_same_law_as_dot_products_summed_entry_by_entry(d_k):
    raw, _ = V.dot_samples(d_k, n=2000, seed=0)
    direct = brute_force_dots(d_k, 2000, seed=1000 + d_k)
    assert ks_two_sample(raw, direct) < KS_001 * math.sqrt(2 / 2000)
    assert ks_two_sample([1.5 * x for x in direct], direct) > KS_001 * math.sqrt(2 / 2000)


def test_fourth_moment_is_not_that_of_a_normal():
    """E[(q.k)^4] = sum_i E[q_i^4] E[k_i^4] + 3 sum_{i != j} 1 = 9 d + 3 d (d - 1) = 3 d (d + 2);
    a normal with the same variance d has 3 d^2. At d_k = 4: 72 against 48."""
    raw, _ = V.dot_samples(4, n=20000, seed=5)
    m4 = sum(float(x) ** 4 for x in raw) / 20000
    # standard error of m4 here: sqrt(E[x^8] - 72^2) / sqrt(n), E[x^8] = 105 d(d+2)(d+4)(d+6)
    se = math.sqrt(105 * 4 * 6 * 8 * 10 - 72 ** 2) / math.sqrt(20000)
    assert abs(m4 - 72) < 4 * se < 72 - 48


@pytest.mark.parametrize("d_k", [4, 64, 1024])
def test_variance_is_d_k_then_one(d_k):
    demo = V.variance_demo(d_k, n=2000, seed=0)
    # Var(q.k) = d_k; Var((q.k)^2) = 3 d (d + 2) - d^2, so the sample variance has relative
    # standard error sqrt((2 + 6 / d) / n): allow 4 of them
    bound = 4 * math.sqrt((2 + 6 / d_k) / 2000)
    assert abs(demo["var_raw"] / d_k - 1) < bound
    assert abs(demo["var_scaled"] - 1) < bound
    mean = sum(demo["raw"]) / 2000
    assert demo["var_raw"] == pytest.approx(sum((x - mean) ** 2 for x in demo["raw"]) / 2000)
    assert demo["var_scaled"] == pytest.approx(demo["var_raw"] / d_k)
    assert demo["std_raw"] == pytest.approx(math.sqrt(demo["var_raw"]))


def test_draws_are_norms_and_normals():
    demo = V.variance_demo(64, n=2000, seed=2)
    assert demo["sq_norm"].shape == demo["z"].shape == (2000,)
    assert (demo["sq_norm"] > 0).all()
    # chi-square(64): mean 64, variance 128; z: mean 0, variance 1 (4 standard errors)
    assert abs(demo["sq_norm"].mean() - 64) < 4 * math.sqrt(128 / 2000)
    assert abs(demo["z"].mean()) < 4 / math.sqrt(2000)
    for s in range(5):
        assert demo["raw"][s] == pytest.approx(math.sqrt(demo["sq_norm"][s]) * demo["z"][s])


def test_histogram_by_counting():
    values = [-3.0, -1.0, -0.5, 0.0, 0.2, 0.99, 1.0, 2.0, 2.5, 7.0]
    counts, below, above = V.histogram(values, [-2, -1, 0, 1, 2])
    # bins [-2,-1) [-1,0) [0,1) [1,2]: -1.0 and -0.5 | 0.0 0.2 0.99 | 1.0 and 2.0
    assert counts.tolist() == [0, 2, 3, 2]
    assert (below, above) == (1, 2)


def test_histogram_matches_a_counting_loop():
    rng = np.random.default_rng(4)
    edges = [-3.0, -1.25, -0.5, 0.0, 0.75, 2.0]
    values = list(rng.normal(size=300) * 2) + edges + [edges[0] - 1e-12, edges[-1] + 1e-12]
    counts, below, above = V.histogram(values, edges)
    expected = [0] * 5
    for v in values:
        for i in range(5):
            if edges[i] <= v < edges[i + 1] or (i == 4 and v == edges[5]):
                expected[i] += 1
    assert counts.tolist() == expected
    assert below == sum(v < edges[0] for v in values) and above == sum(v > edges[-1] for v in values)
    assert sum(expected) + below + above == len(values)


def test_demo_counts_add_up():
    demo = V.variance_demo(16, n=500, seed=3)
    assert len(demo["edges"]) == 33 and demo["edges"][0] == -16 and demo["edges"][-1] == 16
    for key in ("raw", "scaled"):
        total = demo["counts_" + key].sum() + demo["below_" + key] + demo["above_" + key]
        assert total == 500
    assert demo["below_scaled"] == demo["above_scaled"] == 0  # |q.k / 4| < 16 here
    # same seed, same numbers; other seed, other numbers
    again = V.variance_demo(16, n=500, seed=3)
    assert np.array_equal(again["counts_raw"], demo["counts_raw"])
    assert not np.array_equal(V.variance_demo(16, n=500, seed=4)["raw"], demo["raw"])
