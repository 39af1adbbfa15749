"""FFN and SwiGLU against hand-computed cases and per-row loops."""
import math

import numpy as np
import pytest

from pycore import ffn


def test_relu_ffn_by_hand():
    # d = 1, d_ff = 2: hidden = relu([2x - 1, -x]), out = hidden . [1, 3] + 0.5
    w1, b1 = np.array([[2.0, -1.0]]), np.array([-1.0, 0.0])
    w2, b2 = np.array([[1.0], [3.0]]), np.array([0.5])
    out = ffn.ffn(np.array([[2.0], [-1.0]]), w1, b1, w2, b2)
    # x = 2: hidden [3, 0] -> 3.5;  x = -1: hidden [0, 1] -> 3.5
    assert np.allclose(out, [[3.5], [3.5]])


def test_gelu_values():
    # GELU(0) = 0, GELU(1) = Phi(1) = 0.841344746..., GELU(-1) = -(1 - Phi(1))
    assert np.allclose(ffn.gelu_exact([0.0, 1.0, -1.0]), [0.0, 0.8413447460685429, -0.15865525393145707])
    # the tanh approximation is within 1e-3 of the exact curve
    x = np.linspace(-5, 5, 101)
    assert np.max(np.abs(ffn.gelu(x) - ffn.gelu_exact(x))) < 1e-3
    assert ffn.gelu(1.0) == pytest.approx(0.8411919906, abs=1e-9)


def test_silu_by_hand():
    assert np.allclose(ffn.silu([0.0, 1.0, -2.0]),
                       [0.0, 1 / (1 + math.exp(-1)), -2 / (1 + math.exp(2))])


def test_ffn_rowwise_loop_and_shapes():
    w = ffn.init_ffn(6, seed=3)
    assert w["w1"].shape == (6, 24) and w["w2"].shape == (24, 6)
    x = np.random.default_rng(1).normal(size=(5, 6))
    for act in ("relu", "gelu"):
        out = ffn.ffn(x, w["w1"], w["b1"] + 0.1, w["w2"], w["b2"] - 0.2, activation=act)
        assert out.shape == (5, 6)
        for i in range(5):  # each row on its own, written out
            h = [sum(x[i, a] * w["w1"][a, j] for a in range(6)) + 0.1 for j in range(24)]
            h = [max(t, 0.0) if act == "relu"
                 else 0.5 * t * (1 + math.tanh(math.sqrt(2 / math.pi) * (t + 0.044715 * t ** 3)))
                 for t in h]
            row = [sum(h[j] * w["w2"][j, c] for j in range(24)) - 0.2 for c in range(6)]
            assert np.allclose(out[i], row)
    with pytest.raises(ValueError):
        ffn.ffn(x, w["w1"], w["b1"], w["w2"], w["b2"], activation="tanh")


def test_swiglu_by_hand():
    x = np.array([[1.0, 2.0]])
    w_gate = np.array([[1.0], [0.0]])  # gate = silu(1)
    w_up = np.array([[0.0], [1.5]])  # up = 3
    w_down = np.array([[2.0, -1.0]])
    s = 1 / (1 + math.exp(-1))
    assert np.allclose(ffn.swiglu(x, w_gate, w_up, w_down), [[6 * s, -3 * s]])


def test_param_counts():
    assert ffn.ffn_params(768) == 2 * 768 * 3072 + 3072 + 768  # GPT-2 small MLP: 4,722,432
    assert ffn.ffn_params(768) == 4_722_432
    assert ffn.ffn_params(4096, 11008, "swiglu", bias=False) == 135_266_304  # LLaMA-7B
