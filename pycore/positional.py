"""Position information: sinusoidal encodings, their rotation property, RoPE, ALiBi, and the
permutation experiment (attention without positions ignores word order).

Sinusoidal encoding (d_model even): pair i of dimensions (2i, 2i+1) turns at the angular
frequency w_i = 1 / base**(2i / d_model), base = 10000:

    PE[p, 2i] = sin(w_i p),    PE[p, 2i+1] = cos(w_i p)

Row-vector convention: PE(p + k) = PE(p) @ R(k), where R(k) is block-diagonal with the 2x2
block [[cos w_i k, -sin w_i k], [sin w_i k, cos w_i k]] for pair i. (The same map written for
column vectors, PE(p + k) = R(k).T @ PE(p), uses the transposed blocks.)
"""
import numpy as np

from . import example
from .attention import attention

BASE = 10000.0


def _check_even(d_model):
    if d_model <= 0 or d_model % 2:
        raise ValueError(f"d_model must be a positive even number, not {d_model}")


def frequencies(d_model, base=BASE):
    """(d_model/2,) angular frequencies w_i = base**(-2i/d_model), fastest first."""
    _check_even(d_model)
    return base ** (-np.arange(0, d_model, 2) / d_model)


def wavelengths(d_model, base=BASE):
    """(d_model/2,) period in positions of each pair: 2 pi / w_i (2 pi for pair 0)."""
    return 2 * np.pi / frequencies(d_model, base)


