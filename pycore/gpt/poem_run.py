"""Run the character-level poem model (train_poems.py) on any text: what the page calls.

The weights ship beside pycore as poem_gpt.npz (float16, one array per parameter name) with
poem_gpt.json (settings, vocabulary, training record); a widget that reads them names
DATA_FILES. np.load reads the .npz the same way in CPython and in Pyodide; the float16 arrays
are widened to float64 once, and every computation is model.py's.

    read(text)                        the ids the model reads, which characters it does not know
    next_char(text, temperature, top_k, top_p)   the distribution of the next character
    last_logits(ids)                  the logits it comes from
    distribution(z, temperature, top_k, top_p)   that distribution from given logits
    generate(text, n, temperature, top_k, top_p, seed)   continue the text, seeded

Any string is accepted: characters outside the vocabulary become the unknown token (and are
reported), a text longer than the model's context is read from its last `context`
characters (and the cut is reported). Only an empty text or a non-string is a ValueError.
"""
import functools
import json
from importlib import resources

import numpy as np

from .. import norms, sampling
from ..attention import attention
from ..linear import linear
from ..softmax import softmax
from . import ablation, model, poems
from .layers import merge_heads, split_heads
from .train_poems import DATA_FILES, RECORD, WEIGHTS, widen

__all__ = ["DATA_FILES", "poem_model", "read", "next_char", "last_logits", "distribution",
           "generate"]
MAX_NEW = 200  # the most characters generate() writes in one call


@functools.lru_cache(maxsize=1)
def poem_model():
    """(params float64, config, record) of the committed model, read once."""
    root = resources.files("pycore")
    with root.joinpath(WEIGHTS).open("rb") as f, np.load(f) as data:
        params = widen({name: data[name] for name in data.files})
    record = json.loads(root.joinpath(RECORD).read_text(encoding="utf-8"))
    return params, record["config"], record


def read(text, vocab=None, context=None):
    """What the model reads of `text`: {ids, chars (the characters read), known (bool per
    character), unknown (the distinct characters it does not know, in order), cut (how many
    characters at the start it cannot see)}."""
    if vocab is None:
        _, cfg, record = poem_model()
        vocab, context = record["vocab"], cfg["n_positions"]
    if not isinstance(text, str):
        raise ValueError(f"the text must be a string, not {type(text).__name__}")
    if not text:
        raise ValueError("the text is empty: type at least one character")
    seen = text[-context:]
    ids = poems.encode(seen, poems.encoder(vocab))
    known = [i != 0 for i in ids]
    unknown = list(dict.fromkeys(c for c, k in zip(seen, known) if not k))
    return {"ids": ids, "chars": list(seen), "known": known, "unknown": unknown,
            "cut": len(text) - len(seen)}


def last_logits(ids, params=None, cfg=None):
    """The logits after the last character: model.forward's last row, with the last block
    computed at the last position only (ablation.at_queries with no head off). That block's
    other positions predict characters nobody asks for; skipping them skips a third of the
    feed-forward work, the dearest part of the pass."""
    if params is None:
        params, cfg, _ = poem_model()
    h = ablation.at_queries(params, cfg, np.array([ids]), [len(ids) - 1])  # (1, D)
    return model.logits(params, h[0])  # (V,)


def next_char(text, temperature=1.0, top_k=None, top_p=None, top=10, params=None, cfg=None,
              vocab=None):
    """The next character's distribution after `text`: {probs (V,) the model's own
    (softmax of the logits), final (V,) after temperature / top-k / top-p, top: [{char, p,
    final}] the `top` most probable by `final`, read: read(text)}."""
    if params is None:
        params, cfg, record = poem_model()
        vocab = record["vocab"]
    r = read(text, vocab, cfg["n_positions"])
    return {**distribution(last_logits(r["ids"], params, cfg), temperature, top_k, top_p, top,
                           vocab), "read": r}


def distribution(z, temperature=1.0, top_k=None, top_p=None, top=10, vocab=None):
    """next_char's numbers from the logits z (V,) of the next character: {probs, final, top}.
    Moving temperature, top-k or top-p changes these only, never the logits."""
    vocab = poem_model()[2]["vocab"] if vocab is None else vocab
    final = sampling.pipeline(z, temperature, top_k, top_p)["final"]
    order = np.argsort(-final, kind="stable")[:top]
    probs = softmax(z)
    return {"probs": probs, "final": final,
            "top": [{"char": vocab[j], "p": float(probs[j]), "final": float(final[j])}
                    for j in order]}


