"""A small decoder-only Transformer (GPT-style), forward and backward, in float64 NumPy.

    x = E[ids] + P[:T]                        token + learned position embeddings   (B, T, D)
    x = block(x) for each layer               Pre-LN: x + MHA(LN(x)), then x + FFN(LN(x))
    h = LN_f(x)                               a final LayerNorm
    logits = h @ E^T                          output tied to the token embedding   (B, T, V)

Causal attention, so position t only sees tokens 0..t and its logits predict token t + 1.
The parts are the book's: pycore.attention, norms, ffn, softmax; the backward of each sits
beside its forward there, and the model's own ones here and in .layers.

The positions are learned, as in GPT-2, not the sinusoidal table of pycore.positional: that
table has entries of size 1 while the embeddings start at 0.02 (GPT-2's scale), so it drowns
the words; measured, a d = 32 model with it stays near 30 % held-out accuracy after 800 steps
where the learned table reaches 95 %.

Parameters live in one flat dict of arrays, names like "layers.0.attn.w_q" (also the keys of
the saved .npz). A config is a plain dict (see config()).
"""
import numpy as np

from .. import norms
from ..softmax import softmax
from . import corpus
from .layers import block, block_backward, sub

ACTIVATIONS = ("gelu", "relu")


def config(d_model=48, n_heads=4, n_layers=2, d_ff=None, activation="gelu",
           n_positions=corpus.MAX_LEN, vocab=len(corpus.VOCAB)):
    """A checked model config (a plain dict). d_ff defaults to 4 d_model."""
    cfg = {"vocab": vocab, "n_positions": n_positions, "d_model": d_model, "n_heads": n_heads,
           "n_layers": n_layers, "d_ff": 4 * d_model if d_ff is None else d_ff,
           "activation": activation}
    return check_config(cfg)


def check_config(cfg):
    if cfg["d_model"] % cfg["n_heads"]:
        raise ValueError(f"d_model = {cfg['d_model']} must be divisible by "
                         f"n_heads = {cfg['n_heads']}")
    if cfg["activation"] not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, not {cfg['activation']!r}")
    return cfg


def shapes(cfg):
    """Every parameter's name and shape, in the order init() draws them."""
    V, T, D, F = cfg["vocab"], cfg["n_positions"], cfg["d_model"], cfg["d_ff"]
    out = {"tok_emb": (V, D), "pos_emb": (T, D)}
    for i in range(cfg["n_layers"]):
        for name, shape in (("ln1.gamma", (D,)), ("ln1.beta", (D,)),
                            ("attn.w_q", (D, D)), ("attn.w_k", (D, D)), ("attn.w_v", (D, D)),
                            ("attn.w_o", (D, D)), ("ln2.gamma", (D,)), ("ln2.beta", (D,)),
                            ("ffn.w1", (D, F)), ("ffn.b1", (F,)), ("ffn.w2", (F, D)),
                            ("ffn.b2", (D,))):
            out[f"layers.{i}.{name}"] = shape
    out["ln_f.gamma"], out["ln_f.beta"] = (D,), (D,)
    return out


def init(cfg, seed):
    """Seeded initial weights, GPT-2's recipe: every matrix and embedding normal with std
    0.02, except the two projections that write into the residual stream (attn.w_o, ffn.w2),
    whose std is 0.02 / sqrt(2 n_layers) so that the stream's variance does not grow with
    depth; biases 0, LayerNorm gamma 1 and beta 0.
    Draws with np.random.default_rng(seed), one normal array per matrix, in shapes() order.
    """
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in shapes(cfg).items():
        if name.endswith("gamma"):
            params[name] = np.ones(shape)
        elif len(shape) == 1:
            params[name] = np.zeros(shape)
        else:
            std = 0.02 / np.sqrt(2 * cfg["n_layers"]) if name.endswith(("w_o", "w2")) else 0.02
            params[name] = rng.normal(0.0, std, size=shape)
    return params


def layer(params, i):
    return sub(params, f"layers.{i}.")


