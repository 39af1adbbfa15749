"""Beam search against sampling, on a small hand-made next-token model.

The model continues 「小猫 没有 过 马路 因为 它 太 …」. It is a bigram table: the logits of
the next token depend on the last token only (a real model reads the whole prefix; one row
per previous token is enough to see how the decoding rules differ). Its first row, after 太,
is the sampling chapter's distribution (example.NEXT_TOKENS and NEXT_LOGITS); the other rows
(ROWS) continue with 了, a comma, 它 太 … again, or 所以 它 想 睡 了, and 。 ends the sentence
(EOS). Tokens missing from a row have probability 0.

The table is built so that the most probable token after each token closes a loop:
太 -> 累 -> 了 -> ， -> 它 -> 太. Greedy decoding (beam width 1) therefore never stops:
累 了 ， 它 太 累 了 ， 它 太 …

Beam search keeps the `width` best partial sentences (by log-probability, the sum of the
log-probabilities of their tokens). At each step every kept sentence is extended by every
token; the candidates are sorted; a candidate that ends with 。 is set aside as finished, the
others fill the beam until it holds `width` of them. After the last step the answer is the
best of the finished and the still-open sentences by

    score = log p / len ** alpha      (len = tokens generated, 。 included)

alpha = 0 ranks by probability alone, and since every token multiplies in a probability
below 1, shorter sentences win: beam search's well-known preference for stopping early.
alpha = 1 ranks by the average log-probability per token (the usual "length penalty"
default), and now the loop, whose every step is the likeliest one, beats every sentence that
ends: beam search repeats itself. Sampling draws each token at random (temperature, top-k and
top-p as in pycore.sampling) and mostly leaves the loop within a few tokens.

Numbers the chapter quotes (tests/test_pycore_beam.py), max_new = 12:
- Greedy and beam (width 3, alpha = 1): 累 了 ， 它 太 累 了 ， 它 太 累 了, log p = -6.53,
  -0.544 per token, 5 repeated trigrams.
- Beam (width 3, alpha = 0): 累 了 。, log p = ln 0.480 + ln 0.736 + ln 0.401 = -1.95.
- Sampling at T = 1, seeds 0 .. 999: 14.7 % of the samples repeat a trigram (beam: every
  time, 5 of them), 78.9 % end with 。 within 12 tokens; mean length 6.7 tokens.
"""
import functools

import numpy as np

from . import example, sampling
from .softmax import softmax

EOS = "。"
PROMPT = ["小猫", "没有", "过", "马路", "因为", "它", "太"]
VOCAB = list(example.NEXT_TOKENS) + ["了", "，", "它", "太", "所以", "想", "睡", EOS]

_AFTER_ADJECTIVE = {"了": 2.0, "，": 0.5, EOS: 0.0}
ROWS = {  # previous token -> {next token: logit}; the row of 太 is the sampling chapter's
    "太": dict(zip(example.NEXT_TOKENS, example.NEXT_LOGITS.tolist())),
    **{adj: _AFTER_ADJECTIVE for adj in example.NEXT_TOKENS},
    "了": {"，": 1.0, EOS: 0.6},
    "，": {"它": 1.2, "所以": 0.8, "想": 0.0},
    "它": {"太": 1.0, "想": 0.6},
    "所以": {"它": 1.0, "想": 0.5},
    "想": {"睡": 0.0},
    "睡": {"了": 1.0, EOS: 0.8, "，": 0.0},
}


def logit_table():
    """(V, V): row = previous token, column = next token; -inf where the table has nothing.
    The row of 。 is all -inf: nothing follows the end."""
    index = {t: i for i, t in enumerate(VOCAB)}
    table = np.full((len(VOCAB), len(VOCAB)), -np.inf)
    for prev, row in ROWS.items():
        for nxt, z in row.items():
            table[index[prev], index[nxt]] = z
    return table


def log_probs(table=None):
    """(V, V) log softmax of each row (-inf stays -inf; the EOS row stays all -inf)."""
    table = logit_table() if table is None else np.asarray(table, dtype=float)
    out = np.full(table.shape, -np.inf)
    live = np.isfinite(table).any(axis=1)
    with np.errstate(divide="ignore"):  # log 0 = -inf for the missing tokens
        out[live] = np.log(softmax(table[live], axis=-1))
    return out


@functools.lru_cache(maxsize=1)
def book_log_probs():
    """log_probs() of the book's table, worked out once (read-only: it is shared)."""
    lp = log_probs()
    lp.flags.writeable = False
    return lp


def score(logp, length, alpha):
    """The length-penalised score used to pick the answer: logp / length ** alpha."""
    return logp / (length ** alpha) if length else logp


def _start(start):
    return VOCAB.index(start if start is not None else PROMPT[-1])


