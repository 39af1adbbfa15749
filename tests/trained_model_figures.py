"""Figures of the book's trained model that take seconds to compute, made once per test run:
chapter 13b (tests/test_chapter_trained_model.py) and docs/model.md (tests/test_docs_model.py)
both state them."""
import copy
import functools

from pycore.gpt import ablation, corpus, evaluate, live_runs, run

NOUNS = set(corpus.ANIMATE) | set(corpus.OBSTACLES)


def blanked(tokens):
    """A sentence up to "=" with its two nouns replaced by "_": every word but the nouns."""
    return tuple("_" if w in NOUNS else w for w in tokens[:-1])


@functools.lru_cache(maxsize=1)
def answers_without_nouns():
    """{blanked sentence: the answers the grammar gives it}, by brute force over every sentence
    of both splits: what a reader of every word but the nouns could still answer."""
    seen = {}
    for s in corpus.every_sentence("train") + corpus.every_sentence("heldout"):
        seen.setdefault(blanked(s["tokens"]), set()).add(s["answer"])
    return seen


@functools.lru_cache(maxsize=1)
def where_nouns_decide():
    """(the held-out sentences whose other words leave more than one answer, the committed
    model's evaluation on them)."""
    seen = answers_without_nouns()
    decide = [s for s in corpus.every_sentence("heldout") if len(seen[blanked(s["tokens"])]) > 1]
    params, cfg, _ = run.book_model()
    return decide, evaluate.evaluate(params, cfg, decide)


@functools.lru_cache(maxsize=4)
def live_evaluations(seed, steps):
    """The evaluations (every live_runs.EVAL_EVERY steps) of a live run trained to `steps`."""
    live_runs.forget()
    evaluations = copy.deepcopy(live_runs.advance(seed, steps)["evaluations"])
    live_runs.forget()
    return evaluations


def percent(x):
    """A share as the book writes it: 100, 99.5."""
    return f"{100 * x:.1f}".removesuffix(".0")


@functools.lru_cache(maxsize=16)
def ablated_accuracy(off, at_query=False):
    """The committed model's accuracy on all 22,400 held-out sentences with the heads `off`
    ((layer, head), ...) zeroed: at every position, or only at "=" when at_query."""
    params, cfg, _ = run.book_model()
    return ablation.accuracy(params, cfg, corpus.every_sentence("heldout"), off, at_query)
