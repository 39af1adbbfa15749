"""Padding and batching: sentences of different lengths in one (B, T, d) tensor.

A batch is one array, so shorter sentences are filled up to the longest with a padding token
<pad>. Its embedding here is the zero vector (what nn.Embedding(padding_idx=...) keeps it
at). Pads must not change the real tokens' results, and attention would let them: a pad's key
scores q . 0 = 0, which is not -inf, so every pad takes a share of each softmax row, and the
real tokens' weights shrink.

The padding (key) mask says, per sentence, which keys are real: query i may look at key j
only when token j is real. It is the same for every query of the sentence (a mask on the
columns). The causal mask (j <= i) is the same for every sentence. A decoder uses both:
allowed = padding & causal. With the padding mask each sentence's real tokens get exactly the
weights and outputs they would get alone; the rows of the pads themselves are computed too but
never used (their loss is masked out as well).

Right padding (pads after the text) and a causal decoder: a real token only looks back, and the
pads are ahead of it, so the causal mask alone already hides them. Left padding (pads first,
as batched generation uses so every sentence ends at the last column) needs the padding mask
even with the causal one. Here the semantic head has no positions; a model with positions must
also number each sentence from its first real token, not from column 0.

A query with no allowed key at all (a left pad under the causal mask: it sees only pads) gets
an all-zero row of weights instead of 0/0.

Numbers the chapter quotes (the semantic head, no causal mask, right padding;
tests/test_pycore_padding.py): in 「小猫 太 累 了」 padded to 9 tokens with 5 pads, 小猫 gives
itself weight e^(2/sqrt 6) / (e^(2/sqrt 6) + 3) = 0.430 with the padding mask, and
e^(2/sqrt 6) / (e^(2/sqrt 6) + 8) = 0.220 without it, while the 5 pads take
5 / (e^(2/sqrt 6) + 8) = 0.487 of its attention. The largest change of an output entry is
太's function-word feature: 2 e^(1/sqrt 6) / (2 e^(1/sqrt 6) + 2) = 0.601 with the mask,
2 e^(1/sqrt 6) / (2 e^(1/sqrt 6) + 7) = 0.301 without it (0.300 less). The running example, the
longest sentence, has no pads and does not change.
"""
import numpy as np

from . import example

PAD = "<pad>"
SHORT = ["小猫", "太", "累", "了"]  # the kitten is too tired
SIDES = ("right", "left")


def embed(tokens):
    """(n, d) embeddings of tokens of the running example's vocabulary."""
    index = {t: i for i, t in enumerate(example.TOKENS)}
    unknown = [t for t in tokens if t not in index]
    if unknown:
        raise ValueError(f"unknown tokens {unknown}: use tokens of {example.TOKENS}")
    return example.EMBEDDINGS[[index[t] for t in tokens]]


def pad_batch(sentences, side="right", pad_vector=None):
    """Stack sentences (lists of tokens) into one batch.

    Returns tokens (B lists of T, pads included), lengths (B,), real (B, T) bool, and
    x (B, T, d) with pad_vector (default zeros) in the padded places.
    """
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, not {side!r}")
    if not sentences or any(len(s) == 0 for s in sentences):
        raise ValueError("give at least one sentence, each with at least one token")
    d = example.EMBEDDINGS.shape[1]
    pad_vector = np.zeros(d) if pad_vector is None else np.asarray(pad_vector, dtype=float)
    T = max(len(s) for s in sentences)
    B = len(sentences)
    tokens, real, x = [], np.zeros((B, T), dtype=bool), np.empty((B, T, d))
    for b, s in enumerate(sentences):
        fill = T - len(s)
        cols = slice(0, len(s)) if side == "right" else slice(fill, T)
        tokens.append(list(s) + [PAD] * fill if side == "right" else [PAD] * fill + list(s))
        real[b, cols] = True
        x[b] = pad_vector
        x[b, cols] = embed(s)
    return {"tokens": tokens, "lengths": np.array([len(s) for s in sentences]), "real": real,
            "x": x, "side": side}


