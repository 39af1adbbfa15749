"""Inside the character-level poem model (poem_run): what its heads look at, what each layer's
residual stream would predict, and what each head is needed for.

    inside(text, position)  one forward pass (model.forward, the page's) on what the model
                       reads of text: every layer's and head's attention weights, the residual
                       stream at every position, and the logit lens at `position`
    lens(params, x)    the logit lens of residual-stream vectors: the final LayerNorm and the
                       tied output layer applied to them, as if the model stopped there
    head_losses()      the cross-entropy of every held-out character of the committed subset
                       with each head switched off (ablation.forward), split into the
                       characters that end a line (punctuation, a line break) and the others
    attention_profile()  where each head's weight goes on the same subset
    lens_profile()     how well the lens of each stream predicts the same subset
    embedding_pca(params), neighbours(params, i, k)   the character embeddings in 2-D, and
                       the characters nearest one of them

The residual stream after the embedding is the first block's input, after block i < L - 1 the
next block's input, after the last block the final LayerNorm's input: all three are in
model.forward's cache, so nothing of the forward pass is computed twice or differently.
"""
import functools
from importlib import resources

import numpy as np

from .. import norms
from ..softmax import softmax
from . import ablation, model, poem_run, poems, train_poems

# The characters that close a line of a poem or a clause: after them a new line begins.
LINE_ENDS = "，。？！；：、\n"


def lens(params, x):
    """(..., D) residual-stream vectors -> (..., V) next-character probabilities: the final
    LayerNorm and the tied output layer, applied where the model would apply them last."""
    h = norms.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"])
    return softmax(model.logits(params, h), axis=-1)


def streams(cache):
    """The residual stream (L + 1, B, T, D) of model.forward's cache: after the embedding
    (block 0's input), after each block (the next block's input, or ln_f's for the last)."""
    return np.stack([c["x"] for c in cache["blocks"]] + [cache["x"]])


def inside(text, position=-1, params=None, cfg=None, vocab=None):
    """One forward pass on what the model reads of `text` (poem_run.read):

    read: poem_run.read(text); weights (L, H, T, T): every head's causal attention, rows the
    query positions; streams (L + 1, T, D): the residual stream at every position (streams());
    lens (L + 1, V): the logit lens at `position` (default the last; None: no lens), row 0
    after the embedding, row i + 1 after block i (the last row is the model's own output).
    The page asks for the lens of another position from `streams` (lens(params,
    streams[:, i])) without a second forward pass.
    """
    if params is None:
        params, cfg, record = poem_run.poem_model()
        vocab = record["vocab"]
    r = poem_run.read(text, vocab, cfg["n_positions"])
    _, cache = model.forward(params, cfg, np.array([r["ids"]]))
    weights = np.stack([c["attn"]["weights"][0] for c in cache["blocks"]])  # (L, H, T, T)
    x = streams(cache)[:, 0]  # (L + 1, T, D)
    return {"read": r, "weights": weights, "streams": x,
            "lens": None if position is None else lens(params, x[:, position])}  # (L + 1, V)


# --- the heads on held-out text -------------------------------------------------------------

def heldout_windows():
    """(inputs, targets, the characters predicted, the characters read), each (8, 64): the
    committed held-out subset
    (pycore/poem_gpt_heldout.txt), cut as the training run evaluates it (train_poems.windows)."""
    _, cfg, record = poem_run.poem_model()
    text = resources.files("pycore").joinpath(train_poems.HELDOUT).read_text(encoding="utf-8")
    x, t = train_poems.windows(np.array(poems.encode(text, poems.encoder(record["vocab"]))),
                               cfg["n_positions"])
    chars = np.array(list(text[:t.size + 1]))
    return x, t, chars[1:].reshape(t.shape), chars[:-1].reshape(x.shape)


def losses(params, cfg, x, t, off=()):
    """(N,) cross-entropy (nats) of every target of the windows, the heads `off` zeroed."""
    h = ablation.forward(params, cfg, x, off)  # (B, T, D)
    z = model.logits(params, h).reshape(-1, cfg["vocab"])  # (B T, V)
    z = z - z.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -log_p[np.arange(len(z)), t.reshape(-1)]