def beam_search(width=3, max_new=12, alpha=1.0, table=None, start=None, eos=EOS):
    """Beam search from the prompt (or from token `start`), for up to max_new tokens.

    Returns steps (per step: the open beams and the sentences finished at that step, each
    with tokens, logp and score), finished (every finished sentence), and best (tokens,
    logp, score, finished).
    Ties (equal log-probabilities) keep the order of the candidates: beams in order, and
    tokens in VOCAB order within a beam.
    """
    if width < 1 or max_new < 1:
        raise ValueError(f"width and max_new must be >= 1, not {width} and {max_new}")
    lp = book_log_probs() if table is None else log_probs(table)
    eos_id = VOCAB.index(eos) if eos is not None else -1
    alive = [((), 0.0)]  # (token ids, log p)
    last = _start(start)
    finished, steps = [], []
    for step in range(1, max_new + 1):
        candidates = []
        for ids, logp in alive:
            row = lp[ids[-1] if ids else last]
            for tok in np.flatnonzero(np.isfinite(row)):
                candidates.append((ids + (int(tok),), logp + float(row[tok])))
        # stable, and equal up to rounding counts as equal: two orders of the same tokens
        # differ in the last bits of their sums, and differently in CPython and Pyodide
        order = sorted(range(len(candidates)), key=lambda c: -tie(candidates[c][1]))
        alive, done_now = [], []
        for c in order:
            ids, logp = candidates[c]
            if ids[-1] == eos_id:
                done_now.append((ids, logp))
            elif len(alive) < width:
                alive.append((ids, logp))
            if len(alive) == width:
                break
        finished += done_now
        steps.append({"step": step,
                      "beams": [_hyp(ids, logp, alpha, False) for ids, logp in alive],
                      "finished": [_hyp(ids, logp, alpha, True) for ids, logp in done_now]})
        if not alive:
            break
    pool = [(ids, logp, True) for ids, logp in finished] + \
           [(ids, logp, False) for ids, logp in alive]
    best = max(pool, key=lambda h: tie(score(h[1], len(h[0]), alpha)))  # first of equals
    return {"width": width, "max_new": max_new, "alpha": alpha, "steps": steps,
            "finished": [_hyp(ids, logp, alpha, True) for ids, logp in finished],
            "best": _hyp(*best[:2], alpha, best[2])}


def tie(value):
    """A log-probability or score rounded so that sums equal in exact arithmetic compare equal."""
    return round(value, 9)


def _hyp(ids, logp, alpha, finished):
    tokens = [VOCAB[i] for i in ids]
    return {"tokens": tokens, "logp": logp, "score": score(logp, len(ids), alpha),
            "finished": finished, "repeated_trigrams": repeated_ngrams(tokens, 3)}


def greedy(max_new=12, table=None, start=None, eos=EOS):
    """The most probable token at every step (the first in VOCAB order on a tie)."""
    lp = log_probs(table)
    cur, ids, logp = _start(start), [], 0.0
    for _ in range(max_new):
        prev, cur = cur, int(np.argmax(lp[cur]))
        ids.append(cur)
        logp += float(lp[prev, cur])
        if eos is not None and VOCAB[cur] == eos:
            break
    return {"tokens": [VOCAB[i] for i in ids], "logp": logp}


def step_distributions(temperature=1.0, top_k=None, top_p=None, table=None):
    """(V, V): for each previous token, the distribution sampling draws the next one from
    (pycore.sampling's pipeline on that row of logits). The EOS row stays all zeros."""
    table = logit_table() if table is None else np.asarray(table, dtype=float)
    out = np.zeros(table.shape)
    for prev in np.flatnonzero(np.isfinite(table).any(axis=1)):
        out[prev] = sampling.pipeline(table[prev], temperature, top_k, top_p,
                                      tokens=VOCAB)["final"]
    return out


def sample_sentence(seed, temperature=1.0, top_k=None, top_p=None, max_new=12, table=None,
                    start=None, dists=None):
    """One sentence drawn token by token from step_distributions, with pycore.sampling's
    seeded draw (seed [seed, step]: every step has its own stream).

    logp is the sentence's log-probability under the model itself (T = 1, no cuts), to set
    beside the beam's. dists: step_distributions(...) computed already (for many seeds).
    """
    lp = book_log_probs() if table is None else log_probs(table)
    if dists is None:
        dists = step_distributions(temperature, top_k, top_p, table)
    cur, tokens, logp, probs = _start(start), [], 0.0, []
    for step in range(max_new):
        # sampling.sample(dists[cur], 1, [seed, step]), with the uniform kept
        c = np.cumsum(dists[cur])
        c = c / c[-1]
        nxt = int(np.searchsorted(c, uniform(seed, step), side="right"))
        logp += float(lp[cur, nxt])
        probs.append(float(dists[cur, nxt]))
        tokens.append(VOCAB[nxt])
        cur = nxt
        if VOCAB[nxt] == EOS:
            break
    return {"seed": seed, "tokens": tokens, "logp": logp, "step_probs": probs,
            "repeated_trigrams": repeated_ngrams(tokens, 3)}


@functools.lru_cache(maxsize=4096)
def uniform(seed, step):
    """The uniform in [0, 1) that draws token `step` of the sentence of `seed`, from its own
    stream [seed, step]: the same at every temperature, so it is drawn once."""
    return float(np.random.default_rng([seed, step]).random())


def repeated_ngrams(tokens, n=3):
    """How many of the n-grams of `tokens` already occurred earlier in it."""
    seen, repeats = set(), 0
    for i in range(len(tokens) - n + 1):
        gram = tuple(tokens[i:i + n])
        repeats += gram in seen
        seen.add(gram)
    return repeats


def repeat_share(n_samples=1000, temperature=1.0, top_k=None, top_p=None, max_new=12):
    """Over seeds 0 .. n_samples-1: the share of samples with a repeated trigram, the share
    that ended with 。 within max_new tokens, and the mean length."""
    dists = step_distributions(temperature, top_k, top_p)
    runs = [sample_sentence(s, max_new=max_new, dists=dists) for s in range(n_samples)]
    return {"n_samples": n_samples,
            "repeated": sum(r["repeated_trigrams"] > 0 for r in runs) / n_samples,
            "ended": sum(r["tokens"][-1] == EOS for r in runs) / n_samples,
            "mean_length": sum(len(r["tokens"]) for r in runs) / n_samples}
