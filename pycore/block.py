"""Code lab: one Transformer block in plain NumPy.

Pre-LN layout (as in GPT-2 and most models trained today):

    x = x + MultiHeadAttention(LayerNorm(x))
    x = x + FeedForward(LayerNorm(x))

Shapes: B = batch, T = sequence length, D = d_model, H = heads, Dh = D // H, F = d_ff.
Row-vector convention: Q = X @ W_Q. The file only needs NumPy; change anything and run it
again -- the last lines print the shape of every intermediate tensor.
"""
import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    """Normalise each token vector (last axis) to mean 0, variance 1, then scale and shift."""
    mean = x.mean(axis=-1, keepdims=True)  # (B, T, 1)
    var = x.var(axis=-1, keepdims=True)  # (B, T, 1)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def softmax(z):
    """Softmax over the last axis; -inf entries (masked) get weight 0."""
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def relu(x):
    """The paper's FFN activation; GPT models use GELU instead -- try swapping it in."""
    return np.maximum(x, 0.0)


def init_block(d_model, n_heads, d_ff, seed=0):
    """Random weights of one block, in a dict. Matrices are scaled by 1/sqrt(fan-in)."""
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    rng = np.random.default_rng(seed)

    def dense(n_in, n_out):
        # Kept column by column in memory (Fortran order): x @ W then reads each column of W
        # as one contiguous run. The numbers are the same; NumPy without BLAS (as in the
        # browser) multiplies this way about 3x faster. Try np.ascontiguousarray(...) instead.
        return np.asfortranarray(rng.normal(0.0, 1.0 / np.sqrt(n_in), size=(n_in, n_out)))

    return {
        "W_Q": dense(d_model, d_model),  # (D, D): all heads side by side
        "W_K": dense(d_model, d_model),
        "W_V": dense(d_model, d_model),
        "W_O": dense(d_model, d_model),
        "W_1": dense(d_model, d_ff),  # (D, F)
        "b_1": np.zeros(d_ff),
        "W_2": dense(d_ff, d_model),  # (F, D)
        "b_2": np.zeros(d_model),
        "ln1_gamma": np.ones(d_model),
        "ln1_beta": np.zeros(d_model),
        "ln2_gamma": np.ones(d_model),
        "ln2_beta": np.zeros(d_model),
    }


def note(trace, name, a):
    """Record (name, shape) in `trace` when a list was passed; return `a` unchanged."""
    if trace is not None:
        trace.append((name, tuple(a.shape)))
    return a


def split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, Dh): each head gets its own slice of D columns."""
    B, T, D = x.shape
    x = x.reshape(B, T, n_heads, D // n_heads)  # (B, T, H, Dh)
    return x.transpose(0, 2, 1, 3)  # (B, H, T, Dh)


def merge_heads(x):
    """(B, H, T, Dh) -> (B, T, D): the heads' outputs concatenated again."""
    B, H, T, Dh = x.shape
    x = x.transpose(0, 2, 1, 3)  # (B, T, H, Dh)
    return x.reshape(B, T, H * Dh)  # (B, T, D)


def multi_head_attention(x, w, n_heads, causal=False, trace=None):
    """x (B, T, D) -> (output (B, T, D), attention weights (B, H, T, T))."""
    T = x.shape[1]
    q = note(trace, "Q (queries)", x @ w["W_Q"])  # (B, T, D)
    k = note(trace, "K (keys)", x @ w["W_K"])  # (B, T, D)
    v = note(trace, "V (values)", x @ w["W_V"])  # (B, T, D)
    q = note(trace, "Q split into heads", split_heads(q, n_heads))  # (B, H, T, Dh)
    k, v = split_heads(k, n_heads), split_heads(v, n_heads)  # (B, H, T, Dh) each
    d_head = q.shape[-1]
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_head)  # (B, H, T, Dh) @ (B, H, Dh, T)
    note(trace, "scores Q K^T / sqrt(Dh)", scores)  # (B, H, T, T)
    if causal:
        allowed = np.tril(np.ones((T, T), dtype=bool))  # (T, T): key j <= query i
        scores = np.where(allowed, scores, -np.inf)
    weights = note(trace, "attention weights", softmax(scores))  # (B, H, T, T)
    heads = note(trace, "weights @ V", weights @ v)  # (B, H, T, Dh)
    merged = note(trace, "heads concatenated", merge_heads(heads))  # (B, T, D)
    out = note(trace, "attention output @ W_O", merged @ w["W_O"])  # (B, T, D)
    return out, weights


def feed_forward(x, w, trace=None):
    """Position-wise FFN: relu(x W_1 + b_1) W_2 + b_2, the same for every token."""
    hidden = note(trace, "FFN hidden relu(x @ W_1 + b_1)", relu(x @ w["W_1"] + w["b_1"]))
    return note(trace, "FFN output @ W_2 + b_2", hidden @ w["W_2"] + w["b_2"])  # (B, T, D)


def block_forward(x, w, n_heads, causal=False, trace=None):
    """One Pre-LN block: (B, T, D) -> (B, T, D)."""
    note(trace, "x (input)", x)
    h = note(trace, "LN1(x)", layer_norm(x, w["ln1_gamma"], w["ln1_beta"]))
    attn, _ = multi_head_attention(h, w, n_heads, causal, trace)
    x = note(trace, "x + attention", x + attn)  # residual connection
    h = note(trace, "LN2(x)", layer_norm(x, w["ln2_gamma"], w["ln2_beta"]))
    x = note(trace, "x + FFN (block output)", x + feed_forward(h, w, trace))
    return x


def lab_report(seed=0, batch=2, length=32, d_model=128, n_heads=8, d_ff=512,
               causal=True, prefix=6):
    """What the lab prints: [(name, shape), ...] and head 0's weights for the first tokens.

    The weights are those of the first sequence in the batch, head 0, as a
    (prefix, prefix) array (queries down, keys across).
    """
    w = init_block(d_model, n_heads, d_ff, seed)
    x = np.random.default_rng([seed, 1]).normal(size=(batch, length, d_model))  # (B, T, D)
    trace = []
    block_forward(x, w, n_heads, causal, trace)
    h = layer_norm(x, w["ln1_gamma"], w["ln1_beta"])
    _, weights = multi_head_attention(h, w, n_heads, causal)  # (B, H, T, T)
    return trace, weights[0, 0, :prefix, :prefix]


def print_report(seed=0):
    trace, head0 = lab_report(seed)
    for name, shape in trace:
        print(f"{name:<34} {shape}")
    print(f"head 0, first {len(head0)} tokens (rows: queries, columns: keys):")
    print(np.array2string(head0, precision=3, suppress_small=True))


if __name__ == "__main__":
    print_report()
