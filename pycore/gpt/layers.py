"""The model's two sub-layers that pycore's other modules do not already have whole: causal
multi-head self-attention (projections, heads, W_O around pycore.attention) and the Pre-LN
block. Each forward returns (output, cache) and its backward sits right below it.

Shapes: B = batch, T = tokens, D = d_model, H = heads, Dh = D // H, F = d_ff.
Row-vector convention, as in the rest of the book: Q = X @ W_Q.
"""
import numpy as np

from .. import ffn, norms
from ..attention import attention, attention_backward
from ..linear import linear


def split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, Dh): head h gets columns h Dh .. (h + 1) Dh - 1."""
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).transpose(0, 2, 1, 3)  # (B, H, T, Dh)


def merge_heads(x):
    """(B, H, T, Dh) -> (B, T, D): the heads' outputs side by side again."""
    B, H, T, Dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * Dh)  # (B, T, D)


def self_attention(x, p, n_heads):
    """x (B, T, D) -> (output (B, T, D), cache). p: w_q, w_k, w_v, w_o, each (D, D)."""
    # linear(x, w) is x @ w, the fastest way in each runtime (pycore/linear.py)
    q = split_heads(linear(x, p["w_q"]), n_heads)  # (B, H, T, Dh)
    k = split_heads(linear(x, p["w_k"]), n_heads)  # (B, H, T, Dh)
    v = split_heads(linear(x, p["w_v"]), n_heads)  # (B, H, T, Dh)
    weights, heads, _ = attention(q, k, v, causal=True)  # (B, H, T, T), (B, H, T, Dh)
    merged = merge_heads(heads)  # (B, T, D)
    cache = {"x": x, "q": q, "k": k, "v": v, "weights": weights, "merged": merged}
    return linear(merged, p["w_o"]), cache


def self_attention_backward(d_out, cache, p):
    """dL/d(output) (B, T, D) -> (dx (B, T, D), {w_q, w_k, w_v, w_o: (D, D) gradients})."""
    x, merged = cache["x"], cache["merged"]
    D = x.shape[-1]
    n_heads = cache["q"].shape[1]
    grads = {"w_o": merged.reshape(-1, D).T @ d_out.reshape(-1, D)}  # (D, B T) @ (B T, D)
    d_heads = split_heads(d_out @ p["w_o"].T, n_heads)  # (B, H, T, Dh)
    dq, dk, dv = attention_backward(d_heads, cache["q"], cache["k"], cache["v"],
                                    cache["weights"])  # (B, H, T, Dh) each
    rows = x.reshape(-1, D)  # (B T, D)
    dx = np.zeros_like(x)
    for name, d in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
        d = merge_heads(d)  # (B, T, D)
        grads[name] = rows.T @ d.reshape(-1, D)  # (D, B T) @ (B T, D) = (D, D)
        dx += d @ p[name].T  # (B, T, D)
    return dx, grads


def block(x, p, n_heads, activation):
    """One Pre-LN block, x (B, T, D) -> (y (B, T, D), cache):
    r = x + MHA(LN1(x));  y = r + FFN(LN2(r)).

    p: ln1.gamma, ln1.beta, attn.w_q ... attn.w_o, ln2.gamma, ln2.beta, ffn.w1 (D, F),
    ffn.b1 (F,), ffn.w2 (F, D), ffn.b2 (D,).
    """
    h1 = norms.layer_norm(x, p["ln1.gamma"], p["ln1.beta"])  # (B, T, D)
    a, attn_cache = self_attention(h1, sub(p, "attn."), n_heads)  # (B, T, D)
    r = x + a  # (B, T, D)
    h2 = norms.layer_norm(r, p["ln2.gamma"], p["ln2.beta"])  # (B, T, D)
    y = r + ffn.ffn(h2, p["ffn.w1"], p["ffn.b1"], p["ffn.w2"], p["ffn.b2"], activation)
    return y, {"x": x, "h1": h1, "attn": attn_cache, "r": r, "h2": h2}


def block_backward(dy, cache, p, activation):
    """dL/dy (B, T, D) -> (dx (B, T, D), gradients of every parameter in p, same names)."""
    g = {}
    # y = r + FFN(LN2(r)): dL/dr gets dy directly (the residual) and through the FFN.
    dh2, g["ffn.w1"], g["ffn.b1"], g["ffn.w2"], g["ffn.b2"] = ffn.ffn_backward(
        dy, cache["h2"], p["ffn.w1"], p["ffn.b1"], p["ffn.w2"], activation)
    dr, g["ln2.gamma"], g["ln2.beta"] = norms.layer_norm_backward(dh2, cache["r"],
                                                                  p["ln2.gamma"])
    dr = dr + dy  # (B, T, D)
    # r = x + MHA(LN1(x)): the same again.
    dh1, attn_grads = self_attention_backward(dr, cache["attn"], sub(p, "attn."))
    g.update({"attn." + name: d for name, d in attn_grads.items()})
    dx, g["ln1.gamma"], g["ln1.beta"] = norms.layer_norm_backward(dh1, cache["x"],
                                                                  p["ln1.gamma"])
    return dx + dr, g


def sub(params, prefix):
    """The entries of a flat parameter dict under `prefix`, with the prefix removed."""
    return {name[len(prefix):]: a for name, a in params.items() if name.startswith(prefix)}
