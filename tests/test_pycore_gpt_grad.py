"""Every hand-written backward pass against central finite differences, in float64.

Each check builds a scalar L = sum(R * f(inputs)) with a fixed random R, and compares the
backward's dL/d(input) with (L(x + h) - L(x - h)) / 2h entry by entry (h = 1e-5): the
relative error max|analytic - numeric| / max|numeric| must stay below 1e-6. The model-level
check uses a tiny model (d = 4, two heads, two layers, a vocabulary of 10) so that every
parameter entry is perturbed and the whole file runs in well under a second.
"""
import numpy as np
import pytest

from pycore import attention, ffn, norms, softmax
from pycore.gpt import adamw, layers, model

H = 1e-5
TOLERANCE = 1e-6


def numeric_grad(f, x):
    """dL/dx by central differences, perturbing x in place entry by entry."""
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        old = x[idx]
        x[idx] = old + H
        up = f()
        x[idx] = old - H
        down = f()
        x[idx] = old
        g[idx] = (up - down) / (2 * H)
    return g


def assert_close(analytic, numeric):
    scale = max(np.abs(numeric).max(), 1e-12)
    assert np.abs(analytic - numeric).max() / scale < TOLERANCE


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_softmax_backward(rng):
    z, r = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    for temperature in (1.0, 0.7):
        y = softmax.softmax(z, temperature)
        dz = softmax.softmax_backward(r, y, temperature)
        assert_close(dz, numeric_grad(lambda: np.sum(r * softmax.softmax(z, temperature)), z))


@pytest.mark.parametrize("causal", [False, True])
def test_attention_backward_batched(rng, causal):
    q, k, v = (rng.normal(size=(2, 3, 4, 5)) for _ in range(3))  # (B, H, T, d)
    r = rng.normal(size=(2, 3, 4, 5))
    weights, out, _ = attention.attention(q, k, v, causal=causal, scale=1.3)
    dq, dk, dv = attention.attention_backward(r, q, k, v, weights, scale=1.3)
    loss = lambda: np.sum(r * attention.attention(q, k, v, causal=causal, scale=1.3)[1])
    for analytic, x in ((dq, q), (dk, k), (dv, v)):
        assert_close(analytic, numeric_grad(loss, x))


def test_attention_batched_equals_one_head_at_a_time(rng):
    q, k, v = (rng.normal(size=(2, 3, 4, 5)) for _ in range(3))
    weights, out, _ = attention.attention(q, k, v, causal=True)
    for b in range(2):
        for h in range(3):
            w1, o1, _ = attention.attention(q[b, h], k[b, h], v[b, h], causal=True)
            assert np.allclose(weights[b, h], w1) and np.allclose(out[b, h], o1)


def test_layer_norm_backward(rng):
    x, r = rng.normal(size=(2, 3, 6)), rng.normal(size=(2, 3, 6))
    gamma, beta = rng.normal(size=6), rng.normal(size=6)
    dx, dgamma, dbeta = norms.layer_norm_backward(r, x, gamma)
    loss = lambda: np.sum(r * norms.layer_norm(x, gamma, beta))
    assert_close(dx, numeric_grad(loss, x))
    assert_close(dgamma, numeric_grad(loss, gamma))
    assert_close(dbeta, numeric_grad(loss, beta))


@pytest.mark.parametrize("activation", ["gelu", "relu"])
def test_activation_backward(rng, activation):
    x = rng.normal(size=(4, 7)) * 2
    x[np.abs(x) < 1e-3] = 0.5  # keep ReLU's kink away from the perturbation
    r = rng.normal(size=(4, 7))
    dx = ffn.activate_backward(r, x, activation)
    assert_close(dx, numeric_grad(lambda: np.sum(r * ffn.activate(x, activation)), x))


@pytest.mark.parametrize("activation", ["gelu", "relu"])
def test_ffn_backward(rng, activation):
    w = ffn.init_ffn(4, 8, seed=1)
    w["b1"] = rng.normal(size=8) * 0.1
    x, r = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 4))
    dx, dw1, db1, dw2, db2 = ffn.ffn_backward(r, x, w["w1"], w["b1"], w["w2"], activation)
    loss = lambda: np.sum(r * ffn.ffn(x, w["w1"], w["b1"], w["w2"], w["b2"], activation))
    for analytic, a in ((dx, x), (dw1, w["w1"]), (db1, w["b1"]), (dw2, w["w2"]),
                        (db2, w["b2"])):
        assert_close(analytic, numeric_grad(loss, a))