def encode(positions, d_model, base=BASE):
    """Sinusoidal encodings of arbitrary (even negative or fractional) positions: (n, d_model)."""
    p = np.asarray(positions, dtype=float).reshape(-1, 1)  # (n, 1)
    angles = p * frequencies(d_model, base)  # (n, d_model/2)
    pe = np.empty((len(p), d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def sinusoidal(n_pos, d_model, base=BASE):
    """(n_pos, d_model) table for positions 0 .. n_pos-1."""
    return encode(np.arange(n_pos), d_model, base)


def offset_dots(d_model, ks, p=0, base=BASE):
    """PE(p) . PE(p + k) for each k in ks, computed from the encodings themselves.

    The value depends on k only (it equals sum_i cos(w_i k)); the widget varies p to show it.
    """
    ks = np.asarray(ks, dtype=float)
    a = encode(np.full(ks.shape, p), d_model, base)  # (len(ks), d_model)
    b = encode(p + ks, d_model, base)  # (len(ks), d_model)
    return np.sum(a * b, axis=1)


def rotation(k, d_model, base=BASE):
    """(d_model, d_model) block-diagonal R(k) with PE(p + k) = PE(p) @ R(k) for every p."""
    angles = frequencies(d_model, base) * k  # (d_model/2,)
    c, s = np.cos(angles), np.sin(angles)
    r = np.zeros((d_model, d_model))
    idx = np.arange(0, d_model, 2)
    r[idx, idx], r[idx, idx + 1] = c, -s
    r[idx + 1, idx], r[idx + 1, idx + 1] = s, c
    return r


def rotation_error(k, d_model, n_pos=64, base=BASE):
    """max over p in 0 .. n_pos-1 and all dims of |PE(p) @ R(k) - PE(p + k)| (~1e-15)."""
    p = np.arange(n_pos)
    moved = encode(p, d_model, base) @ rotation(k, d_model, base)  # (n_pos, d_model)
    return float(np.max(np.abs(moved - encode(p + k, d_model, base))))


# --- RoPE ------------------------------------------------------------------------------

def rope(x, position, theta=None, base=BASE):
    """Rotate every pair (x[2i], x[2i+1]) by the angle position * theta_i.

    x: (d,) or (n, d) with d even; position: a number, or (n,) for the n rows of x.
    theta: None -> the sinusoidal frequencies base**(-2i/d); a number -> the same frequency
    for every pair (the 2-D widget); or an array of d/2 frequencies.
    (a, b) -> (a cos - b sin, a sin + b cos): counter-clockwise in the (a, b) plane.
    """
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    theta = frequencies(d, base) if theta is None else np.broadcast_to(theta, (d // 2,))
    pos = np.asarray(position, dtype=float)
    angles = pos[..., None] * theta if pos.ndim else pos * theta  # (n, d/2) or (d/2,)
    c, s = np.cos(angles), np.sin(angles)
    a, b = x[..., 0::2], x[..., 1::2]  # (..., d/2) each
    out = np.empty_like(x)
    out[..., 0::2] = a * c - b * s
    out[..., 1::2] = a * s + b * c
    return out


def rope_score(q, k, m, n, theta=None, base=BASE):
    """rope(q, m) . rope(k, n): depends on q, k and m - n only."""
    return float(np.dot(rope(q, m, theta, base), rope(k, n, theta, base)))


def rope_demo(q, k, m, n, theta):
    """What the rope widget draws for a 2-D q at position m and k at position n."""
    q_rot, k_rot = rope(q, m, theta), rope(k, n, theta)
    angle = lambda v: float(np.degrees(np.arctan2(v[1], v[0])))
    return {
        "q_rot": q_rot, "k_rot": k_rot,
        "angle_q": angle(q_rot), "angle_k": angle(k_rot),
        "offset": m - n,
        "score": float(q_rot @ k_rot),
        "score_unrotated": float(np.dot(q, k)),
    }


# --- ALiBi -----------------------------------------------------------------------------

def alibi_slopes(n_heads):
    """The fixed per-head slopes of ALiBi: 2**(-8 h / n_heads) for h = 1 .. n_heads.

    For n_heads not a power of two: the slopes of the nearest lower power of two p, then
    every other slope of the 2p-head sequence (2**(-4(2j+1)/p), j = 0, 1, ...).
    """
    p = 2 ** int(np.floor(np.log2(n_heads)))
    slopes = [2.0 ** (-8.0 * (h + 1) / p) for h in range(p)]
    slopes += [2.0 ** (-4.0 * (2 * j + 1) / p) for j in range(n_heads - p)]
    return np.array(slopes)


def alibi_bias(n, slope, causal=True):
    """(n, n) bias added to the scores: -slope * (i - j) for keys j <= i.

    causal=True puts -inf above the diagonal (the decoder setting ALiBi was made for);
    causal=False uses -slope * |i - j| on both sides.
    """
    i = np.arange(n).reshape(-1, 1)  # (n, 1)
    j = np.arange(n).reshape(1, -1)  # (1, n)
    bias = 0.0 - slope * np.abs(i - j)  # (n, n); 0.0 - avoids printing -0.
    return np.where(j > i, -np.inf, bias) if causal else bias


# --- permutation ---------------------------------------------------------------------

def _semantic_attention(x, w_q=None):
    w_book, w_k, w_v = example.semantic_head()
    w_q = w_book if w_q is None else w_q
    return attention(x @ w_q, x @ w_k, x @ w_v)[1]  # (n, d)


def permutation_outputs(perm, positions=False, x=None, w_q=None, tokens=None):
    """The running example shuffled by `perm` (new slot s holds old token perm[s]).

    Attention is the semantic head. Without positions, the shuffled sentence's outputs are
    the original outputs moved along (difference ~1e-16). With positions, the sinusoidal
    PE (d_model = 6) of each slot is added to the embeddings first, so moving a token
    changes its input and its output. x, w_q, tokens: another sentence's (n, 6) embeddings,
    W_Q and tokens (default: the book's nine).
    """
    perm = np.asarray(perm)
    x = example.EMBEDDINGS if x is None else np.asarray(x, dtype=float)  # (n, 6)
    tokens = example.TOKENS if tokens is None else list(tokens)
    n = len(x)
    if len(tokens) != n:
        raise ValueError(f"{len(tokens)} tokens for {n} rows of embeddings")
    if sorted(perm.tolist()) != list(range(n)):
        raise ValueError(f"perm must be a permutation of 0..{n - 1}")
    pe = sinusoidal(n, x.shape[1]) if positions else np.zeros_like(x)  # (n, 6)
    original = _semantic_attention(x + pe, w_q)  # (n, 6)
    shuffled = _semantic_attention(x[perm] + pe, w_q)  # (n, 6): the slots keep their PE
    moved = original[perm]  # what pure re-seating would give
    diff = np.abs(shuffled - moved).max(axis=1)  # (n,)
    return {
        "tokens": [tokens[i] for i in perm], "perm": perm.tolist(),
        "positions": positions,
        "original": original, "shuffled": shuffled, "original_moved": moved,
        "diff_per_slot": diff, "max_abs_diff": float(diff.max()),
    }