def padding_mask(real):
    """(B, T, T): query i of sentence b may look at key j when token j is real."""
    real = np.asarray(real, dtype=bool)  # (B, T)
    B, T = real.shape
    return np.broadcast_to(real[:, None, :], (B, T, T)).copy()  # the same row for every i


def causal_mask(T):
    """(T, T): query i may look at key j when j <= i."""
    return np.tril(np.ones((T, T), dtype=bool))


def combined_mask(real, causal=True):
    """(B, T, T): the padding mask, and the causal mask too when causal."""
    allowed = padding_mask(real)
    return allowed & causal_mask(allowed.shape[-1]) if causal else allowed


def masked_attention(x, allowed):
    """The semantic head over a batch: x (B, T, d), allowed (B, T, T) or (T, T) bool.

    Returns weights (B, T, T) and outputs (B, T, d). A row with no allowed key gets zeros.
    """
    w_q, w_k, w_v = example.semantic_head()
    q, k, v = x @ w_q, x @ w_k, x @ w_v  # (B, T, d) each
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # (B, T, T)
    allowed = np.broadcast_to(allowed, scores.shape)
    top = np.max(np.where(allowed, scores, -np.inf), axis=-1, keepdims=True)  # (B, T, 1)
    top = np.where(np.isfinite(top), top, 0.0)  # an empty row: any finite shift will do
    e = np.where(allowed, np.exp(scores - top), 0.0)  # (B, T, T)
    total = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(total > 0, total, 1.0)
    return weights, weights @ v  # (B, T, T), (B, T, d)


def _alone(sentence, causal):
    """Each sentence computed by itself (no pads anywhere): the outputs padding must keep."""
    x = embed(sentence)[None]  # (1, n, d)
    allowed = causal_mask(len(sentence)) if causal else np.ones((len(sentence),) * 2, bool)
    w, out = masked_attention(x, allowed)
    return w[0], out[0]


def batch_view(sentences=None, side="right", causal=False):
    """Everything the padding widget shows.

    sentences: default the running example and SHORT. Gives the batch, the three masks, the
    weights and outputs with the padding mask and without it (the causal mask stays as
    chosen), and per sentence how much the real tokens' weights and outputs move without it,
    and the weight each real query puts on pads.
    """
    sentences = [example.TOKENS, SHORT] if sentences is None else [list(s) for s in sentences]
    batch = pad_batch(sentences, side)
    real, x = batch["real"], batch["x"]
    T = real.shape[1]
    with_mask = combined_mask(real, causal)  # (B, T, T)
    without = np.broadcast_to(causal_mask(T) if causal else np.ones((T, T), bool), with_mask.shape)
    w_mask, out_mask = masked_attention(x, with_mask)
    w_none, out_none = masked_attention(x, without)
    effect = []
    for b, s in enumerate(sentences):
        cols = np.flatnonzero(real[b])  # the real tokens' columns
        w_alone, out_alone = _alone(s, causal)
        rows = np.ix_(cols, cols)
        effect.append({
            "tokens": list(s), "length": len(s), "pads": T - len(s),
            "pad_weight": w_none[b][np.ix_(cols, ~real[b])].sum(axis=1),  # (n,) per real query
            "max_weight_change": float(np.max(np.abs(w_none[b][rows] - w_mask[b][rows]))),
            "max_output_change": float(np.max(np.abs(out_none[b][cols] - out_mask[b][cols]))),
            "max_diff_from_alone": float(max(np.max(np.abs(w_mask[b][rows] - w_alone)),
                                             np.max(np.abs(out_mask[b][cols] - out_alone)))),
        })
    return {
        **batch, "causal": causal, "shape": x.shape,
        "padding_mask": padding_mask(real), "causal_mask": causal_mask(T), "combined": with_mask,
        "weights": w_mask, "outputs": out_mask,
        "weights_unmasked": w_none, "outputs_unmasked": out_none,
        "effect": effect,
    }
