"""Run the trained model on a sentence and show everything it computes (for the page).

The book's weights ship beside pycore as pycore/gpt_weights.npz, with pycore/gpt_weights.json
(seed, settings, training log, final metrics). A widget that reads them names both in its
DATA_FILES. Every function returns plain data: dicts, lists, strings, numbers and NumPy
arrays (pycore.widgets.plain turns those into lists).

    trace(words)             every intermediate of one forward pass, with shapes
    next_token(words)        the distribution of the token after the last word
    generate(words, ...)     continue a prefix with temperature / top-k / top-p sampling
"""
import functools
import json
from importlib import resources

import numpy as np

from .. import ffn, norms, sampling
from ..softmax import softmax
from . import corpus, model
from .layers import self_attention, split_heads, sub

WEIGHTS = "gpt_weights.npz"
RECORD = "gpt_weights.json"
DATA_FILES = (WEIGHTS, RECORD)

# The running example, up to the question: the model's answer comes next.
EXAMPLE = "小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".split()


@functools.lru_cache(maxsize=1)
def book_model():
    """(params, config, record) of the committed model, read once."""
    root = resources.files("pycore")
    with root.joinpath(WEIGHTS).open("rb") as f, np.load(f) as data:
        params = {name: data[name] for name in data.files}
    record = json.loads(root.joinpath(RECORD).read_text(encoding="utf-8"))
    return params, record["settings"]["model"], record


def check_words(words, cfg):
    """The ids of a word list, or a ValueError that says what is allowed."""
    words = list(words)
    if not words:
        raise ValueError("the sentence is empty: give at least one word")
    if len(words) > cfg["n_positions"]:
        raise ValueError(f"the sentence has {len(words)} words; the model reads at most "
                         f"{cfg['n_positions']}")
    if corpus.PAD in words:
        raise ValueError(f"{corpus.PAD} is padding, not a word")
    return np.array([corpus.encode(words)])  # (1, T)


def _norm_stats(x, y):
    mean, std = norms.row_stats(x)
    return {"input_mean": mean, "input_std": std, "output": y}


def trace(words, params=None, cfg=None, top=10):
    """One forward pass on a word list, every intermediate kept (T = len(words)):

    embedding: token (T, D), position (T, D), sum (T, D)
    layers[i]: ln1 / ln2 {input_mean (T,), input_std (T,), output (T, D)},
               attention {q, k, v (H, T, Dh), weights (H, T, T) (rows: queries), heads
               (H, T, Dh), output (T, D) after W_O}, residual1 (T, D),
               ffn {hidden (T, F) after the activation, output (T, D)}, residual2 (T, D)
    final_norm {input_mean, input_std, output (T, D)}
    logits (T, V): row t scores the token after word t
    next {probs (V,), top: [{word, p}] the `top` most probable} after the last word
    shapes: [(name, shape)] in the order computed; vocab: the words of the V columns.
    params, cfg default to the book's model.
    """
    if params is None:
        params, cfg, _ = book_model()
    ids = check_words(words, cfg)
    T = ids.shape[1]
    tok, pos = params["tok_emb"][ids[0]], params["pos_emb"][:T]  # (T, D) each
    out = {"tokens": list(words), "ids": ids[0], "config": cfg, "vocab": corpus.VOCAB,
           "embedding": {"token": tok, "position": pos, "sum": tok + pos}, "layers": []}
    shapes = [("token embedding", tok.shape), ("position embedding", pos.shape)]
    x = params["tok_emb"][ids] + pos  # (1, T, D), as model.forward
    for i in range(cfg["n_layers"]):
        # model.forward's block (pycore.gpt.layers.block), step by step, on the same (1, T, .)
        # arrays, keeping what the block does not: the FFN's hidden layer and its output
        p = sub(params, f"layers.{i}.")
        h1 = norms.layer_norm(x, p["ln1.gamma"], p["ln1.beta"])  # (1, T, D)
        attn_out, a = self_attention(h1, sub(p, "attn."), cfg["n_heads"])  # (1, T, D)
        r = x + attn_out  # (1, T, D)
        h2 = norms.layer_norm(r, p["ln2.gamma"], p["ln2.beta"])  # (1, T, D)
        hidden = ffn.activate(h2 @ p["ffn.w1"] + p["ffn.b1"], cfg["activation"])  # (1, T, F)
        ffn_out = hidden @ p["ffn.w2"] + p["ffn.b2"]  # (1, T, D)
        heads = split_heads(a["merged"], cfg["n_heads"])[0]  # (H, T, Dh): weights @ v
        layer = {
            "ln1": _norm_stats(x[0], h1[0]),
            "attention": {"q": a["q"][0], "k": a["k"][0], "v": a["v"][0],
                          "weights": a["weights"][0], "heads": heads, "output": attn_out[0]},
            "residual1": r[0],
            "ln2": _norm_stats(r[0], h2[0]),
            "ffn": {"hidden": hidden[0], "output": ffn_out[0]},
            "residual2": r[0] + ffn_out[0],
        }
        out["layers"].append(layer)
        shapes += [(f"layer {i} LN1", h1[0].shape), (f"layer {i} Q, K, V", a["q"][0].shape),
                   (f"layer {i} attention weights", a["weights"][0].shape),
                   (f"layer {i} attention output", attn_out[0].shape),
                   (f"layer {i} LN2", h2[0].shape), (f"layer {i} FFN hidden", hidden[0].shape),
                   (f"layer {i} output", ffn_out[0].shape)]
        x = r + ffn_out  # (1, T, D)
    h = norms.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"])  # (1, T, D)
    out["final_norm"] = _norm_stats(x[0], h[0])
    out["logits"] = model.logits(params, h[0])  # (T, V)
    probs = softmax(out["logits"][-1])
    order = np.argsort(-probs, kind="stable")[:top]
    out["next"] = {"probs": probs,
                   "top": [{"word": corpus.VOCAB[j], "p": float(probs[j])} for j in order]}
    out["shapes"] = shapes + [("final LayerNorm", h[0].shape), ("logits", out["logits"].shape)]
    return out


def next_token(words, params=None, cfg=None):
    """(V,) probabilities of the token after the last word (no intermediates kept)."""
    if params is None:
        params, cfg, _ = book_model()
    h, _ = model.forward(params, cfg, check_words(words, cfg))
    return softmax(model.logits(params, h[0, -1]))


def generate(words, n=1, temperature=1.0, top_k=None, top_p=None, seed=0, params=None,
             cfg=None):
    """Continue a prefix by up to n words, each drawn with pycore.sampling's pipeline
    (temperature, then top-k, then top-p, then a seeded draw). Stops after the answer that
    follows "=" or at the model's length. Returns the new words and, for each, the
    distribution it was drawn from."""
    if params is None:
        params, cfg, _ = book_model()
    words, new, steps = list(words), [], []
    rng_seeds = np.random.default_rng(seed).integers(0, 2**31, size=n)
    for s in rng_seeds:
        if len(words) >= cfg["n_positions"] or (len(words) > 1 and words[-2] == "="):
            break
        h, _ = model.forward(params, cfg, check_words(words, cfg))
        z = model.logits(params, h[0, -1])
        z[corpus.PAD_ID] = -np.inf  # padding is never a word to say
        stages = sampling.pipeline(z, temperature, top_k, top_p, tokens=corpus.VOCAB)
        word = corpus.VOCAB[int(sampling.sample(stages["final"], 1, int(s))[0])]
        words.append(word)
        new.append(word)
        steps.append({"word": word, "probs": stages["final"]})
    return {"words": new, "steps": steps}