def layers_of(params, cfg):
    """Each layer's weights as extend() multiplies them: W_q, W_k and W_v side by side (D, 3D),
    so a position's queries, keys and values are one product instead of three (a continuation
    makes these products once per character, and in Pyodide each NumPy call costs about as
    much as its arithmetic at one position)."""
    out = []
    for i in range(cfg["n_layers"]):
        p = model.layer(params, i)
        w = np.concatenate([p["attn.w_q"], p["attn.w_k"], p["attn.w_v"]], axis=1)  # (D, 3D)
        out.append({**p, "attn.w_qkv": w})
    return out


def extend(ids, start, kept, params, cfg, layers=None):
    """The logits after the last of `ids`, the characters at positions start, start + 1, ...,
    given `kept`: the keys and values of every layer at the positions before `start` (None
    when start = 0). Returns (logits (V,), the keys and values up to the last of ids).
    `layers`: layers_of(params, cfg), made once by a caller that extends many times.

    A character's keys and values depend only on the characters up to it (the model looks
    back only), so a continuation keeps them and pays for one position per new character
    instead of a pass over the whole text. The numbers are model.forward's, up to rounding
    (tests/test_pycore_gpt_poems.py)."""
    T, H, D = len(ids), cfg["n_heads"], cfg["d_model"]
    x = params["tok_emb"][np.array([ids])] + params["pos_emb"][start:start + T]  # (1, T, D)
    out = []
    for p in layers or layers_of(params, cfg):
        h1 = norms.layer_norm(x, p["ln1.gamma"], p["ln1.beta"])  # (1, T, D)
        qkv = linear(h1, p["attn.w_qkv"])  # (1, T, 3D)
        q, k, v = (split_heads(qkv[..., j * D:(j + 1) * D], H) for j in range(3))
        if kept is not None:  # (1, H, start + T, Dh): the earlier positions' first
            old = kept[len(out)]
            k, v = np.concatenate([old[0], k], axis=2), np.concatenate([old[1], v], axis=2)
        out.append((k, v))
        if T == 1:  # the one new position sees every position up to it: no mask
            heads = attention(q, k, v)[1]  # (1, H, 1, Dh)
        else:  # position start + t sees the positions up to start + t
            seen = np.arange(start + T)[None, :] <= start + np.arange(T)[:, None]  # (T, start + T)
            scores = attention(q, k, v)[2]  # (1, H, T, start + T), before any mask
            heads = softmax(np.where(seen, scores, -np.inf), axis=-1) @ v  # (1, H, T, Dh)
        x = x + linear(merge_heads(heads), p["attn.w_o"])
        x = x + ablation.feed_forward(x, p, cfg["activation"])
    h = norms.layer_norm(x[0, -1], params["ln_f.gamma"], params["ln_f.beta"])  # (D,)
    return model.logits(params, h), out


def generate(text, n=40, temperature=1.0, top_k=None, top_p=None, seed=0, params=None,
             cfg=None, vocab=None, start=None):
    """Continue `text` by n characters (at most MAX_NEW), each drawn with pycore.sampling's
    pipeline and a seed of its own from `seed`. The unknown token is never drawn (it stands
    for many characters, none of which it could write). `start`: extend() over the text's ids
    already made (its logits and keys and values), as a view keeps it between moves of the
    sampling controls. Returns the new text."""
    if params is None:
        params, cfg, record = poem_model()
        vocab = record["vocab"]
    if not 0 <= n <= MAX_NEW:
        raise ValueError(f"n = {n}: write between 0 and {MAX_NEW} characters")
    ids = read(text, vocab, cfg["n_positions"])["ids"]
    context = cfg["n_positions"]
    layers = layers_of(params, cfg)
    z, kept = extend(ids, 0, None, params, cfg, layers) if start is None else start
    new = []
    for s in np.random.default_rng(seed).integers(0, 2**31, size=n):
        if new and len(ids) <= context:  # one more position: the others' keys are kept
            z, kept = extend(ids[-1:], len(ids) - 1, kept, params, cfg, layers)
        elif new:  # past the context the window slides: every position moves, a whole pass
            z = last_logits(ids[-context:], params, cfg)
        z = z.copy()  # the kept text's logits stay as they are
        z[0] = -np.inf
        final = sampling.pipeline(z, temperature, top_k, top_p)["final"]
        j = int(sampling.sample(final, 1, int(s))[0])
        ids.append(j)
        new.append(vocab[j])
    return "".join(new)
