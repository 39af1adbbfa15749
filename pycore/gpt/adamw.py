"""AdamW (Loshchilov and Hutter): Adam's step, with weight decay applied to the weights
directly instead of being added to the gradient, and clipping by the global gradient norm.

For every parameter w with gradient g, at step t = 1, 2, ...:

    m = b1 m + (1 - b1) g             v = b2 v + (1 - b2) g^2
    w = w - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)  -  lr * wd * w

Adding wd * w to g instead (plain L2) would be divided by sqrt(v) like the rest: weights
with large gradients would hardly decay. Decoupled, every decayed weight shrinks by the
same factor (1 - lr wd) per step.

Only the matrices decay (attention and FFN weights). Not the LayerNorm gains and biases,
whose job is to set a scale or an offset (pulling them to 0 fights that), and not the token
and position embeddings: a word's row only gets a gradient when the word occurs, so decay
would shrink rare words most.
"""
import numpy as np


def decays(name):
    """Whether a parameter (by its model.shapes() name) gets weight decay."""
    return name.endswith(("w_q", "w_k", "w_v", "w_o", "w1", "w2"))


def init_state(params):
    """Adam's moments, zero, and the step count t = 0 (plain data)."""
    return {"t": 0, "m": {k: np.zeros_like(a) for k, a in params.items()},
            "v": {k: np.zeros_like(a) for k, a in params.items()}}


def global_norm(grads):
    return float(np.sqrt(sum(float(np.sum(g * g)) for g in grads.values())))


def clip(grads, max_norm):
    """Scale all gradients by one factor so that their global norm is at most max_norm.
    Returns (grads, the norm before clipping)."""
    norm = global_norm(grads)
    if max_norm is None or norm <= max_norm:
        return grads, norm
    scale = max_norm / (norm + 1e-12)
    return {k: g * scale for k, g in grads.items()}, norm


def step(params, grads, state, lr, weight_decay=0.0, betas=(0.9, 0.95), eps=1e-8):
    """One AdamW update of params, in place (and of state)."""
    b1, b2 = betas
    state["t"] += 1
    t = state["t"]
    for name, w in params.items():
        g, m, v = grads[name], state["m"][name], state["v"][name]
        m *= b1
        m += (1 - b1) * g
        v *= b2
        v += (1 - b2) * (g * g)
        if weight_decay and decays(name):
            w -= lr * weight_decay * w
        w -= lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps)
