"""The position-wise feed-forward network: the same small MLP applied to every token row.

Classic form (the original paper with ReLU, GPT-2/BERT with GELU), hidden width d_ff = 4 d:

    FFN(x) = act(x @ W1 + b1) @ W2 + b2        x (n, d), W1 (d, d_ff), W2 (d_ff, d)

SwiGLU form (LLaMA, PaLM): a gated unit with three matrices and usually no biases,

    SwiGLU(x) = (silu(x @ W_gate) * (x @ W_up)) @ W_down

LLaMA picks d_ff of about (2/3) 4 d so that its three matrices cost about as much as two.

The backward passes (relu_backward, gelu_backward, ffn_backward) sit beside their forwards.
"""
import math

import numpy as np

from .linear import linear

ACTIVATIONS = ("relu", "gelu", "gelu_exact")


GELU_C = math.sqrt(2.0 / math.pi)


def relu(x):
    return np.maximum(x, 0.0)


def relu_backward(dy, x):
    """dL/dx of relu(x): dy where x > 0, else 0 (0 at x = 0, as PyTorch)."""
    return np.where(np.asarray(x) > 0, dy, 0.0)


def gelu(x):
    """GELU with the tanh approximation used by GPT-2: 0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3)))."""
    x = np.asarray(x, dtype=float)
    # x * x * x, not x**3: NumPy's power with a float exponent is some 30x slower.
    return 0.5 * x * (1.0 + np.tanh(GELU_C * (x + 0.044715 * (x * x * x))))


def gelu_backward(dy, x):
    """dL/dx of gelu(x): with u = c (x + 0.044715 x^3) and t = tanh(u),
    d gelu / dx = 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 * 0.044715 x^2)."""
    x = np.asarray(x, dtype=float)
    x2 = x * x
    t = np.tanh(GELU_C * (x + 0.044715 * x2 * x))
    return dy * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * GELU_C * (1.0 + 3 * 0.044715 * x2))


def gelu_exact(x):
    """GELU as defined: x * Phi(x), with Phi the standard normal CDF (via math.erf)."""
    x = np.asarray(x, dtype=float)
    phi = np.vectorize(lambda t: 0.5 * (1.0 + math.erf(t / math.sqrt(2.0))), otypes=[float])
    return x * phi(x)


def silu(x):
    """x * sigmoid(x), also called swish."""
    x = np.asarray(x, dtype=float)
    return x / (1.0 + np.exp(-x))


def activate(h, activation):
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, not {activation!r}")
    return {"relu": relu, "gelu": gelu, "gelu_exact": gelu_exact}[activation](h)


def activate_backward(dy, h, activation):
    """dL/dh of activate(h, activation), given dL/d(activate(h))."""
    if activation == "relu":
        return relu_backward(dy, h)
    if activation == "gelu":
        return gelu_backward(dy, h)
    raise ValueError(f"the backward pass knows 'relu' and 'gelu', not {activation!r}")


def ffn(x, w1, b1, w2, b2, activation="relu"):
    """(n, d) -> (n, d) through a hidden layer of width d_ff = w1.shape[1].

    x may have more leading axes, (..., d) -> (..., d): every row goes through the same MLP.
    """
    h = activate(linear(np.asarray(x, dtype=float), w1) + b1, activation)  # (n, d_ff)
    return linear(h, w2) + b2  # (n, d): linear is x @ w (pycore/linear.py says why)


def ffn_backward(dy, x, w1, b1, w2, activation="relu"):
    """Gradients (dx, dw1, db1, dw2, db2) of ffn(x, ...), given dL/d(output) (..., d).

    The hidden layer is computed again from x (one matmul) rather than kept by the forward.
    """
    x = np.asarray(x, dtype=float)
    d, d_ff = w1.shape
    pre = x @ w1 + b1  # (..., d_ff): the hidden layer before the activation
    h = activate(pre, activation)  # (..., d_ff)
    rows_x, rows_h, rows_dy = x.reshape(-1, d), h.reshape(-1, d_ff), dy.reshape(-1, d)
    dw2 = rows_h.T @ rows_dy  # (d_ff, N) @ (N, d) = (d_ff, d), N = all rows
    dh = dy @ w2.T  # (..., d) @ (d, d_ff) = (..., d_ff)
    dpre = activate_backward(dh, pre, activation)  # (..., d_ff)
    dw1 = rows_x.T @ dpre.reshape(-1, d_ff)  # (d, N) @ (N, d_ff) = (d, d_ff)
    dx = dpre @ w1.T  # (..., d_ff) @ (d_ff, d) = (..., d)
    return dx, dw1, dpre.reshape(-1, d_ff).sum(axis=0), dw2, rows_dy.sum(axis=0)


def swiglu(x, w_gate, w_up, w_down):
    """(n, d) -> (n, d): gate (n, d_ff) times up (n, d_ff), projected down by (d_ff, d)."""
    x = np.asarray(x, dtype=float)
    return (silu(x @ w_gate) * (x @ w_up)) @ w_down


def init_ffn(d, d_ff=None, seed=0):
    """Seeded weights for ffn(): normal with std 1/sqrt(fan-in), zero biases.

    Draw order with np.random.default_rng(seed): W1 (d, d_ff), then W2 (d_ff, d).
    """
    d_ff = 4 * d if d_ff is None else d_ff
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0.0, 1.0 / math.sqrt(d), size=(d, d_ff))
    w2 = rng.normal(0.0, 1.0 / math.sqrt(d_ff), size=(d_ff, d))
    return {"w1": w1, "b1": np.zeros(d_ff), "w2": w2, "b2": np.zeros(d)}


def ffn_params(d, d_ff=None, kind="mlp", bias=True):
    """Parameter count: 2 d d_ff (+ d_ff + d biases) for the MLP, 3 d d_ff for SwiGLU."""
    d_ff = 4 * d if d_ff is None else d_ff
    if kind == "mlp":
        return 2 * d * d_ff + (d_ff + d if bias else 0)
    if kind == "swiglu":
        return 3 * d * d_ff + (2 * d_ff + d if bias else 0)
    raise ValueError(f"kind must be 'mlp' or 'swiglu', not {kind!r}")