def test_self_attention_backward(rng):
    p = {name: rng.normal(size=(6, 6)) * 0.5 for name in ("w_q", "w_k", "w_v", "w_o")}
    x, r = rng.normal(size=(2, 4, 6)), rng.normal(size=(2, 4, 6))
    _, cache = layers.self_attention(x, p, 3)
    dx, grads = layers.self_attention_backward(r, cache, p)
    loss = lambda: np.sum(r * layers.self_attention(x, p, 3)[0])
    assert_close(dx, numeric_grad(loss, x))
    for name in p:
        assert_close(grads[name], numeric_grad(loss, p[name]))


def tiny():
    """A tiny model with its weights moved off their initial values (where some gradients
    are zero by symmetry, e.g. LayerNorm's beta under a zero bias)."""
    cfg = model.config(d_model=4, n_heads=2, n_layers=2, d_ff=8, n_positions=5, vocab=10)
    params = model.init(cfg, seed=3)
    rng = np.random.default_rng(4)
    for name in params:
        params[name] = params[name] + rng.normal(0.0, 0.3, params[name].shape)
    return cfg, params


def test_block_backward(rng):
    cfg, params = tiny()
    p = model.layer(params, 0)
    x, r = rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 4))
    _, cache = layers.block(x, p, 2, "gelu")
    dx, grads = layers.block_backward(r, cache, p, "gelu")
    loss = lambda: np.sum(r * layers.block(x, p, 2, "gelu")[0])
    assert_close(dx, numeric_grad(loss, x))
    assert set(grads) == set(p)
    for name in p:
        assert_close(grads[name], numeric_grad(loss, p[name]))


def test_cross_entropy_backward(rng):
    z = rng.normal(size=(5, 10))
    targets, weights = rng.integers(0, 10, size=5), rng.random(5)
    dz = model.cross_entropy_backward(z, targets, weights)
    assert_close(dz, numeric_grad(lambda: model.cross_entropy(z, targets, weights), z))
    # and the loss itself, the long way
    by_hand = -sum(w * (row[t] - np.log(np.exp(row).sum()))
                   for row, t, w in zip(z, targets, weights))
    assert model.cross_entropy(z, targets, weights) == pytest.approx(by_hand, rel=1e-12)


def test_whole_model_backward_every_parameter(rng):
    cfg, params = tiny()
    ids = rng.integers(0, 10, size=(2, 5))
    targets = rng.integers(0, 10, size=(2, 5))
    weights = rng.random((2, 5))
    weights[0, 1] = 0.0  # a position without loss: its logits are never computed
    loss, grads, _ = model.loss_and_grads(params, cfg, ids, targets, weights)
    f = lambda: model.loss_and_grads(params, cfg, ids, targets, weights)[0]
    assert set(grads) == set(params)
    for name in params:
        assert_close(grads[name], numeric_grad(f, params[name]))


def test_clip_scales_to_the_norm():
    grads = {"a": np.array([3.0, 0.0]), "b": np.array([[4.0]])}
    clipped, norm = adamw.clip(grads, 1.0)
    assert norm == 5.0
    assert np.allclose(clipped["a"], [0.6, 0.0]) and np.allclose(clipped["b"], [[0.8]])
    same, _ = adamw.clip(grads, 10.0)
    assert same is grads


def test_adamw_two_steps_by_hand():
    # One matrix (decays) and one bias (does not), lr 0.1, wd 0.5, betas (0.9, 0.99).
    params = {"layers.0.ffn.w1": np.array([[1.0]]), "layers.0.ffn.b1": np.array([2.0])}
    state = adamw.init_state(params)
    g = {"layers.0.ffn.w1": np.array([[0.5]]), "layers.0.ffn.b1": np.array([-1.0])}
    adamw.step(params, g, state, lr=0.1, weight_decay=0.5, betas=(0.9, 0.99), eps=0.0)
    # step 1: m_hat = g, v_hat = g^2, so the Adam step is lr * sign(g)
    assert params["layers.0.ffn.w1"][0, 0] == pytest.approx(1.0 - 0.1 * 0.5 * 1.0 - 0.1)
    assert params["layers.0.ffn.b1"][0] == pytest.approx(2.0 + 0.1)
    w = params["layers.0.ffn.w1"][0, 0]
    g2 = {"layers.0.ffn.w1": np.array([[-0.25]]), "layers.0.ffn.b1": np.array([-1.0])}
    adamw.step(params, g2, state, lr=0.1, weight_decay=0.5, betas=(0.9, 0.99), eps=0.0)
    m = 0.9 * 0.1 * 0.5 + 0.1 * -0.25  # = 0.02
    v = 0.99 * 0.01 * 0.25 + 0.01 * 0.0625
    m_hat, v_hat = m / (1 - 0.9 ** 2), v / (1 - 0.99 ** 2)
    assert params["layers.0.ffn.w1"][0, 0] == pytest.approx(
        w - 0.1 * 0.5 * w - 0.1 * m_hat / np.sqrt(v_hat), rel=1e-12)
