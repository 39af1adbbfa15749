"""One encoder layer over a sentence (the running example by default), step by step, in the
Post-LN and Pre-LN layouts.

Post-LN (the original paper):  h = LN(x + MHA(x));    y = LN(h + FFN(h))
Pre-LN (GPT-2 and later):      r = x + MHA(LN(x));    y = r + FFN(LN(r))   [then a final LN]

Weights, all fixed so the page can quote every number:
- MHA: the two heads of pycore.multihead (semantic head A, previous-token head B, W_O =
  mean of the heads); attention="semantic" uses head A alone instead (W_O = I).
- FFN: ReLU, d_ff = 4 d = 24, weights from pycore.ffn.init_ffn(6, 24, seed=SEED) with
  SEED = 7 (normal, std 1/sqrt(fan-in); zero biases).
- LayerNorm: gamma = 1, beta = 0, eps = 1e-5 (their values at initialisation).
"""
import numpy as np

from . import example, ffn, multihead, norms

SEED = 7
LAYOUTS = ("post", "pre")


def mha(x, attention="two-head", w_q=None):
    """(n, d) -> (n, d) with the fixed heads (w_q: the semantic head's, default the book's)."""
    if attention == "two-head":
        return multihead.two_heads(x, w_q=w_q)["output"]
    if attention == "semantic":
        return multihead.head_a(x, w_q=w_q)["output"]
    raise ValueError(f"attention must be 'two-head' or 'semantic', not {attention!r}")


def _step(key, label, kind, m):
    mean, std = norms.row_stats(m)
    return {"key": key, "label": label, "kind": kind, "matrix": m,
            "row_mean": mean, "row_std": std}


def encoder_steps(layout="post", x=None, attention="two-head", final_ln=True, seed=SEED,
                  w_q=None):
    """The named steps of one layer: a list of dicts with key, label, kind (input /
    attention / add / norm / ffn), matrix (n, d), row_mean and row_std (n,) each, for the
    sentence x (n, d), n tokens (default: the book's nine).

    final_ln only matters for Pre-LN (GPT-2 puts one LayerNorm after the last layer).
    w_q: the semantic head's W_Q (default: the book's).
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    x = example.EMBEDDINGS if x is None else np.asarray(x, dtype=float)  # (n, 6)
    w = ffn.init_ffn(x.shape[1], seed=seed)
    f = lambda h: ffn.ffn(h, w["w1"], w["b1"], w["w2"], w["b2"])  # (n, d) -> (n, d)
    steps = [_step("x", "x", "input", x)]
    if layout == "post":
        a = mha(x, attention, w_q)
        r = x + a
        h = norms.layer_norm(r)
        g = f(h)
        y = norms.layer_norm(h + g)
        steps += [_step("mha", "MHA(x)", "attention", a),
                  _step("add1", "x + MHA(x)", "add", r),
                  _step("ln1", "h = LN(x + MHA(x))", "norm", h),
                  _step("ffn", "FFN(h)", "ffn", g),
                  _step("add2", "h + FFN(h)", "add", h + g),
                  _step("ln2", "LN(h + FFN(h))", "norm", y)]
        return steps
    h = norms.layer_norm(x)
    a = mha(h, attention, w_q)
    r = x + a
    h2 = norms.layer_norm(r)
    g = f(h2)
    steps += [_step("ln1", "LN(x)", "norm", h),
              _step("mha", "MHA(LN(x))", "attention", a),
              _step("add1", "r = x + MHA(LN(x))", "add", r),
              _step("ln2", "LN(r)", "norm", h2),
              _step("ffn", "FFN(LN(r))", "ffn", g),
              _step("add2", "r + FFN(LN(r))", "add", r + g)]
    if final_ln:
        steps.append(_step("ln_final", "LN_final", "norm", norms.layer_norm(r + g)))
    return steps


def ffn_weights(seed=SEED, d=6):
    """The FFN weights used above (for the widget's weight view)."""
    return ffn.init_ffn(d, seed=seed)
