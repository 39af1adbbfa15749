"""The PyTorch block (pycore/block_torch.py) against the NumPy block (pycore/block.py) on the
same weights, in float64. Optional: skipped when PyTorch is not installed
(pip install torch==2.13.0)."""
import numpy as np
import pytest

pytestmark = pytest.mark.torch  # the optional group: python3 -m pytest -m torch
torch = pytest.importorskip("torch")

from pycore import block  # noqa: E402
from pycore import block_torch  # noqa: E402


def weights(seed, d_model=128, n_heads=8, d_ff=512):
    """init_block's weights, with biases and LayerNorm parameters moved away from 0 and 1 so
    that copying each of them is checked too."""
    w = block.init_block(d_model, n_heads, d_ff, seed)
    rng = np.random.default_rng([seed, 2])
    for name in ("b_1", "b_2", "ln1_beta", "ln2_beta"):
        w[name] = rng.normal(0, 0.1, size=w[name].shape)
    for name in ("ln1_gamma", "ln2_gamma"):
        w[name] = 1 + rng.normal(0, 0.1, size=w[name].shape)
    return w


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", [(2, 32, 128, 8, 512), (1, 5, 12, 3, 20)])
def test_same_numbers_as_numpy(causal, shape):
    B, T, D, H, F = shape
    for seed in (0, 1):
        w = weights(seed, D, H, F)
        x = np.random.default_rng([seed, 1]).normal(size=(B, T, D))
        mod = block_torch.from_numpy(w, H)
        with torch.no_grad():
            got = mod(torch.from_numpy(x), causal=causal).numpy()
            h = mod.ln1(torch.from_numpy(x))
            _, got_w = mod.multi_head_attention(h, causal)
        expected = block.block_forward(x, w, H, causal)
        h_np = block.layer_norm(x, w["ln1_gamma"], w["ln1_beta"])
        _, expected_w = block.multi_head_attention(h_np, w, H, causal)
        assert got.dtype == np.float64 and got.shape == (B, T, D)
        assert np.max(np.abs(got - expected)) <= 1e-10
        assert np.max(np.abs(got_w.numpy() - expected_w)) <= 1e-10
        if causal:
            future = np.triu_indices(T, 1)  # (rows, cols) of the keys after each query
            assert np.all(got_w.numpy()[..., future[0], future[1]] == 0)


def test_linear_stores_the_transpose():
    w = weights(0, 12, 3, 20)
    mod = block_torch.from_numpy(w, 3)
    assert tuple(mod.W_1.weight.shape) == (20, 12) and w["W_1"].shape == (12, 20)
    assert np.array_equal(mod.W_1.weight.detach().numpy(), w["W_1"].T)
    with pytest.raises(ValueError, match="not divisible"):
        block_torch.Block(10, 3, 20)


def test_gradients_flow():
    """What the NumPy block cannot do by itself: one backward pass gives every gradient."""
    mod = block_torch.from_numpy(weights(0, 12, 3, 20), 3)
    x = torch.from_numpy(np.random.default_rng(0).normal(size=(2, 5, 12)))
    mod(x, causal=True).pow(2).mean().backward()
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in mod.parameters())


def test_the_code_lab_configuration():
    """Chapter 15: batch 2, length 32, d_model 128, 8 heads, d_ff 512, causal; the two
    versions differ only by rounding (measured below 1e-14)."""
    w = block.init_block(128, 8, 512, 0)
    x = np.random.default_rng([0, 1]).normal(size=(2, 32, 128))
    with torch.no_grad():
        got = block_torch.from_numpy(w, 8)(torch.from_numpy(x), causal=True).numpy()
    assert got.shape == (2, 32, 128)
    assert np.max(np.abs(got - block.block_forward(x, w, 8, True))) < 1e-14


def test_masked_fill_takes_the_future():
    """Chapter 15, point 4: masked_fill writes where its mask is True. Given the allowed part
    (j <= i) instead of the future, only the future stays visible, and the last query, for
    which everything is allowed, gets a row of -inf: softmax gives NaN there."""
    T = 4
    scores = torch.zeros(1, 1, T, T, dtype=torch.float64)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    right = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)[0, 0]
    assert torch.equal(right[0], torch.tensor([1.0, 0, 0, 0], dtype=torch.float64))
    wrong = torch.softmax(scores.masked_fill(~future, float("-inf")), dim=-1)[0, 0]
    assert torch.all(wrong[0, 1:] > 0) and wrong[0, 0] == 0
    assert torch.isnan(wrong[-1]).all()
