"""ALiBi next to RoPE: two ways of telling attention how far apart two tokens are, each seen
on the same row of weights, the semantic head's row of 它 in the running example.

ALiBi (Press et al., 2022) adds nothing to the vectors. It adds a penalty to the scores,
-m * |i - j| for query i and key j, with a fixed slope m per head: the geometric sequence
m_h = 2^(-8h/H), h = 1..H (1/2, 1/4, ..., 1/256 for H = 8; pycore.positional.alibi_slopes).
A steep head sees only its neighbours, a shallow one almost the whole sentence: every distance
costs m logits, so a key's weight halves every ln 2 / m tokens against an equal key next to
the query. The paper uses the causal form (j <= i); without a mask the penalty is |i - j|
on both sides.

RoPE rotates each pair of dimensions of q and k by position * theta_i
(pycore.positional.rope). The score then depends on the angle between them, which depends
on i - j only: positions enter by turning the vectors, not by a penalty. In the running
example the content sits in the first pair (实体, 有生命), which at d = 6 is the pair that
turns fastest (theta_0 = 1 radian per position), so RoPE changes this row a lot; a smaller
theta leaves it closer to the row without positions.

Numbers the chapter quotes (no causal mask; tests/test_pycore_alibi_rope.py). 它 is token 5;
its scores are 小猫 2/sqrt 6 = 0.816 (distance 5), 马路 1/sqrt 6 = 0.408 (distance 2), 0 for
the rest. Without positions: 小猫 0.2101, 马路 0.1397, the others 0.0929.
- ALiBi keeps 小猫 on top while 0.816 - 5m > 0.408 - 2m, i.e. m < 1 / (3 sqrt 6) = 0.136:
  for H = 8, heads 3 to 8. Head 3 (m = 1/8): 小猫 0.153, 马路 0.148. Head 1 (m = 1/2):
  它 itself 0.256, 小猫 only 0.048. Head 8 (m = 1/256): 小猫 0.208, almost the row without.
- A key's weight halves every ln 2 / m tokens: 1.4 tokens for head 1, 177 for head 8.
- RoPE (theta_i = 10000^(-2i/6)): 小猫 (offset 5) scores 2 cos 5 / sqrt 6 = 0.232, weight
  0.143; 马路 (offset 2) scores (cos 2 - sin 2) / sqrt 6 = -0.541, weight 0.066, now below
  the other words (0.113 each). With one slow theta = 0.1 for all pairs: 小猫 0.196.
"""
import numpy as np

from . import example, positional
from .softmax import softmax

N_HEADS = 8


def _row_scores(query):
    """Scores of one query row of the semantic head (before any position information)."""
    if query not in example.TOKENS:
        raise ValueError(f"query must be one of {example.TOKENS}, not {query!r}")
    i = example.TOKENS.index(query)
    w_q, w_k, _ = example.semantic_head()
    x = example.EMBEDDINGS  # (9, 6)
    q, k = x @ w_q, x @ w_k  # (9, 6) each
    return i, q, k, (q[i] @ k.T) / np.sqrt(x.shape[1])  # (9,)


def head_penalties(n_heads=N_HEADS, max_distance=8):
    """Per head: the slope, the penalty -m * d for d = 0..max_distance, the distance that
    costs one logit (1 / m) and the distance that halves a weight (ln 2 / m)."""
    if n_heads < 1:
        raise ValueError(f"n_heads must be >= 1, not {n_heads}")
    slopes = positional.alibi_slopes(n_heads)  # (H,)
    d = np.arange(max_distance + 1)  # (D,)
    return {"heads": list(range(1, n_heads + 1)), "slopes": slopes, "distances": d,
            "penalty": 0.0 - slopes[:, None] * d[None, :],  # (H, D); 0.0 - avoids -0.
            "one_logit": 1.0 / slopes, "half_weight": np.log(2.0) / slopes}


