"""Quantisation: storing weights and the KV cache in 8 or 4 bits instead of 16 or 32.

A block of numbers x shares one scale s (and, asymmetric, one zero point z); each number
is stored as a small integer q and read back as x_hat:

    symmetric   q = clip(round(x / s), -Q, Q),      x_hat = q s,        Q = 2^(b-1) - 1,
                s = max|x| / Q                       (int8: -127..127, int4: -7..7)
    asymmetric  q = clip(round(x / s) + z, 0, L),   x_hat = (q - z) s,  L = 2^b - 1,
                s = (hi - lo) / L, z = round(-lo / s), lo = min(x, 0), hi = max(x, 0)
                                                     (uint8: 0..255, uint4: 0..15)

Rounding moves a number by at most half a step, so |x - x_hat| <= s / 2 for every entry
(the asymmetric grid may sit up to half a step off [lo, hi]; clipping then still lands
within s / 2). 0 is always exact. Symmetric wastes levels when the numbers are lopsided (all
positive: half the levels unused); the zero point spends them on the range actually used.

How many numbers share a scale (the granularity):
- per tensor: one scale for everything; one large entry coarsens the whole grid;
- per channel: one scale per output column of W (x @ W), or per token / per channel of a
  (T, d) cache (channel_axis 0 or 1);
- per group: groups of group_size consecutive entries down each column (as int4 weight
  formats such as GPTQ and AWQ store them, group 128), each with its own scale.
Bytes: the integers (bits / 8 each; two int4 values share a byte, pack_int4) plus the scales
(fp16, 2 bytes each) and, asymmetric, the zero points (bits each).

Numbers the chapter quotes (tests/test_pycore_quantize.py):
- The code lab's W_Q (128 x 128, pycore.block.init_block(128, 8, 512, seed=0)) is 32768
  bytes in fp16. int8 symmetric per channel: 16384 + 128 * 2 = 16640 bytes, mean error
  4.9e-4 (per tensor 7.0e-4). int4 symmetric per group of 32: 8192 + 512 * 2 = 9216 bytes,
  mean error 7.2e-3 (per tensor 1.27e-2).
- The code lab's attention with its four matrices in int8 per channel: no attention weight
  moves by more than 0.007; in int4, by up to 0.14.
- The semantic head's weights and the running example's embeddings are all 0 and 1: every
  scheme stores them exactly, and the 它 row does not move at all. With positions added
  (real-valued keys and values), an int8 KV cache per token moves the 它 row by at most
  0.0022, an int4 one by 0.034.
- The 它 row itself (0.2101, 0.1397, 0.0929 ...) in int4 asymmetric per tensor: s =
  0.2101 / 15 = 0.0140, z = 0; 0.0929 becomes 7 s = 0.0981 (error 0.0052).
- LLaMA-7B's KV cache at 2048 tokens: 1024 MiB in fp16, 520 MiB in int8 and 264 MiB in
  int4 (of which 8 MiB are the per-token fp16 scales).
"""
import math

import numpy as np

from . import block, example, kvcache, positional
from .attention import attention

SCALE_BYTES = 2  # scales stored in fp16
FROM_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}
GRANULARITIES = ("tensor", "channel", "group")


