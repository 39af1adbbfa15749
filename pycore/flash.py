"""Online softmax, the idea inside FlashAttention: attention one tile of keys at a time.

Ordinary attention builds the whole (n, n) score matrix, then softmaxes each row. For long
sequences that matrix is the memory problem (n = 32768 in fp16 is 2 GiB per head). The row
softmax only needs two numbers per query, its maximum and its sum of exponentials, and both
can be kept up to date while the keys arrive tile by tile. Per query row, after each tile S of
scores and the matching rows V_t of the values:

    m_new = max(m, max_j S_j)                        running maximum
    l     = l * exp(m - m_new) + sum_j exp(S_j - m_new)   running sum, rescaled to m_new
    acc   = acc * exp(m - m_new) + exp(S - m_new) @ V_t   running (unnormalised) output
    m     = m_new

starting from m = -inf, l = 0, acc = 0. After the last tile, output = acc / l, which is
exactly softmax(S) @ V: every exponential kept so far was taken relative to an older maximum,
and multiplying by exp(m_old - m_new) moves it to the new one. No exponential is ever of a
positive number, so logits of +-1000 are as safe as logits of 1. Only one tile of scores is
held at a time: memory O(tile) per query instead of O(n). (FlashAttention also cuts the
queries into blocks and keeps each block's tiles in on-chip SRAM; the arithmetic is this.)

Numbers the chapter quotes (tests/test_pycore_flash.py):
- The running example's 它 row (semantic head) in tiles of 3 keys: m = 2/sqrt 6 = 0.816 from
  the first tile on (小猫 comes first), and l = 1.884, 3.433, 4.759 after tiles 1, 2, 3:
  小猫's weight is 1 / 4.759 = 0.2101, the book's reference value. The row of 累 finds its
  maximum only in tile 3 (累 itself, 1/sqrt 6 = 0.408): l is rescaled by e^(-0.408) = 0.665.
- n = 4096, fp16: the full score matrix of one head is 4096^2 * 2 bytes = 32 MiB; one
  128 x 128 tile is 32 KiB, (4096 / 128)^2 = 1024 times less.
"""
import numpy as np

from . import example

DTYPE_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1}


def _check_tile(tile, n):
    if not isinstance(tile, (int, np.integer)) or tile < 1:
        raise ValueError(f"tile must be a whole number >= 1, not {tile!r}")
    return min(int(tile), n)


def _scores(q, k_tile, start, causal, scale, q_start=0):
    """scale * q k^T / sqrt(d) for one tile of keys; -inf where a key is in the future."""
    s = scale * (q @ k_tile.T) / np.sqrt(q.shape[-1])  # (r, c)
    if causal:
        i = np.arange(q_start, q_start + len(q))[:, None]  # (r, 1) query positions
        j = np.arange(start, start + len(k_tile))[None, :]  # (1, c) key positions
        s = np.where(j <= i, s, -np.inf)
    return s


def _update(m, l, acc, s, v_tile):
    """One online-softmax step: fold a tile of scores s (r, c) and values (c, d_v) in."""
    m_new = np.maximum(m, s.max(axis=1))  # (r,)
    shift = np.where(np.isfinite(m_new), m_new, 0.0)  # a row with nothing visible yet
    p = np.exp(s - shift[:, None])  # (r, c), every entry <= 1; masked entries give 0
    rescale = np.exp(m - shift)  # (r,), exp(-inf) = 0 for the first visible tile
    l = l * rescale + p.sum(axis=1)
    acc = acc * rescale[:, None] + p @ v_tile  # (r, d_v)
    return m_new, l, acc, rescale


def tile_steps(q, k, v, tile, causal=False, scale=1.0):
    """The state after each tile of keys, for a widget that steps through them.

    One dict per tile: tile (0-based), keys (start, stop), scores (n, c) (logits of this
    tile, -inf where masked), m, l (n,), acc (n, d_v), rescale (n,) (the factor the old l
    and acc were multiplied by), and output (n, d_v) = acc / l: attention over the keys
    seen so far.
    """
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    n_q, n_k = len(q), len(k)
    tile = _check_tile(tile, n_k)
    m, l = np.full(n_q, -np.inf), np.zeros(n_q)
    acc = np.zeros((n_q, v.shape[1]))
    steps = []
    for t, start in enumerate(range(0, n_k, tile)):
        stop = min(start + tile, n_k)
        s = _scores(q, k[start:stop], start, causal, scale)
        m, l, acc, rescale = _update(m, l, acc, s, v[start:stop])
        with np.errstate(invalid="ignore", divide="ignore"):  # rows with l = 0 so far
            out = np.where(l[:, None] > 0, acc / l[:, None], 0.0)
        steps.append({"tile": t, "keys": (start, stop), "scores": s, "m": m.copy(),
                      "l": l.copy(), "acc": acc.copy(), "rescale": rescale, "output": out})
    return steps


