"""The model with chosen attention heads switched off: an ablation.

A head is switched off by zeroing its output (its Dh columns of the merged heads) before W_O,
so the rest of the model runs unchanged on what the other heads wrote. Attention weights say
where a head looks; an ablation says whether the answer needs it.

    off = ((layer, head), ...)          the heads switched off, at every position
    at = (B,) positions or None         only there (e.g. the position of "="), or everywhere

The forward here is model.forward with that one change (layers.self_attention's steps, a
mask on the heads); tests/test_pycore_gpt_ablation.py checks it against zeroed rows of W_O.
"""
import numpy as np

from .. import ffn, norms
from ..attention import attention
from ..linear import linear
from ..softmax import softmax
from . import corpus, model
from .layers import merge_heads, split_heads, sub


def head_mask(off, cfg, shape, at=None):
    """(L, B, H, T, 1) of 1.0 (kept) and 0.0 (switched off) for a batch of `shape` (B, T)."""
    B, T = shape
    mask = np.ones((cfg["n_layers"], B, cfg["n_heads"], T, 1))
    for layer, head in off:
        if at is None:
            mask[layer, :, head] = 0.0
        else:
            mask[layer, np.arange(B), head, np.asarray(at)] = 0.0
    return mask


def attention_output(x, p, n_heads, mask, rows=None):
    """One block's attention sub-layer with heads masked: (B, T, D), or (B, D) at one query
    position per sentence when rows = (B,) positions (the last layer needs no other)."""
    a = sub(p, "attn.")
    h1 = norms.layer_norm(x, p["ln1.gamma"], p["ln1.beta"])  # (B, T, D)
    q, k, v = (split_heads(linear(h1, a[w]), n_heads)
               for w in ("w_q", "w_k", "w_v"))  # (B, H, T, Dh)
    if rows is None:
        _, heads, _ = attention(q, k, v, causal=True)  # (B, H, T, Dh)
        return linear(merge_heads(heads * mask), a["w_o"])  # (B, T, D)
    B = len(rows)
    q = q[np.arange(B), :, rows][:, :, None]  # (B, H, 1, Dh): the query rows only
    visible = np.arange(k.shape[2])[None, :] <= np.asarray(rows)[:, None]  # (B, T): causal
    _, _, scores = attention(q, k, v)  # (B, H, 1, T), before any mask
    heads = softmax(np.where(visible[:, None, None, :], scores, -np.inf), axis=-1) @ v
    kept = mask[np.arange(B), :, rows]  # (B, H, 1)
    return linear(merge_heads(heads * kept[..., None])[:, 0], a["w_o"])  # (B, D)


def feed_forward(x, p, activation):
    h2 = norms.layer_norm(x, p["ln2.gamma"], p["ln2.beta"])
    return ffn.ffn(h2, p["ffn.w1"], p["ffn.b1"], p["ffn.w2"], p["ffn.b2"], activation)


def residual(params, cfg, ids, mask, layers):
    """The residual stream (B, T, D) after the first `layers` blocks, heads masked."""
    x = params["tok_emb"][ids] + params["pos_emb"][:ids.shape[1]]  # (B, T, D)
    for i in range(layers):
        p = model.layer(params, i)
        x = x + attention_output(x, p, cfg["n_heads"], mask[i])
        x = x + feed_forward(x, p, cfg["activation"])
    return x


def forward(params, cfg, ids, off=(), at=None):
    """ids (B, T) -> h (B, T, D), the final LayerNorm's output, with the heads `off` zeroed."""
    ids = np.asarray(ids)
    x = residual(params, cfg, ids, head_mask(off, cfg, ids.shape, at), cfg["n_layers"])
    return norms.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"])


def at_queries(params, cfg, ids, rows, off=(), at=None):
    """h (B, D) at one position per sentence (rows), as forward()'s rows there: the last block
    is computed at those positions only (its other positions reach no answer)."""
    ids = np.asarray(ids)
    mask = head_mask(off, cfg, ids.shape, at)
    last = cfg["n_layers"] - 1
    x = residual(params, cfg, ids, mask, last)  # (B, T, D)
    p = model.layer(params, last)
    r = x[np.arange(len(rows)), rows] + attention_output(x, p, cfg["n_heads"], mask[last],
                                                         rows)  # (B, D)
    r = r + feed_forward(r, p, cfg["activation"])
    return norms.layer_norm(r, params["ln_f.gamma"], params["ln_f.beta"])


def answers(params, cfg, sentences, off=(), at_query=False, chunk=500):
    """The model's answer id at "=" for each sentence, with the heads `off` zeroed (at every
    position, or only at "=" when at_query)."""
    out = []
    for start in range(0, len(sentences), chunk):
        b = corpus.batch(sentences[start:start + chunk])
        h = at_queries(params, cfg, b["inputs"], b["query"], off,
                       b["query"] if at_query else None)  # (B, D)
        out.append(model.logits(params, h).argmax(axis=-1))  # (B,)
    return np.concatenate(out)


def accuracy(params, cfg, sentences, off=(), at_query=False):
    """The share of sentences answered right with the heads `off` zeroed."""
    right = np.array([corpus.INDEX[s["answer"]] for s in sentences])
    return float((answers(params, cfg, sentences, off, at_query) == right).mean())