def alibi_row(query="它", head=None, slope=None, n_heads=N_HEADS, causal=False):
    """The semantic head's row of `query` with ALiBi's bias of one head.

    Give the head (1..n_heads) or the slope itself (slope=0 is no bias). Returns distances,
    scores, bias, logits (scores + bias), the weights without and with the bias, and the
    token each row puts most weight on.
    """
    if (head is None) == (slope is None):
        raise ValueError("give exactly one of head (1..n_heads) and slope")
    if head is not None:
        if not 1 <= head <= n_heads:
            raise ValueError(f"head must be between 1 and {n_heads}, not {head}")
        slope = float(positional.alibi_slopes(n_heads)[head - 1])
    i, _, _, scores = _row_scores(query)
    n = len(scores)
    bias = positional.alibi_bias(n, slope, causal=causal)[i]  # (9,), -inf after i if causal
    plain = np.where(np.arange(n) <= i, scores, -np.inf) if causal else scores
    before, after = softmax(plain), softmax(scores + bias)
    return {"query": query, "position": i, "head": head, "slope": slope, "causal": causal,
            "tokens": example.TOKENS, "distances": np.abs(np.arange(n) - i),
            "scores": scores, "bias": bias, "logits": scores + bias,
            "weights_before": before, "weights_after": after,
            "top_before": example.TOKENS[int(np.argmax(before))],
            "top_after": example.TOKENS[int(np.argmax(after))]}


def alibi_heads(query="它", n_heads=N_HEADS, causal=False):
    """alibi_row of every head at once, steepest first: the query's scores and its weights
    without a bias (shared by all heads), and per head (rows of (n_heads, 9) arrays) the bias,
    the logits and the weights with it. One pass instead of a row per head: the widget shows
    all heads together."""
    i, _, _, scores = _row_scores(query)
    n = len(scores)
    slopes = positional.alibi_slopes(n_heads)  # (H,)
    j = np.arange(n)  # (9,) the keys
    bias = 0.0 - slopes[:, None] * np.abs(i - j)[None, :]  # (H, 9); 0.0 - avoids -0.
    if causal:
        bias = np.where(j > i, -np.inf, bias)  # (H, 9): keys after the query left out
    plain = np.where(j <= i, scores, -np.inf) if causal else scores
    logits = scores + bias  # (H, 9)
    return {"query": query, "position": i, "causal": causal, "slopes": slopes,
            "scores": scores, "weights_before": softmax(plain),
            "bias": bias, "logits": logits, "weights_after": softmax(logits)}


def alibi_rows(query="它", n_heads=N_HEADS, causal=False):
    """(H, 9): the row of `query` under each head's slope, steepest first."""
    return np.array([alibi_row(query, head=h, n_heads=n_heads, causal=causal)["weights_after"]
                     for h in range(1, n_heads + 1)])


def rope_row(query="它", theta=None, base=positional.BASE, offset=0, causal=False):
    """The same row with RoPE: q and k rotated by their positions (plus `offset`, which
    moves the whole sentence and changes nothing) before the dot product.

    theta: None for RoPE's frequencies base^(-2i/d), or one frequency for all three pairs.
    Returns the scores and weights without and with the rotation, and their argmax.
    """
    i, q, k, scores = _row_scores(query)
    n = len(scores)
    pos = np.arange(n) + offset
    q_rot = positional.rope(q[i], pos[i], theta, base)  # (6,)
    k_rot = positional.rope(k, pos, theta, base)  # (9, 6): key j turned by its position
    rotated = (k_rot @ q_rot) / np.sqrt(q.shape[1])  # (9,)
    if causal:
        future = np.arange(n) > i
        scores, rotated = (np.where(future, -np.inf, s) for s in (scores, rotated))
    before, after = softmax(scores), softmax(rotated)
    freqs = positional.frequencies(q.shape[1], base) if theta is None else \
        np.broadcast_to(float(theta), (q.shape[1] // 2,))
    return {"query": query, "position": i, "tokens": example.TOKENS, "theta": freqs,
            "offsets": i - np.arange(n),  # i - j: what the score depends on
            "scores": scores, "scores_rotated": rotated,
            "weights_before": before, "weights_after": after,
            "top_before": example.TOKENS[int(np.argmax(before))],
            "top_after": example.TOKENS[int(np.argmax(after))]}