def online_attention(q, k, v, tile, causal=False, scale=1.0, q_tile=None):
    """softmax(scale * Q K^T / sqrt(d)) V, computed tile by tile, never holding more than
    one (q_tile, tile) block of scores. q_tile=None takes all queries in one block.

    Queries are independent of each other, so each query block runs the key loop on its own
    (the outer loop of FlashAttention-2). Returns (n, d_v).
    """
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    if k.shape[0] != v.shape[0] or q.shape[1] != k.shape[1]:
        raise ValueError(f"shapes do not fit: q {q.shape}, k {k.shape}, v {v.shape}")
    tile = _check_tile(tile, len(k))
    q_tile = len(q) if q_tile is None else _check_tile(q_tile, len(q))
    out = np.empty((len(q), v.shape[1]))
    for q0 in range(0, len(q), q_tile):
        qb = q[q0:q0 + q_tile]  # (r, d)
        m, l = np.full(len(qb), -np.inf), np.zeros(len(qb))
        acc = np.zeros((len(qb), v.shape[1]))
        for start in range(0, len(k), tile):
            s = _scores(qb, k[start:start + tile], start, causal, scale, q_start=q0)
            m, l, acc, _ = _update(m, l, acc, s, v[start:start + tile])
        out[q0:q0 + q_tile] = acc / l[:, None]
    return out


def memory(n, d=64, tile=128, dtype="fp16", q_tile=None):
    """Bytes held for one head: the full (n, n) score matrix against one tile.

    full_scores: n * n values. tile_scores: q_tile * tile values (q_tile defaults to tile).
    tile_total adds what the tiled loop keeps beside the scores: the query block, one tile
    of keys and of values (in `dtype`), and the running m, l and acc (fp32, as in
    FlashAttention).
    """
    if dtype not in DTYPE_BYTES:
        raise ValueError(f"dtype must be one of {sorted(DTYPE_BYTES)}, not {dtype!r}")
    for name, value in (("n", n), ("d", d), ("tile", tile)):
        if value < 1:
            raise ValueError(f"{name} must be >= 1, not {value}")
    b = DTYPE_BYTES[dtype]
    bc = min(tile, n)
    br = bc if q_tile is None else min(q_tile, n)
    full = n * n * b
    tile_scores = br * bc * b
    inputs = (br + 2 * bc) * d * b  # Q block, K tile, V tile
    state = (2 * br + br * d) * 4  # m, l and acc in fp32
    return {"n": n, "d": d, "tile": bc, "q_tile": br, "dtype": dtype, "bytes_per_value": b,
            "full_scores": full, "tile_scores": tile_scores, "tile_inputs": inputs,
            "tile_state": state, "tile_total": tile_scores + inputs + state,
            "ratio": full / tile_scores}


def example_steps(query="它", tile=3, causal=False):
    """tile_steps for one query row of the running example's semantic head.

    causal=True gives the row of query i only the keys 0..i. Per tile: its tokens and
    scores, m, l, the rescale factor, acc (6,), and weights_so_far: the weights of the keys
    seen so far, relative to the current m and l (they sum to 1).
    """
    if query not in example.TOKENS:
        raise ValueError(f"query must be one of {example.TOKENS}, not {query!r}")
    i = example.TOKENS.index(query)
    w_q, w_k, w_v = example.semantic_head()
    x = example.EMBEDDINGS  # (9, 6)
    seen = i + 1 if causal else len(x)
    q = (x @ w_q)[i:i + 1]  # (1, 6): this row only
    steps = tile_steps(q, (x @ w_k)[:seen], (x @ w_v)[:seen], tile)
    rows, scores = [], []
    for s in steps:
        scores.extend(s["scores"][0])
        m, l = float(s["m"][0]), float(s["l"][0])
        rows.append({"tile": s["tile"], "keys": s["keys"],
                     "tokens": example.TOKENS[s["keys"][0]:s["keys"][1]],
                     "scores": s["scores"][0], "m": m, "l": l,
                     "rescale": float(s["rescale"][0]), "acc": s["acc"][0],
                     "weights_so_far": np.exp(np.array(scores) - m) / l})
    return rows
