"""Sinusoidal PE, rotation, RoPE, ALiBi and the permutation experiment, checked against
formulas written out in the test."""
import math

import numpy as np
import pytest

from pycore import example, positional as P
from tests.reference import semantic_attention


def pe_by_hand(p, d, base=10000.0):
    """One encoding vector, one dimension at a time."""
    out = []
    for i in range(d // 2):
        w = base ** (-2 * i / d)
        out += [math.sin(w * p), math.cos(w * p)]
    return np.array(out)


def test_small_table_by_hand():
    pe = P.sinusoidal(3, 4)
    assert pe.shape == (3, 4)
    assert np.allclose(pe[0], [0, 1, 0, 1])
    # d = 4: frequencies 1 and 10000**(-1/2) = 0.01
    assert np.allclose(pe[1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)])
    assert np.allclose(pe[2], [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)])
    big = P.sinusoidal(50, 32)
    for p in (0, 7, 49):
        assert np.allclose(big[p], pe_by_hand(p, 32))
    assert np.allclose(P.wavelengths(4), [2 * math.pi, 200 * math.pi])
    with pytest.raises(ValueError):
        P.sinusoidal(4, 5)


def test_offset_dot_depends_on_k_only():
    ks = np.arange(0, 40)
    for d in (6, 16, 64):
        closed = np.array([sum(math.cos(10000 ** (-2 * i / d) * k) for i in range(d // 2))
                           for k in ks])
        for p in (0, 3, 100, 2024):
            assert np.allclose(P.offset_dots(d, ks, p=p), closed, atol=1e-9)
        dots = P.offset_dots(d, ks)
        assert dots[0] == pytest.approx(d / 2)  # |PE(p)|^2 = d/2
        assert np.all(dots[1:] < d / 2)  # strictly largest at k = 0


def test_rotation_matrix_moves_positions():
    for d in (2, 6, 16, 128):
        for k in (1, 3, 17, -4):
            assert P.rotation_error(k, d, n_pos=200) < 1e-9
            r = P.rotation(k, d)
            assert np.allclose(r @ r.T, np.eye(d))  # a rotation
            assert np.allclose(pe_by_hand(5, d) @ r, pe_by_hand(5 + k, d))
    # the 2x2 block for d = 2 and k = 1, written out (row-vector convention)
    c, s = math.cos(1), math.sin(1)
    assert np.allclose(P.rotation(1, 2), [[c, -s], [s, c]])
    # shifting twice is shifting by the sum
    assert np.allclose(P.rotation(2, 16) @ P.rotation(5, 16), P.rotation(7, 16))


def rot2(angle):
    """Column-vector rotation matrix (counter-clockwise)."""
    return np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])


def test_rope_2d_by_hand_and_relative():
    q, k, theta = np.array([0.8, 0.3]), np.array([-0.2, 1.1]), 0.7
    for m, n in ((0, 0), (3, 1), (1, 3), (10, 8), (5, 5)):
        expected = float(q @ rot2((n - m) * theta) @ k)  # q^T R((n - m) theta) k
        assert P.rope_score(q, k, m, n, theta) == pytest.approx(expected)
        assert np.allclose(P.rope(q, m, theta), rot2(m * theta) @ q)
    assert P.rope_score(q, k, 3, 1, theta) == pytest.approx(P.rope_score(q, k, 103, 101, theta))
    assert P.rope_score(q, k, 3, 1, theta) != pytest.approx(P.rope_score(q, k, 3, 2, theta))
    demo = P.rope_demo([1.0, 0.0], [1.0, 0.0], 3, 1, 0.5)
    assert demo["angle_q"] == pytest.approx(math.degrees(1.5))
    assert demo["score"] == pytest.approx(math.cos(1.0)) and demo["offset"] == 2


def test_rope_full_dim_rows_and_relative():
    rng = np.random.default_rng(0)
    d = 8
    q, k = rng.normal(size=d), rng.normal(size=d)
    x = rng.normal(size=(4, d))
    rows = P.rope(x, np.arange(4))  # (4, d), row t at position t
    for t in range(4):
        by_hand = []
        for i in range(d // 2):
            a = t * 10000 ** (-2 * i / d)
            by_hand += list(rot2(a) @ x[t, 2 * i:2 * i + 2])
        assert np.allclose(rows[t], by_hand)
    assert P.rope_score(q, k, 7, 2) == pytest.approx(P.rope_score(q, k, 25, 20))
    assert np.linalg.norm(P.rope(q, 9)) == pytest.approx(np.linalg.norm(q))


def test_alibi():
    assert np.allclose(P.alibi_slopes(8), [1 / 2 ** h for h in range(1, 9)])
    # 6 heads: the 4-head slopes 1/4 .. 1/256, then 1/2 and 1/8 from the 8-head sequence
    assert np.allclose(P.alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8])
    b = P.alibi_bias(3, 0.5)
    inf = -np.inf
    assert np.array_equal(b, [[0, inf, inf], [-0.5, 0, inf], [-1.0, -0.5, 0]])
    assert np.array_equal(P.alibi_bias(3, 0.25, causal=False),
                          [[0, -0.25, -0.5], [-0.25, 0, -0.25], [-0.5, -0.25, 0]])


PERMS = [list(range(8, -1, -1)), [3, 1, 2, 0, 4, 5, 6, 7, 8], [5, 0, 1, 2, 3, 4, 6, 7, 8],
         [0, 1, 2, 3, 4, 5, 6, 8, 7]]


@pytest.mark.parametrize("perm", PERMS)
def test_permutation_equivariance(perm):
    plain = P.permutation_outputs(perm)
    assert plain["max_abs_diff"] < 1e-12
    assert plain["tokens"] == [example.TOKENS[i] for i in perm]
    assert np.allclose(plain["shuffled"], semantic_attention(example.EMBEDDINGS[perm]))
    with_pos = P.permutation_outputs(perm, positions=True)
    assert with_pos["max_abs_diff"] > 0.01
    pe = np.array([pe_by_hand(p, 6) for p in range(9)])
    assert np.allclose(with_pos["shuffled"], semantic_attention(example.EMBEDDINGS[perm] + pe))
    assert np.allclose(with_pos["original"], semantic_attention(example.EMBEDDINGS + pe))


def test_identity_permutation_and_bad_input():
    assert P.permutation_outputs(list(range(9)), positions=True)["max_abs_diff"] == 0.0
    with pytest.raises(ValueError):
        P.permutation_outputs([0, 0, 1, 2, 3, 4, 5, 6, 7])