def _blocks(x, granularity, channel_axis, group_size):
    """x -> (n_blocks, block_len), one row per scale, and a function that undoes it."""
    x = np.asarray(x, dtype=float)
    if granularity == "tensor":
        return x.reshape(1, -1), lambda b: b.reshape(x.shape)
    if granularity not in GRANULARITIES:
        raise ValueError(f"granularity must be one of {GRANULARITIES}, not {granularity!r}")
    if x.ndim != 2:
        raise ValueError(f"per-{granularity} quantisation takes a 2-D array, not {x.shape}")
    if channel_axis not in (0, 1):
        raise ValueError(f"channel_axis must be 0 or 1, not {channel_axis}")
    xt = x if channel_axis == 0 else x.T  # (C, L): one row per channel
    C, L = xt.shape
    if granularity == "channel":
        back = lambda b: b if channel_axis == 0 else b.T
        return xt.copy(), back
    if not group_size or L % group_size:
        raise ValueError(f"group_size must divide the channel length {L}, not {group_size}")
    g = group_size
    grouped = xt.reshape(C * (L // g), g)  # (C * L/g, g): consecutive entries of a channel
    back = lambda b: b.reshape(C, L) if channel_axis == 0 else b.reshape(C, L).T
    return grouped, back


def quantize(x, bits=8, symmetric=True, granularity="tensor", channel_axis=1, group_size=None):
    """Quantise x and read it back.

    Returns q (integers, x's shape), scale and zero_point (one per block), x_hat (x's
    shape), the error x_hat - x, and the settings. channel_axis: for "channel" and "group",
    the axis whose entries each get their own scale(s): 1 = the columns of a weight W
    (x @ W), 0 = the rows of a (T, d) cache (one scale per token).
    """
    if bits not in (2, 3, 4, 8):
        raise ValueError(f"bits must be 8, 4, 3 or 2, not {bits}")
    blocks, back = _blocks(x, granularity, channel_axis, group_size)  # (n, len)
    if symmetric:
        top = 2 ** (bits - 1) - 1
        scale = np.abs(blocks).max(axis=1) / top  # (n,)
        scale = np.where(scale > 0, scale, 1.0)  # an all-zero block: any scale is exact
        zero = np.zeros(len(blocks), dtype=np.int64)
        q = np.clip(np.round(blocks / scale[:, None]), -top, top)
    else:
        top = 2 ** bits - 1
        lo = np.minimum(blocks.min(axis=1), 0.0)  # keep 0 inside the range: 0 stays exact
        hi = np.maximum(blocks.max(axis=1), 0.0)
        scale = (hi - lo) / top
        scale = np.where(scale > 0, scale, 1.0)
        zero = np.round(-lo / scale).astype(np.int64)
        q = np.clip(np.round(blocks / scale[:, None]) + zero[:, None], 0, top)
    q = q.astype(np.int64)
    x_hat = (q - zero[:, None]) * scale[:, None]
    x = np.asarray(x, dtype=float)
    return {"q": back(q), "scale": scale, "zero_point": zero, "x_hat": back(x_hat),
            "error": back(x_hat) - x, "bits": bits, "symmetric": symmetric,
            "granularity": granularity, "group_size": group_size,
            "qmin": -top if symmetric else 0, "qmax": top}


def error_stats(result):
    """max and mean absolute error, and the largest scale (the bound's 2 * max error)."""
    err = np.abs(result["error"])
    return {"max_abs": float(err.max()), "mean_abs": float(err.mean()),
            "max_scale": float(np.max(result["scale"]))}


def nbytes(numel, n_scales, bits, symmetric=True, from_dtype="fp16"):
    """Bytes before (numel values of from_dtype) and after: the packed integers, the fp16
    scales and, asymmetric, the packed zero points."""
    if from_dtype not in FROM_BYTES:
        raise ValueError(f"from_dtype must be one of {sorted(FROM_BYTES)}, not {from_dtype!r}")
    payload = math.ceil(numel * bits / 8)
    scales = n_scales * SCALE_BYTES
    zeros = 0 if symmetric else math.ceil(n_scales * bits / 8)
    before = numel * FROM_BYTES[from_dtype]
    after = payload + scales + zeros
    return {"before": before, "payload": payload, "scales": scales, "zero_points": zeros,
            "after": after, "ratio": before / after}


def pack_int4(q):
    """Two 4-bit values per byte: element 2k in the low nibble, 2k + 1 in the high one.
    Signed values (-8..7) are stored as their two's complement nibble. An odd count is padded
    with a 0."""
    q = np.asarray(q, dtype=np.int64).ravel()
    if q.size and (q.min() < -8 or q.max() > 15):
        raise ValueError("int4 values must lie in -8..7 (signed) or 0..15 (unsigned)")
    if len(q) % 2:
        q = np.append(q, 0)
    nib = q & 0xF  # (n,) two's complement low 4 bits
    return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8)  # (n/2,)


def unpack_int4(packed, n, signed=True):
    """The first n values stored by pack_int4."""
    packed = np.asarray(packed, dtype=np.uint8).astype(np.int64)
    nib = np.empty(2 * len(packed), dtype=np.int64)
    nib[0::2], nib[1::2] = packed & 0xF, packed >> 4
    if signed:
        nib = np.where(nib >= 8, nib - 16, nib)  # sign-extend the nibble
    return nib[:n]


def _report(x, bits, symmetric, granularity, channel_axis, group_size, from_dtype="fp16"):
    r = quantize(x, bits, symmetric, granularity, channel_axis, group_size)
    return {**r, **error_stats(r),
            "bytes": nbytes(np.size(x), len(r["scale"]), bits, symmetric, from_dtype)}


def lab_weight(name="W_Q", seed=0):
    """One matrix of the code lab's block (d_model 128, 8 heads, d_ff 512)."""
    w = block.init_block(128, 8, 512, seed)
    if name not in w or w[name].ndim != 2:
        raise ValueError(f"name must be one of W_Q, W_K, W_V, W_O, W_1, W_2, not {name!r}")
    return np.ascontiguousarray(w[name])


def weight_report(name="W_Q", bits=8, symmetric=True, granularity="channel", group_size=32):
    """A code-lab weight matrix quantised: errors and bytes (fp16 before)."""
    return _report(lab_weight(name), bits, symmetric, granularity, 1,
                   group_size if granularity == "group" else None)


def _semantic(x, kv_quant=None):
    """The semantic head's weights and outputs on x (9, 6), K and V read back through
    kv_quant (a function of a (9, 6) cache) when given."""
    w_q, w_k, w_v = example.semantic_head()
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    if kv_quant is not None:
        k, v = kv_quant(k), kv_quant(v)
    weights, out, _ = attention(q, k, v)
    return weights, out


KV_GROUPINGS = {"token": ("channel", 0), "feature": ("channel", 1), "tensor": ("tensor", 1)}


def kv_cache_report(bits=8, symmetric=True, per="token", positions=True, query="它"):
    """The running example's KV cache quantised, and what it does to the row of `query`.

    per: "token" (one scale per cached row: a new token's key can be quantised the moment
    it is appended), "feature" (one per dimension) or "tensor". positions=True adds the
    sinusoidal PE (d = 6) to the embeddings first, as the permutation chapter does, so the
    keys and values are real-valued; without positions they are all 0 and 1 and nothing
    changes.
    """
    if per not in KV_GROUPINGS:
        raise ValueError(f"per must be one of {sorted(KV_GROUPINGS)}, not {per!r}")
    granularity, axis = KV_GROUPINGS[per]
    x = example.EMBEDDINGS + (positional.sinusoidal(9, 6) if positions else 0.0)  # (9, 6)
    i = example.TOKENS.index(query)
    read_back = lambda c: quantize(c, bits, symmetric, granularity, axis)["x_hat"]
    w0, out0 = _semantic(x)
    w1, out1 = _semantic(x, read_back)
    keys = x @ example.semantic_head()[1]  # (9, 6)
    r = quantize(keys, bits, symmetric, granularity, axis)
    return {"query": query, "positions": positions, "bits": bits, "symmetric": symmetric,
            "per": per, "row_before": w0[i], "row_after": w1[i],
            "row_max_change": float(np.max(np.abs(w1[i] - w0[i]))),
            "weights_max_change": float(np.max(np.abs(w1 - w0))),
            "output_max_change": float(np.max(np.abs(out1 - out0))),
            "key_max_error": float(np.max(np.abs(r["error"]))),
            "bytes": nbytes(2 * keys.size, 2 * len(r["scale"]), bits, symmetric)}  # K and V


def kv_preset_bytes(name="LLaMA-7B", bits=8, tokens=None, symmetric=True):
    """The KV cache of a pycore.kvcache preset in fp16 and quantised per token and head:
    one fp16 scale (and zero point) per cached vector of d_head values."""
    p = kvcache.PRESETS[name]
    tokens = p["max_context"] if tokens is None else tokens
    values = kvcache.cache_bytes(tokens, p["n_layers"], p["n_kv_heads"], p["d_head"], 1)
    n_scales = values // p["d_head"]  # one per (K or V, layer, head, token)
    return {"name": name, "tokens": tokens, "bits": bits,
            **nbytes(values, n_scales, bits, symmetric)}


def attention_row_report(bits=4, symmetric=False, query="它"):
    """The semantic head's row of `query` (its 9 weights) quantised as one tensor."""
    w_q, w_k, w_v = example.semantic_head()
    x = example.EMBEDDINGS
    row = attention(x @ w_q, x @ w_k, x @ w_v)[0][example.TOKENS.index(query)]
    return {"row": row, **_report(row, bits, symmetric, "tensor", 1, None)}


def semantic_head_report(bits=4, symmetric=True):
    """The semantic head's W_Q, W_K, W_V quantised: all entries are 0 or 1, all exact."""
    weights = example.semantic_head()
    reports = [quantize(w, bits, symmetric) for w in weights]
    x = example.EMBEDDINGS
    before = attention(*(x @ w for w in weights))[0]
    after = attention(*(x @ r["x_hat"] for r in reports))[0]
    return {"max_abs_error": float(max(np.abs(r["error"]).max() for r in reports)),
            "row_max_change": float(np.max(np.abs(after - before)))}


def lab_attention_report(bits=8, symmetric=True, granularity="channel", group_size=32, seed=0):
    """The code lab's attention with its four matrices quantised: how far the attention
    weights (B, H, T, T) and the output move (lab input, B = 2, T = 32, causal)."""
    w = block.init_block(128, 8, 512, seed)
    x = np.random.default_rng([seed, 1]).normal(size=(2, 32, 128))  # the lab's input
    h = block.layer_norm(x, w["ln1_gamma"], w["ln1_beta"])
    wq = dict(w)
    group = group_size if granularity == "group" else None
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        wq[name] = quantize(w[name], bits, symmetric, granularity, 1, group)["x_hat"]
    out0, a0 = block.multi_head_attention(h, w, 8, causal=True)
    out1, a1 = block.multi_head_attention(h, wq, 8, causal=True)
    return {"weights_max_change": float(np.max(np.abs(a1 - a0))),
            "output_max_change": float(np.max(np.abs(out1 - out0))),
            "output_rms": float(np.sqrt(np.mean(out0 ** 2)))}
