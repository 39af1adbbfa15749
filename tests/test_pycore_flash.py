"""Online (tiled) softmax attention against the full softmax computed in one piece, values of
the running example worked by hand, and memory counted by hand."""
import math

import numpy as np
import pytest

from pycore import attention as ATT, example, flash as F

A = 1 / math.sqrt(6)


def full_attention(q, k, v, causal=False, scale=1.0):
    """The whole score matrix at once, then a stable row softmax."""
    s = scale * (q @ k.T) / math.sqrt(q.shape[1])
    if causal:
        s = np.where(np.tri(len(q), len(k), dtype=bool), s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v


@pytest.mark.parametrize("causal", [False, True])
def test_equals_full_attention_for_every_tile_size(causal):
    rng = np.random.default_rng(0)
    for n, d, d_v in ((1, 3, 2), (7, 4, 3), (16, 8, 5), (33, 6, 6)):
        q, k, v = rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(n, d_v))
        expected = full_attention(q, k, v, causal)
        for tile in sorted({1, 2, 3, 5, n // 2 or 1, n - 1 or 1, n, n + 4}):
            for q_tile in (None, 1, 4):
                got = F.online_attention(q, k, v, tile, causal=causal, q_tile=q_tile)
                assert np.max(np.abs(got - expected)) < 1e-12, (n, tile, q_tile)
        assert np.max(np.abs(F.tile_steps(q, k, v, 3, causal)[-1]["output"] - expected)) < 1e-12


def test_cross_shapes_and_scale():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(5, 4)), rng.normal(size=(11, 4)), rng.normal(size=(11, 2))
    for tile in (1, 4, 11):
        got = F.online_attention(q, k, v, tile, scale=6.0)
        assert np.max(np.abs(got - full_attention(q, k, v, scale=6.0))) < 1e-12
        assert np.allclose(got, ATT.attention(q, k, v, scale=6.0)[1], atol=1e-12)


def test_huge_logits_stay_finite():
    rng = np.random.default_rng(2)
    n, d = 12, 4
    k = rng.normal(size=(n, d))
    k /= np.linalg.norm(k, axis=1, keepdims=True)
    q = np.vstack([1000 * math.sqrt(d) * k[3], -1000 * math.sqrt(d) * k[5]])  # logits +-1000
    v = rng.normal(size=(n, 3))
    s = q @ k.T / math.sqrt(d)
    assert s.max() == pytest.approx(1000) and s.min() == pytest.approx(-1000)
    expected = full_attention(q, k, v)
    for tile in (1, 2, 5, 12):
        for causal in (False, True):
            got = F.online_attention(q, k, v, tile, causal=causal)
            assert np.all(np.isfinite(got))
        got = F.online_attention(q, k, v, tile)
        assert np.max(np.abs(got - expected)) < 1e-12
        assert np.allclose(got[0], v[3])  # a logit of 1000 against at most ~1000 * 0.9: one-hot
    # the naive formula overflows: exp(1000) is inf in float64
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    assert not np.all(np.isfinite(naive))


def test_partial_outputs_are_attention_over_the_keys_seen():
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(6, 3)), rng.normal(size=(10, 3)), rng.normal(size=(10, 2))
    for st in F.tile_steps(q, k, v, 4):
        stop = st["keys"][1]
        assert np.allclose(st["output"], full_attention(q, k[:stop], v[:stop]), atol=1e-12)
        s = q @ k[:stop].T / math.sqrt(3)
        assert np.allclose(st["m"], s.max(axis=1))
        assert np.allclose(st["l"], np.exp(s - s.max(axis=1, keepdims=True)).sum(axis=1))


def test_running_example_by_hand():
    steps = F.example_steps("它", tile=3)
    e = math.exp(-2 * A)  # every zero score, relative to the maximum 2 / sqrt 6 (小猫)
    assert [s["m"] for s in steps] == pytest.approx([2 * A] * 3)
    l1 = 1 + 2 * e
    l2 = l1 + math.exp(A - 2 * A) + 2 * e  # 马路 scores 1 / sqrt 6
    l3 = l2 + 3 * e
    assert [s["l"] for s in steps] == pytest.approx([l1, l2, l3])
    assert [round(s["l"], 3) for s in steps] == [1.884, 3.433, 4.759]
    assert 1 / l3 == pytest.approx(0.2101, abs=5e-5)
    qkv = (example.EMBEDDINGS @ w for w in example.semantic_head())
    assert np.allclose(steps[-1]["weights_so_far"], ATT.attention(*qkv)[0][5])
    tired = F.example_steps("累", tile=3)
    assert [s["m"] for s in tired] == pytest.approx([0, 0, A])
    assert tired[2]["rescale"] == pytest.approx(math.exp(-A))
    assert round(tired[2]["rescale"], 3) == 0.665
    assert tired[2]["l"] == pytest.approx(6 * math.exp(-A) + 2 * math.exp(-A) + 1)
    causal = F.example_steps("它", tile=4, causal=True)  # 它 is token 5: keys 0..5
    assert causal[-1]["keys"] == (4, 6) and len(causal[-1]["weights_so_far"]) == 6


def test_memory_by_hand():
    m = F.memory(4096, d=64, tile=128, dtype="fp16")
    assert m["full_scores"] == 4096 * 4096 * 2 == 32 * 2 ** 20  # 32 MiB
    assert m["tile_scores"] == 128 * 128 * 2 == 32 * 2 ** 10  # 32 KiB
    assert m["ratio"] == 1024
    assert m["tile_inputs"] == (128 + 2 * 128) * 64 * 2
    assert m["tile_state"] == (2 * 128 + 128 * 64) * 4
    assert F.memory(32768, dtype="fp16")["full_scores"] == 2 * 2 ** 30  # 2 GiB
    assert F.memory(100, tile=256, dtype="fp32")["tile_scores"] == 100 * 100 * 4  # tile > n
    assert F.memory(1000, tile=64, q_tile=32, dtype="fp8")["tile_scores"] == 32 * 64


def test_bad_inputs():
    q = np.ones((3, 2))
    with pytest.raises(ValueError, match="tile must be a whole number >= 1"):
        F.online_attention(q, q, q, 0)
    with pytest.raises(ValueError, match="shapes do not fit"):
        F.online_attention(q, np.ones((3, 4)), q, 1)
    with pytest.raises(ValueError, match="dtype must be one of"):
        F.memory(10, dtype="int3")
    with pytest.raises(ValueError, match="query must be one of"):
        F.example_steps("狗")
