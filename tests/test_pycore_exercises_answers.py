"""Answers written the way a learner would write them. Typical wrong ones must get their
feedback (the status, and the typical mistake recognised in them); correct ones written
differently from the model solution (loops, einsum, E[x^2] - E[x]^2) must pass: the
tolerances allow for a different order of rounding."""
import re

import pytest

from pycore.exercises import check, get, ids

HEADER = "import numpy as np\n\n"

# (exercise, label, source, status, mistake id)
ANSWERS = [
    # --- dot-product ---
    ("dot-product", "elementwise product", """
def dot(a, b):
    return a * b
""", "wrong_shape", "elementwise"),
    ("dot-product", "zip drops the extra entries", """
def dot(a, b):
    return sum(x * y for x, y in zip(a, b))
""", "should_raise", "zip-truncates"),
    ("dot-product", "sum times sum", """
def dot(a, b):
    return np.sum(a) * np.sum(b)
""", "wrong_value", "sum-times-sum"),
    # --- cosine-similarity ---
    ("cosine-similarity", "divides by one length", """
def cosine(a, b):
    return np.dot(a, b) / np.linalg.norm(a)
""", "wrong_value", "one-norm"),
    ("cosine-similarity", "squared lengths", """
def cosine(a, b):
    return np.dot(a, b) / (np.dot(a, a) * np.dot(b, b))
""", "wrong_value", "squared-norms"),
    ("cosine-similarity", "no zero check", """
def cosine(a, b):
    return np.dot(a, b) / (np.sqrt(np.sum(a ** 2)) * np.sqrt(np.sum(b ** 2)))
""", "not_finite", "no-zero-check"),
    # --- softmax ---
    ("softmax", "forgot the max shift", """
def softmax(z, temperature=1.0):
    e = np.exp(z / temperature)
    return e / e.sum(axis=-1, keepdims=True)
""", "not_finite", "no-max-shift"),
    ("softmax", "global max", """
def softmax(z, temperature=1.0):
    z = z / temperature
    e = np.exp(z - z.max())
    return e / e.sum(axis=-1, keepdims=True)
""", "not_finite", "global-max"),
    ("softmax", "multiplies by the temperature", """
def softmax(z, temperature=1.0):
    z = z * temperature
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", "wrong_value", "times-temperature"),
    ("softmax", "sums the whole matrix", """
def softmax(z, temperature=1.0):
    z = z / temperature
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / e.sum()
""", "wrong_value", "sum-all"),
    # --- attention ---
    ("attention", "mask applied after softmax", """
def attention(q, k, v, causal=False):
    s = q @ k.T / np.sqrt(q.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    if causal:
        w = w * np.tril(np.ones_like(w))
    return w @ v, w
""", "wrong_value", "mask-after-softmax"),
    ("attention", "no sqrt(d) scale", """
def attention(q, k, v, causal=False):
    s = q @ k.T
    if causal:
        s = np.where(np.tril(np.ones(s.shape)) == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w @ v, w
""", "wrong_value", "no-scale"),
    ("attention", "divides by d instead of sqrt(d)", """
def attention(q, k, v, causal=False):
    s = q @ k.T / q.shape[1]
    if causal:
        s = np.where(np.tril(np.ones(s.shape)) == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w @ v, w
""", "wrong_value", "scale-d"),
    ("attention", "mask sets the future to 0", """
def attention(q, k, v, causal=False):
    s = q @ k.T / np.sqrt(q.shape[1])
    if causal:
        s = s * np.tril(np.ones(s.shape))
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w @ v, w
""", "wrong_value", "mask-with-zero"),
    ("attention", "scores K Q^T", """
def attention(q, k, v, causal=False):
    s = k @ q.T / np.sqrt(q.shape[1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape)) == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w @ v, w
""", "wrong_value", "scores-transposed"),
    ("attention", "returns (weights, output)", """
def attention(q, k, v, causal=False):
    s = q @ k.T / np.sqrt(q.shape[1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape)) == 1, s, -np.inf)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w, w @ v
""", "wrong_shape", "swapped-outputs"),
    # --- split-heads / merge-heads ---
    ("split-heads", "reshape straight to (B, H, T, Dh)", """
def split_heads(x, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    return x.reshape(B, n_heads, T, D // n_heads)
""", "wrong_value", "reshape-only"),
    ("split-heads", "heads take every H-th column", """
def split_heads(x, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    return x.reshape(B, T, D // n_heads, n_heads).transpose(0, 3, 1, 2)
""", "wrong_value", "interleaved"),
    ("split-heads", "forgot to move the head axis", """
def split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads)
""", "wrong_shape", "no-swap"),
    ("merge-heads", "reshape without transpose", """
def merge_heads(x):
    B, H, T, Dh = x.shape
    return x.reshape(B, T, H * Dh)
""", "wrong_value", "reshape-only"),
    ("merge-heads", "heads axis moved last", """
def merge_heads(x):
    B, H, T, Dh = x.shape
    return x.transpose(0, 2, 3, 1).reshape(B, T, H * Dh)
""", "wrong_value", "heads-last"),
    ("merge-heads", "transpose only", """
def merge_heads(x):
    return x.transpose(0, 2, 1, 3)
""", "wrong_shape", "no-reshape"),
    # --- sinusoidal-encoding ---
    ("sinusoidal-encoding", "sin half, cos half", """
def sinusoidal(n_pos, d_model):
    if d_model % 2:
        raise ValueError("odd")
    p = np.arange(n_pos)[:, None]
    w = 1 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(p * w), np.cos(p * w)], axis=1)
""", "wrong_value", "halves"),
    ("sinusoidal-encoding", "every dimension its own frequency", """
def sinusoidal(n_pos, d_model):
    if d_model % 2:
        raise ValueError("odd")
    pe = np.zeros((n_pos, d_model))
    for p in range(n_pos):
        for j in range(d_model):
            angle = p / 10000 ** (j / d_model)
            pe[p, j] = np.sin(angle) if j % 2 == 0 else np.cos(angle)
    return pe
""", "wrong_value", "own-index"),
    ("sinusoidal-encoding", "exponent i/d", """
def sinusoidal(n_pos, d_model):
    if d_model % 2:
        raise ValueError("odd")
    p = np.arange(n_pos)[:, None]
    w = 10000.0 ** (-np.arange(d_model // 2) / d_model)
    pe = np.zeros((n_pos, d_model))
    pe[:, ::2], pe[:, 1::2] = np.sin(p * w), np.cos(p * w)
    return pe
""", "wrong_value", "exponent-i"),
    # --- rope ---
    ("rope", "rotates (i, i + d/2)", """
def rope(x, positions):
    d = x.shape[1]
    theta = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    a, b = x[:, : d // 2], x[:, d // 2 :]
    c, s = np.cos(theta), np.sin(theta)
    return np.concatenate([a * c - b * s, a * s + b * c], axis=1)
""", "wrong_value", "half-pairs"),
    ("rope", "clockwise", """
def rope(x, positions):
    d = x.shape[1]
    theta = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = x.copy()
    a, b = x[:, 0::2], x[:, 1::2]
    out[:, 0::2] = a * np.cos(theta) + b * np.sin(theta)
    out[:, 1::2] = -a * np.sin(theta) + b * np.cos(theta)
    return out
""", "wrong_value", "clockwise"),
    ("rope", "one angle for every pair", """
def rope(x, positions):
    theta = positions[:, None] * np.ones(x.shape[1] // 2)
    out = x.copy()
    a, b = x[:, 0::2], x[:, 1::2]
    out[:, 0::2] = a * np.cos(theta) - b * np.sin(theta)
    out[:, 1::2] = a * np.sin(theta) + b * np.cos(theta)
    return out
""", "wrong_value", "one-frequency"),
    # --- layer-norm ---
    ("layer-norm", "unbiased variance", """
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
""", "wrong_value", "unbiased-variance"),
    ("layer-norm", "eps outside the square root", """
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta
""", "wrong_value", "eps-outside-sqrt"),
    ("layer-norm", "no eps", """
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / x.std(axis=-1, keepdims=True) + beta
""", "wrong_value", "no-eps"),
    ("layer-norm", "normalises over tokens", """
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
""", "wrong_value", "wrong-axis"),
    # --- top-k ---
    ("top-k", "threshold keeps k - 1", """
def top_k_filter(probs, k):
    kth = np.sort(probs)[-min(k, len(probs))]
    p = np.where(probs > kth, probs, 0.0)
    return p / p.sum()
""", "wrong_value", "strict-threshold"),
    ("top-k", "off by one: k + 1", """
def top_k_filter(probs, k):
    idx = np.argsort(-probs, kind="stable")[: k + 1]
    p = np.zeros_like(probs)
    p[idx] = probs[idx]
    return p / p.sum()
""", "wrong_value", "k-plus-one"),
    ("top-k", "reversed ascending sort", """
def top_k_filter(probs, k):
    idx = np.argsort(probs)[::-1][:k]
    p = np.zeros_like(probs)
    p[idx] = probs[idx]
    return p / p.sum()
""", "wrong_value", "ties-reversed"),
    ("top-k", "no renormalisation", """
def top_k_filter(probs, k):
    idx = np.argsort(-probs, kind="stable")[:k]
    p = np.zeros_like(probs)
    p[idx] = probs[idx]
    return p
""", "wrong_value", "no-renormalise"),
    # --- top-p ---
    ("top-p", "keeps one token too few", """
def top_p_filter(probs, top_p):
    order = np.argsort(-probs, kind="stable")
    c = np.cumsum(probs[order])
    keep = order[c < top_p]
    p = np.zeros_like(probs)
    p[keep] = probs[keep]
    return p / p.sum()
""", "wrong_value", "one-too-few"),
    ("top-p", "'exceeds' instead of 'reaches'", """
def top_p_filter(probs, top_p):
    order = np.argsort(-probs, kind="stable")
    c = np.cumsum(probs[order])
    n = min(int(np.sum(c <= top_p)) + 1, len(probs))
    p = np.zeros_like(probs)
    p[order[:n]] = probs[order[:n]]
    return p / p.sum()
""", "wrong_value", "strict-greater"),
    ("top-p", "cumulative sum in vocabulary order", """
def top_p_filter(probs, top_p):
    c = np.cumsum(probs)
    n = int(np.argmax(c >= top_p)) + 1
    p = np.zeros_like(probs)
    p[:n] = probs[:n]
    return p / p.sum()
""", "wrong_value", "unsorted"),
    # --- kv-cache-step ---
    ("kv-cache-step", "attends before appending", """
def decode_step(x, w_q, w_k, w_v, k_cache, v_cache):
    q = x @ w_q
    s = k_cache @ q / np.sqrt(len(q))
    w = np.exp(s - s.max())
    out = (w / w.sum()) @ v_cache
    return out, np.vstack([k_cache, x @ w_k]), np.vstack([v_cache, x @ w_v])
""", "error", None),
    ("kv-cache-step", "new row put first", """
def decode_step(x, w_q, w_k, w_v, k_cache, v_cache):
    q = x @ w_q
    K = np.vstack([x @ w_k, k_cache])
    V = np.vstack([x @ w_v, v_cache])
    s = K @ q / np.sqrt(len(q))
    w = np.exp(s - s.max())
    return (w / w.sum()) @ V, K, V
""", "wrong_value", "prepended"),
    ("kv-cache-step", "returns the old cache", """
def decode_step(x, w_q, w_k, w_v, k_cache, v_cache):
    q = x @ w_q
    K = np.vstack([k_cache, x @ w_k])
    V = np.vstack([v_cache, x @ w_v])
    s = K @ q / np.sqrt(len(q))
    w = np.exp(s - s.max())
    return (w / w.sum()) @ V, k_cache, v_cache
""", "wrong_shape", "old-cache-returned"),
    # --- param-count ---
    ("param-count", "the 12 L d^2 estimate", """
def param_count(d_model, n_layers, vocab, n_positions, d_ff=None):
    return 12 * n_layers * d_model ** 2 + vocab * d_model
""", "wrong_value", "estimate-12Ld2"),
    ("param-count", "forgot the biases", """
def param_count(d_model, n_layers, vocab, n_positions, d_ff=None):
    d, f = d_model, d_ff or 4 * d_model
    layer = 4 * d * d + 2 * d * f + 4 * d
    return vocab * d + n_positions * d + n_layers * layer + 2 * d
""", "wrong_value", "no-biases"),
    ("param-count", "counted an output matrix", """
def param_count(d_model, n_layers, vocab, n_positions, d_ff=None):
    d, f = d_model, d_ff or 4 * d_model
    layer = 4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d
    return 2 * vocab * d + n_positions * d + n_layers * layer + 2 * d
""", "wrong_value", "untied-output"),
    ("param-count", "LayerNorm without beta", """
def param_count(d_model, n_layers, vocab, n_positions, d_ff=None):
    d, f = d_model, d_ff or 4 * d_model
    layer = 4 * d * d + 4 * d + 2 * d * f + f + d + 2 * d
    return vocab * d + n_positions * d + n_layers * layer + d
""", "wrong_value", "layer-norm-gamma-only"),
    # --- patchify ---
    ("patchify", "plain reshape", """
def patchify(img, P):
    H, W, C = img.shape
    if H % P or W % P:
        raise ValueError("does not tile")
    return img.reshape(-1, P * P * C)
""", "wrong_value", "direct-reshape"),
    ("patchify", "grid walked column by column", """
def patchify(img, P):
    H, W, C = img.shape
    if H % P or W % P:
        raise ValueError("does not tile")
    patches = []
    for j in range(W // P):
        for i in range(H // P):
            patches.append(img[i * P:(i + 1) * P, j * P:(j + 1) * P].reshape(-1))
    return np.array(patches)
""", "wrong_value", "column-major-grid"),
    ("patchify", "channels first inside a patch", """
def patchify(img, P):
    H, W, C = img.shape
    if H % P or W % P:
        raise ValueError("does not tile")
    patches = []
    for i in range(H // P):
        for j in range(W // P):
            patch = img[i * P:(i + 1) * P, j * P:(j + 1) * P]
            patches.append(patch.transpose(2, 0, 1).reshape(-1))
    return np.array(patches)
""", "wrong_value", "channels-first"),
]

BLOCK_PARTS = """
def ln(x, g, b):
    m = x.mean(-1, keepdims=True)
    return g * (x - m) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) + b

def mha(h, w, H, causal):
    B, T, D = h.shape
    sp = lambda a: a.reshape(B, T, H, D // H).transpose(0, 2, 1, 3)
    q, k, v = sp(h @ w["W_Q"]), sp(h @ w["W_K"]), sp(h @ w["W_V"])
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D // H)
    if causal:
        s = np.where(np.tril(np.ones((T, T))) == 1, s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    o = (e / e.sum(-1, keepdims=True)) @ v
    return o.transpose(0, 2, 1, 3).reshape(B, T, D) @ w["W_O"]

def ffn(h, w):
    return np.maximum(h @ w["W_1"] + w["b_1"], 0) @ w["W_2"] + w["b_2"]
"""

ANSWERS += [
    ("transformer-block", "forgot the residuals", BLOCK_PARTS + """
def block_forward(x, w, n_heads, causal=False):
    x = mha(ln(x, w["ln1_gamma"], w["ln1_beta"]), w, n_heads, causal)
    return ffn(ln(x, w["ln2_gamma"], w["ln2_beta"]), w)
""", "wrong_value", "no-residual"),
    ("transformer-block", "Post-LN", BLOCK_PARTS + """
def block_forward(x, w, n_heads, causal=False):
    x = ln(x + mha(x, w, n_heads, causal), w["ln1_gamma"], w["ln1_beta"])
    return ln(x + ffn(x, w), w["ln2_gamma"], w["ln2_beta"])
""", "wrong_value", "post-ln"),
    ("transformer-block", "residual added to the normalised x", BLOCK_PARTS + """
def block_forward(x, w, n_heads, causal=False):
    h = ln(x, w["ln1_gamma"], w["ln1_beta"])
    x = h + mha(h, w, n_heads, causal)
    h = ln(x, w["ln2_gamma"], w["ln2_beta"])
    return h + ffn(h, w)
""", "wrong_value", "residual-from-normed"),
    ("transformer-block", "causal flag ignored", BLOCK_PARTS + """
def block_forward(x, w, n_heads, causal=False):
    x = x + mha(ln(x, w["ln1_gamma"], w["ln1_beta"]), w, n_heads, False)
    return x + ffn(ln(x, w["ln2_gamma"], w["ln2_beta"]), w)
""", "wrong_value", "ignores-causal"),
    ("transformer-block", "one big head", BLOCK_PARTS + """
def block_forward(x, w, n_heads, causal=False):
    if x.shape[-1] % n_heads:
        raise ValueError("heads")
    x = x + mha(ln(x, w["ln1_gamma"], w["ln1_beta"]), w, 1, causal)
    return x + ffn(ln(x, w["ln2_gamma"], w["ln2_beta"]), w)
""", "wrong_value", "one-head"),
]


# --- chapter 13: backward passes and a training loop, as a learner writes them ---
ANSWERS += [
    ("cross-entropy-grad", "one-hot minus softmax", """
def cross_entropy_grad(logits, targets):
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    y = np.eye(logits.shape[1])[targets]
    return (y - p) / len(targets)
""", "wrong_value", "wrong-sign"),
    ("cross-entropy-grad", "forgot 1/N", """
def cross_entropy_grad(logits, targets):
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    p[np.arange(len(targets)), targets] -= 1
    return p
""", "wrong_value", "no-mean"),
    ("cross-entropy-grad", "softmax down the columns", """
def cross_entropy_grad(logits, targets):
    z = logits - logits.max(axis=0, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=0, keepdims=True)
    p[np.arange(len(targets)), targets] -= 1
    return p / len(targets)
""", "wrong_value", "softmax-axis-0"),
    ("cross-entropy-grad", "no max shift", """
def cross_entropy_grad(logits, targets):
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    p[np.arange(len(targets)), targets] -= 1
    return p / len(targets)
""", "not_finite", None),
    ("cross-entropy-grad", "returns one row per class", """
def cross_entropy_grad(logits, targets):
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    p[np.arange(len(targets)), targets] -= 1
    return (p / len(targets)).T
""", "wrong_shape", None),
    ("attention-backward", "no causal mask", """
def attention_backward(q, k, v, d_out):
    s = q @ k.T / np.sqrt(q.shape[1])
    w = np.exp(s - s.max(1, keepdims=True))
    w /= w.sum(1, keepdims=True)
    dw = d_out @ v.T
    ds = w * (dw - (dw * w).sum(1, keepdims=True)) / np.sqrt(q.shape[1])
    return ds @ k, ds.T @ q, w.T @ d_out
""", "wrong_value", "no-mask"),
    ("attention-backward", "softmax backward is only w * dw", """
def attention_backward(q, k, v, d_out):
    n = len(q)
    s = np.where(np.tri(n, dtype=bool), q @ k.T / np.sqrt(q.shape[1]), -np.inf)
    w = np.exp(s - s.max(1, keepdims=True))
    w /= w.sum(1, keepdims=True)
    ds = w * (d_out @ v.T) / np.sqrt(q.shape[1])
    return ds @ k, ds.T @ q, w.T @ d_out
""", "wrong_value", "softmax-diagonal-only"),
    ("attention-backward", "dS not scaled", """
def attention_backward(q, k, v, d_out):
    n = len(q)
    s = np.where(np.tri(n, dtype=bool), q @ k.T / np.sqrt(q.shape[1]), -np.inf)
    w = np.exp(s - s.max(1, keepdims=True))
    w /= w.sum(1, keepdims=True)
    dw = d_out @ v.T
    ds = w * (dw - (dw * w).sum(1, keepdims=True))
    return ds @ k, ds.T @ q, w.T @ d_out
""", "wrong_value", "backward-no-scale"),
    ("attention-backward", "dv = w @ d_out", """
def attention_backward(q, k, v, d_out):
    n = len(q)
    s = np.where(np.tri(n, dtype=bool), q @ k.T / np.sqrt(q.shape[1]), -np.inf)
    w = np.exp(s - s.max(1, keepdims=True))
    w /= w.sum(1, keepdims=True)
    dw = d_out @ v.T
    ds = w * (dw - (dw * w).sum(1, keepdims=True)) / np.sqrt(q.shape[1])
    return ds @ k, ds.T @ q, w @ d_out
""", "wrong_value", "dv-not-transposed"),
    ("attention-backward", "returns two of three", """
def attention_backward(q, k, v, d_out):
    return q * 0, k * 0
""", "wrong_type", None),
    ("bigram-training", "gradient ascent", """
def train_bigram(ids, vocab_size, steps, lr):
    W = np.zeros((vocab_size, vocab_size))
    X = np.eye(vocab_size)[ids[:-1]]
    Y = np.eye(vocab_size)[ids[1:]]
    for _ in range(steps):
        z = X @ W
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        W += lr * X.T @ (p - Y) / len(X)
    return W
""", "wrong_value", "wrong-sign"),
    ("bigram-training", "sum instead of mean", """
def train_bigram(ids, vocab_size, steps, lr):
    W = np.zeros((vocab_size, vocab_size))
    X = np.eye(vocab_size)[ids[:-1]]
    Y = np.eye(vocab_size)[ids[1:]]
    for _ in range(steps):
        z = X @ W
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        W -= lr * X.T @ (p - Y)
    return W
""", "wrong_value", "no-mean"),
    ("bigram-training", "softmax across positions", """
def train_bigram(ids, vocab_size, steps, lr):
    W = np.zeros((vocab_size, vocab_size))
    X = np.eye(vocab_size)[ids[:-1]]
    Y = np.eye(vocab_size)[ids[1:]]
    for _ in range(steps):
        z = X @ W
        p = np.exp(z - z.max(0, keepdims=True))
        p /= p.sum(0, keepdims=True)
        W -= lr * X.T @ (p - Y) / len(X)
    return W
""", "wrong_value", "softmax-axis-0"),
    ("bigram-training", "fancy index does not accumulate", """
def train_bigram(ids, vocab_size, steps, lr):
    x, y = ids[:-1], ids[1:]
    W = np.zeros((vocab_size, vocab_size))
    for _ in range(steps):
        z = W[x]
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        p[np.arange(len(x)), y] -= 1
        dW = np.zeros_like(W)
        dW[x] += p / len(x)
        W -= lr * dW
    return W
""", "wrong_value", "fancy-index-add"),
    ("bigram-training", "returns the loss, not the table", """
def train_bigram(ids, vocab_size, steps, lr):
    return 0.631
""", "wrong_shape", None),
]


def first_wrong_answer(exercise_id):
    """(label, source, status) of the exercise's first typical wrong answer in ANSWERS, the
    source with HEADER as a reader's answer begins (the browser and Pyodide tests check it)."""
    _, label, source, status, _ = next(a for a in ANSWERS if a[0] == exercise_id
                                       and a[3] not in ("passed", "slow"))
    return label, HEADER + source.lstrip("\n"), status


def digits_rounded(text):
    """A checker's message with its numbers to 6 significant figures: Pyodide's NumPy (no BLAS)
    may round the 16th digit of a wrong number differently from CPython's."""
    return re.sub(r"-?\d+\.\d+(?:e[+-]?\d+)?|\d{7,}", lambda m: f"{float(m.group(0)):.6g}", text)


@pytest.mark.parametrize("exercise, label, source, status, mistake", ANSWERS,
                         ids=[f"{a[0]}: {a[1]}" for a in ANSWERS])
def test_typical_wrong_answer_gets_its_feedback(exercise, label, source, status, mistake):
    result = check(exercise, HEADER + source.lstrip("\n"))
    assert (result["status"], result["mistake"]) == (status, mistake), result["message"]
    assert not result["passed"]
    if mistake:
        assert result["advice"] and result["advice"][0]  # the mistake's explanation comes first


def test_every_exercise_has_three_typical_wrong_answers_here():
    counts = {i: sum(1 for a in ANSWERS if a[0] == i) for i in ids()}
    assert min(counts.values()) >= 3, counts


# (exercise, label, source): correct, but not the model solution
ALTERNATIVES = [
    ("dot-product", "a Python loop", """
def dot(a, b):
    if len(a) != len(b):
        raise ValueError("lengths differ")
    total = 0.0
    for x, y in zip(a, b):
        total += x * y
    return total
"""),
    ("cosine-similarity", "np.linalg.norm", """
def cosine(a, b):
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    if na == 0 or nb == 0:
        return 0.0
    return (a / na) @ (b / nb)
"""),
    ("softmax", "shift first, then divide by T", """
def softmax(z, temperature=1.0):
    z = np.asarray(z, dtype=float)
    e = np.exp((z - z.max(axis=-1, keepdims=True)) / temperature)
    return e / e.sum(axis=-1, keepdims=True)
"""),
    ("attention", "queries scaled first, einsum", """
def attention(q, k, v, causal=False):
    s = np.einsum("id,jd->ij", q / np.sqrt(q.shape[-1]), k)
    if causal:
        s[np.triu_indices(len(s), 1)] = -1e30
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return w @ v, w
"""),
    ("split-heads", "a list of slices", """
def split_heads(x, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("D % H != 0")
    dh = D // n_heads
    return np.stack([x[:, :, h * dh:(h + 1) * dh] for h in range(n_heads)], axis=1)
"""),
    ("merge-heads", "concatenate the heads", """
def merge_heads(x):
    return np.concatenate([x[:, h] for h in range(x.shape[1])], axis=-1)
"""),
    ("sinusoidal-encoding", "loops with math", """
import math
def sinusoidal(n_pos, d_model):
    if d_model < 1 or d_model % 2:
        raise ValueError("d_model must be even")
    pe = np.zeros((n_pos, d_model))
    for p in range(n_pos):
        for i in range(d_model // 2):
            angle = p / 10000 ** (2 * i / d_model)
            pe[p, 2 * i] = math.sin(angle)
            pe[p, 2 * i + 1] = math.cos(angle)
    return pe
"""),
    ("rope", "2x2 rotation matrices", """
def rope(x, positions):
    n, d = x.shape
    out = np.zeros((n, d))
    for t in range(n):
        for i in range(d // 2):
            th = positions[t] * 10000.0 ** (-2 * i / d)
            r = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
            out[t, 2 * i:2 * i + 2] = r @ x[t, 2 * i:2 * i + 2]
    return out
"""),
    ("layer-norm", "E[x^2] - E[x]^2", """
def layer_norm(x, gamma, beta, eps=1e-5):
    m = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - m * m
    return (x - m) / np.sqrt(var + eps) * gamma + beta
"""),
    ("top-k", "argpartition-free sort of pairs", """
def top_k_filter(probs, k):
    ranked = sorted(range(len(probs)), key=lambda i: (-probs[i], i))[:k]
    out = np.zeros(len(probs))
    out[ranked] = probs[ranked]
    return out / out.sum()
"""),
    ("top-p", "searchsorted", """
def top_p_filter(probs, top_p):
    order = np.argsort(-probs, kind="stable")
    n = int(np.searchsorted(np.cumsum(probs[order]), top_p)) + 1
    out = np.zeros_like(probs)
    out[order[:n]] = probs[order[:n]]
    return out / out.sum()
"""),
    ("kv-cache-step", "concatenate and a row-vector softmax", """
def decode_step(x, w_q, w_k, w_v, k_cache, v_cache):
    K = np.concatenate([k_cache, (x @ w_k)[None]], axis=0)
    V = np.concatenate([v_cache, (x @ w_v)[None]], axis=0)
    s = (x @ w_q)[None] @ K.T / np.sqrt(K.shape[1])
    p = np.exp(s - s.max())
    return ((p / p.sum()) @ V)[0], K, V
"""),
    ("param-count", "part by part", """
def param_count(d_model, n_layers, vocab, n_positions, d_ff=None):
    f = 4 * d_model if d_ff is None else d_ff
    attn = 4 * (d_model * d_model + d_model)
    mlp = (d_model * f + f) + (f * d_model + d_model)
    ln = 2 * d_model
    return vocab * d_model + n_positions * d_model + n_layers * (attn + mlp + 2 * ln) + ln
"""),
    ("patchify", "loops over the grid", """
def patchify(img, P):
    H, W, C = img.shape
    if H % P or W % P:
        raise ValueError("does not tile")
    rows = []
    for i in range(0, H, P):
        for j in range(0, W, P):
            rows.append(img[i:i + P, j:j + P, :].reshape(-1))
    return np.array(rows)
"""),
    ("transformer-block", "einsum heads, E[x^2] LayerNorm", """
def ln(x, g, b):
    m = x.mean(-1, keepdims=True)
    var = (x ** 2).mean(-1, keepdims=True) - m ** 2
    return (x - m) / np.sqrt(var + 1e-5) * g + b

def block_forward(x, w, n_heads, causal=False):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("heads")
    dh = D // n_heads
    h = ln(x, w["ln1_gamma"], w["ln1_beta"])
    q, k, v = (np.reshape(h @ w[n], (B, T, n_heads, dh)) for n in ("W_Q", "W_K", "W_V"))
    s = np.einsum("bihd,bjhd->bhij", q, k) / np.sqrt(dh)
    if causal:
        s = s + np.triu(np.full((T, T), -np.inf), 1)
    a = np.exp(s - s.max(-1, keepdims=True))
    a = a / a.sum(-1, keepdims=True)
    o = np.einsum("bhij,bjhd->bihd", a, v).reshape(B, T, D)
    x = x + o @ w["W_O"]
    h = ln(x, w["ln2_gamma"], w["ln2_beta"])
    return x + np.maximum(0, h @ w["W_1"] + w["b_1"]) @ w["W_2"] + w["b_2"]
"""),
]


ALTERNATIVES += [
    ("cross-entropy-grad", "log-sum-exp and a one-hot matrix", """
def cross_entropy_grad(logits, targets):
    m = logits.max(axis=-1, keepdims=True)
    log_p = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return (np.exp(log_p) - np.eye(logits.shape[1])[targets]) / logits.shape[0]
"""),
    ("attention-backward", "loops over the rows", """
def attention_backward(q, k, v, d_out):
    n, d = q.shape
    dq, dk, dv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    for i in range(n):
        s = k[:i + 1] @ q[i] / np.sqrt(d)
        w = np.exp(s - s.max())
        w /= w.sum()
        dv[:i + 1] += np.outer(w, d_out[i])
        dw = v[:i + 1] @ d_out[i]
        ds = w * (dw - w @ dw) / np.sqrt(d)
        dq[i] = ds @ k[:i + 1]
        dk[:i + 1] += np.outer(ds, q[i])
    return dq, dk, dv
"""),
    ("bigram-training", "one-hot matrices, as in makemore", """
def train_bigram(ids, vocab_size, steps, lr):
    W = np.zeros((vocab_size, vocab_size))
    X = np.eye(vocab_size)[ids[:-1]]
    Y = np.eye(vocab_size)[ids[1:]]
    for _ in range(steps):
        z = X @ W
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        W = W - lr * X.T @ (p - Y) / len(X)
    return W
"""),
]


@pytest.mark.parametrize("exercise, label, source", ALTERNATIVES,
                         ids=[f"{a[0]}: {a[1]}" for a in ALTERNATIVES])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_correct_answer_written_differently_passes(exercise, label, source, seed,
                                                      monkeypatch):
    monkeypatch.setattr(get(exercise), "timing", None)  # loops are allowed to be slow here
    result = check(exercise, HEADER + source.lstrip("\n"), seed=seed)
    assert result["status"] == "passed", (result["message"], result["advice"])


def test_every_exercise_has_a_correct_alternative_here():
    assert {a[0] for a in ALTERNATIVES} == set(ids())