@functools.lru_cache(maxsize=1)
def head_losses():
    """The held-out subset's mean loss with nothing off and with each head off, overall and
    split by the character predicted: {"targets": N, "line_ends": how many targets end a
    line, "none": {all, line_end, other}, "heads": {(layer, head): {all, line_end, other}},
    "layers": {layer: {...} with the layer's every head off}}."""
    params, cfg, _ = poem_run.poem_model()
    x, t, targets, _ = heldout_windows()
    end = np.isin(targets.reshape(-1), list(LINE_ENDS))

    def split(off):
        ce = losses(params, cfg, x, t, off)
        return {"all": float(ce.mean()), "line_end": float(ce[end].mean()),
                "other": float(ce[~end].mean())}

    L, H = cfg["n_layers"], cfg["n_heads"]
    return {"targets": int(t.size), "line_ends": int(end.sum()), "none": split(()),
            "heads": {(i, j): split(((i, j),)) for i in range(L) for j in range(H)},
            "layers": {i: split(tuple((i, j) for j in range(H))) for i in range(L)}}


@functools.lru_cache(maxsize=1)
def attention_profile():
    """Where each head's weight goes on the held-out subset, averaged over every query
    position: (L, H) arrays of the weight on keys that end a line ("line_ends"), on the key
    just before the query ("previous"), on the query itself ("itself"), and each row's
    entropy in nats ("entropy"). For a head that looked at every key alike: "line_end_share",
    the mean share of line-ending characters among the keys a query sees (the weight it would
    give them), and "uniform_entropy", the mean of ln(keys seen)."""
    params, cfg, _ = poem_run.poem_model()
    x, _, _, read = heldout_windows()
    _, cache = model.forward(params, cfg, x)
    w = np.stack([c["attn"]["weights"] for c in cache["blocks"]])  # (L, B, H, T, T)
    is_end = np.isin(read, list(LINE_ENDS)).astype(float)  # (B, T): the keys
    T = x.shape[1]
    seen = np.arange(1, T + 1)  # keys a query sees
    share = np.cumsum(is_end, axis=1) / seen  # (B, T)
    on_ends = np.einsum("lbhqk,bk->lbhq", w, is_end)
    previous = np.diagonal(w, offset=-1, axis1=3, axis2=4)  # (L, B, H, T - 1): query t, key t-1
    itself = np.diagonal(w, axis1=3, axis2=4)
    entropy = -(np.where(w > 0, w * np.log(np.where(w > 0, w, 1.0)), 0.0)).sum(axis=-1)
    mean = lambda a: a.mean(axis=(1, 3))  # (L, H): over windows and query positions
    return {"line_ends": mean(on_ends), "previous": mean(previous), "itself": mean(itself),
            "entropy": mean(entropy), "line_end_share": float(share.mean()),
            "uniform_entropy": float(np.log(seen).mean())}


@functools.lru_cache(maxsize=1)
def lens_profile():
    """The logit lens at every position of the held-out subset, one row per stream (after the
    embedding, after each block): "perplexity" (exp of the mean cross-entropy of the true next
    character), "right" (the share of positions whose most probable character is the true next
    one) and "echo" (the share whose most probable character is the one just read)."""
    params, cfg, _ = poem_run.poem_model()
    x, t, _, _ = heldout_windows()
    _, cache = model.forward(params, cfg, x)
    out = {"perplexity": [], "right": [], "echo": []}
    for stream in streams(cache):  # (B, T, D)
        p = lens(params, stream)  # (B, T, V)
        top = p.argmax(axis=-1)
        true = np.take_along_axis(p, t[..., None], axis=-1)[..., 0]  # (B, T)
        out["perplexity"].append(float(np.exp(-np.log(true).mean())))
        out["right"].append(float((top == t).mean()))
        out["echo"].append(float((top == x).mean()))
    return out


# --- the character embeddings -----------------------------------------------------------------

def embedding_pca(params, components=2):
    """The rows of the token embedding (V, D), centred, projected on their first principal
    axes (NumPy's SVD): {"xy": (V, components), "share": (components,) the fraction of the
    variance along each axis}. An axis's sign is the one whose largest loading is positive,
    so CPython and Pyodide draw the same picture."""
    centred = params["tok_emb"] - params["tok_emb"].mean(axis=0)  # (V, D)
    u, s, vt = np.linalg.svd(centred, full_matrices=False)  # s falls
    sign = np.sign(vt[np.arange(components), np.abs(vt[:components]).argmax(axis=1)])
    return {"xy": u[:, :components] * s[:components] * sign,
            "share": s[:components] ** 2 / (s ** 2).sum()}


def neighbours(params, i, k):
    """The k characters (ids) whose embeddings point most nearly the way character i's does
    (cosine similarity in all D dimensions, i itself left out), most similar first, and their
    similarities."""
    e = params["tok_emb"]
    unit = e / np.linalg.norm(e, axis=1, keepdims=True)  # (V, D)
    cos = unit @ unit[i]  # (V,)
    cos[i] = -np.inf
    order = np.argsort(-cos, kind="stable")[:k]
    return order, cos[order]