def forward(params, cfg, ids):
    """ids (B, T) -> (h (B, T, D), the final LayerNorm's output, and the cache)."""
    ids = np.asarray(ids)
    if ids.shape[1] > cfg["n_positions"]:
        raise ValueError(f"a sequence of {ids.shape[1]} tokens is longer than the model's "
                         f"{cfg['n_positions']} positions")
    x = params["tok_emb"][ids] + params["pos_emb"][:ids.shape[1]]  # (B, T, D)
    caches = []
    for i in range(cfg["n_layers"]):
        x, c = block(x, layer(params, i), cfg["n_heads"], cfg["activation"])  # (B, T, D)
        caches.append(c)
    h = norms.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"])  # (B, T, D)
    return h, {"ids": ids, "blocks": caches, "x": x}


def backward(dh, cache, params, cfg):
    """dL/dh (B, T, D) -> gradients of every parameter (tok_emb: the embedding's share only;
    add the output's share from logits_backward)."""
    grads = {}
    dx, grads["ln_f.gamma"], grads["ln_f.beta"] = norms.layer_norm_backward(
        dh, cache["x"], params["ln_f.gamma"])  # (B, T, D)
    for i in reversed(range(cfg["n_layers"])):
        dx, g = block_backward(dx, cache["blocks"][i], layer(params, i), cfg["activation"])
        grads.update({f"layers.{i}.{name}": d for name, d in g.items()})
    ids = cache["ids"]
    D = dx.shape[-1]
    grads["pos_emb"] = np.zeros_like(params["pos_emb"])
    grads["pos_emb"][:ids.shape[1]] = dx.sum(axis=0)  # (T, D): summed over the batch
    grads["tok_emb"] = np.zeros_like(params["tok_emb"])
    np.add.at(grads["tok_emb"], ids.reshape(-1), dx.reshape(-1, D))  # (V, D), rows by id
    return grads


def logits(params, h):
    """(..., D) -> (..., V): the tied output layer, h @ E^T. One vector (D,) is E h: the same
    numbers, a third of the time in Pyodide, whose NumPy multiplies by a transposed matrix
    slowly (a continuation pays it once per character)."""
    E = params["tok_emb"]  # (V, D)
    return E @ h if h.ndim == 1 else h @ E.T


def logits_backward(d_logits, h, params):
    """dL/d(logits) (N, V), h (N, D) -> (dh (N, D), dE (V, D), the output's share of E)."""
    return d_logits @ params["tok_emb"], d_logits.T @ h


def cross_entropy(z, targets, weights):
    """sum_i weights_i * -log softmax(z_i)[targets_i]; z (N, V), targets and weights (N,)."""
    z = z - z.max(axis=-1, keepdims=True)  # (N, V), the same softmax, no overflow
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))  # (N, V)
    return float(-(weights * log_p[np.arange(len(z)), targets]).sum())


def cross_entropy_backward(z, targets, weights):
    """dL/dz (N, V) of cross_entropy: weights_i * (softmax(z_i) - onehot(targets_i))."""
    d = softmax(z, axis=-1)  # (N, V)
    d[np.arange(len(z)), targets] -= 1.0
    return d * weights[:, None]


def loss_and_grads(params, cfg, ids, targets, weights):
    """The training objective and its gradient: sum of weights * cross-entropy over the
    positions with a weight > 0 (the logits of the other positions are never computed).

    ids, targets, weights: (B, T). Returns (loss, grads dict, logits of the weighted positions).
    """
    h, cache = forward(params, cfg, ids)  # (B, T, D)
    chosen = weights > 0  # (B, T)
    h_chosen = h[chosen]  # (N, D)
    z = logits(params, h_chosen)  # (N, V)
    loss = cross_entropy(z, targets[chosen], weights[chosen])
    dz = cross_entropy_backward(z, targets[chosen], weights[chosen])  # (N, V)
    dh_chosen, d_out_emb = logits_backward(dz, h_chosen, params)
    dh = np.zeros_like(h)
    dh[chosen] = dh_chosen  # (B, T, D)
    grads = backward(dh, cache, params, cfg)
    grads["tok_emb"] += d_out_emb
    return loss, grads, z


def count_parameters(params):
    return int(sum(a.size for a in params.values()))
