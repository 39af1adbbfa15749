"""The code-lab block: shapes, causal weights, and a loop-over-heads reimplementation."""
import numpy as np
import pytest

from pycore import block


def ln_by_hand(v, gamma, beta, eps=1e-5):
    """LayerNorm of one token vector, written out."""
    mu = sum(v) / len(v)
    var = sum((a - mu) ** 2 for a in v) / len(v)
    return gamma * (np.asarray(v) - mu) / np.sqrt(var + eps) + beta


def block_with_loops(x, w, n_heads, causal):
    """Straightforward version: one sequence, one head, one query row at a time."""
    B, T, D = x.shape
    dh = D // n_heads
    out = np.zeros_like(x)
    all_weights = np.zeros((B, n_heads, T, T))
    for b in range(B):
        h1 = np.array([ln_by_hand(x[b, t], w["ln1_gamma"], w["ln1_beta"]) for t in range(T)])
        head_outputs = []
        for hd in range(n_heads):
            cols = slice(hd * dh, (hd + 1) * dh)
            q, k, v = h1 @ w["W_Q"][:, cols], h1 @ w["W_K"][:, cols], h1 @ w["W_V"][:, cols]
            o = np.zeros((T, dh))
            for i in range(T):
                keys = range(i + 1) if causal else range(T)
                s = np.array([q[i] @ k[j] / np.sqrt(dh) for j in keys])
                p = np.exp(s - s.max())
                p /= p.sum()
                for n, j in enumerate(keys):
                    all_weights[b, hd, i, j] = p[n]
                    o[i] += p[n] * v[j]
            head_outputs.append(o)
        r = x[b] + np.concatenate(head_outputs, axis=1) @ w["W_O"]
        h2 = np.array([ln_by_hand(r[t], w["ln2_gamma"], w["ln2_beta"]) for t in range(T)])
        ffn = np.maximum(h2 @ w["W_1"] + w["b_1"], 0) @ w["W_2"] + w["b_2"]
        out[b] = r + ffn
    return out, all_weights


@pytest.fixture(scope="module")
def lab():
    w = block.init_block(128, 8, 512, seed=0)
    x = np.random.default_rng(5).normal(size=(2, 32, 128))
    return x, w


def test_weight_shapes():
    w = block.init_block(128, 8, 512, seed=0)
    assert w["W_Q"].shape == (128, 128) and w["W_O"].shape == (128, 128)
    assert w["W_1"].shape == (128, 512) and w["W_2"].shape == (512, 128)
    assert w["b_1"].shape == (512,) and w["ln2_gamma"].shape == (128,)
    with pytest.raises(ValueError):
        block.init_block(130, 8, 512)


def test_output_shape(lab):
    x, w = lab
    assert block.block_forward(x, w, 8).shape == (2, 32, 128)
    assert block.block_forward(x, w, 8, causal=True).shape == (2, 32, 128)


def test_split_and_merge_heads_by_hand():
    x = np.arange(2 * 3 * 4).reshape(2, 3, 4)  # B=2, T=3, D=4
    s = block.split_heads(x, 2)
    assert s.shape == (2, 2, 3, 2)
    # head 1 of sequence 0, token 2 = columns 2..3 of x[0, 2] = [10, 11]
    assert s[0, 1, 2].tolist() == [10, 11]
    assert np.array_equal(block.merge_heads(s), x)


def test_causal_weights(lab):
    x, w = lab
    h = block.layer_norm(x, w["ln1_gamma"], w["ln1_beta"])
    _, weights = block.multi_head_attention(h, w, 8, causal=True)
    assert weights.shape == (2, 8, 32, 32)
    above = np.triu(np.ones((32, 32), dtype=bool), k=1)
    assert np.all(weights[..., above] == 0.0)
    assert np.allclose(weights.sum(axis=-1), 1.0)
    assert np.allclose(weights[..., 0, 0], 1.0)  # the first token sees only itself
    _, full = block.multi_head_attention(h, w, 8, causal=False)
    assert np.all(full > 0) and np.allclose(full.sum(axis=-1), 1.0)


def test_layer_norm_rows():
    x = np.array([[[1.0, 2.0, 3.0, 6.0]]])
    y = block.layer_norm(x, np.ones(4), np.zeros(4), eps=0.0)
    # mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5
    assert np.allclose(y[0, 0], (np.array([1, 2, 3, 6]) - 3) / np.sqrt(3.5))


@pytest.mark.parametrize("causal", [False, True])
def test_matches_loop_over_heads(causal):
    w = block.init_block(16, 4, 32, seed=2)
    w["b_1"] = np.linspace(-0.5, 0.5, 32)  # non-trivial biases and norms
    w["b_2"] = np.linspace(0.3, -0.3, 16)
    w["ln1_gamma"] = np.linspace(0.5, 1.5, 16)
    w["ln2_beta"] = np.linspace(-0.2, 0.2, 16)
    x = np.random.default_rng(7).normal(size=(2, 5, 16))
    expected, expected_weights = block_with_loops(x, w, 4, causal)
    assert np.allclose(block.block_forward(x, w, 4, causal), expected)
    h = block.layer_norm(x, w["ln1_gamma"], w["ln1_beta"])
    _, weights = block.multi_head_attention(h, w, 4, causal)
    assert np.allclose(weights, expected_weights)


def test_lab_report():
    trace, head0 = block.lab_report(seed=0)
    shapes = dict(trace)
    assert trace[0] == ("x (input)", (2, 32, 128))
    assert trace[-1] == ("x + FFN (block output)", (2, 32, 128))
    assert shapes["Q split into heads"] == (2, 8, 32, 16)  # 128 / 8 = 16 per head
    assert shapes["attention weights"] == (2, 8, 32, 32)
    assert shapes["FFN hidden relu(x @ W_1 + b_1)"] == (2, 32, 512)
    assert head0.shape == (6, 6)
    assert np.allclose(head0.sum(axis=1), 1.0)  # a prefix of a causal row is the whole row
    assert np.all(np.triu(head0, k=1) == 0.0)
    again, head0_again = block.lab_report(seed=0)
    assert again == trace and np.array_equal(head0, head0_again)
