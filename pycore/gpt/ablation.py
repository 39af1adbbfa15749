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


def forward(params, cfg, ids, off=(), at=None):
    """ids (B, T) -> h (B, T, D), the final LayerNorm's output, with the heads `off` zeroed."""
    ids = np.asarray(ids)
    mask = head_mask(off, cfg, ids.shape, at)
    x = params["tok_emb"][ids] + params["pos_emb"][:ids.shape[1]]  # (B, T, D)
    for i in range(cfg["n_layers"]):
        p = model.layer(params, i)
        a = sub(p, "attn.")
        h1 = norms.layer_norm(x, p["ln1.gamma"], p["ln1.beta"])  # (B, T, D)
        q, k, v = (split_heads(h1 @ a[w], cfg["n_heads"]) for w in ("w_q", "w_k", "w_v"))
        _, heads, _ = attention(q, k, v, causal=True)  # (B, H, T, Dh)
        x = x + merge_heads(heads * mask[i]) @ a["w_o"]  # (B, T, D)
        h2 = norms.layer_norm(x, p["ln2.gamma"], p["ln2.beta"])  # (B, T, D)
        x = x + ffn.ffn(h2, p["ffn.w1"], p["ffn.b1"], p["ffn.w2"], p["ffn.b2"],
                        cfg["activation"])
    return norms.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"])


def answers(params, cfg, sentences, off=(), at_query=False, chunk=500):
    """The model's answer id at "=" for each sentence, with the heads `off` zeroed (at every
    position, or only at "=" when at_query)."""
    out = []
    for start in range(0, len(sentences), chunk):
        b = corpus.batch(sentences[start:start + chunk])
        rows = np.arange(len(b["query"]))
        h = forward(params, cfg, b["inputs"], off, b["query"] if at_query else None)
        out.append(model.logits(params, h[rows, b["query"]]).argmax(axis=-1))  # (B,)
    return np.concatenate(out)


def accuracy(params, cfg, sentences, off=(), at_query=False):
    """The share of sentences answered right with the heads `off` zeroed."""
    right = np.array([corpus.INDEX[s["answer"]] for s in sentences])
    return float((answers(params, cfg, sentences, off, at_query) == right).mean())
