"""Live training runs kept between calls: where the train-live widget's state lives.

A widget's view is a function of its parameters; training is a process with a state (weights,
AdamW's moments, the data generator). The two meet here. The Python that computes the views
(the book's worker, in Pyodide, shared by every open page of the book) keeps runs in this
module, each one of a page and a seed, and

    run = advance(seed, steps, page)

brings that page's run of that seed to exactly `steps` training steps and returns it:
- a run behind `steps` trains the missing steps, in place (the page asks for a few more
  steps per call, so each call only trains those);
- a run ahead of `steps` (the reader reset) starts again from its seed and trains up to
  `steps`;
so the same seed and steps give the same numbers, however the calls were split, in any
process. The held-out evaluation is made at step 0 and at every multiple of EVAL_EVERY, never
at the step a call happened to end on, for the same reason.

A run belongs to the page that asked for it: another page training the same seed (another tab
of the chapter) trains a run of its own, and never moves this one back to its own step (were
they shared, two tabs would each start the run again from step 0 at every call). `page` is the
worker's number for the page's connection (None: the build, or a test); forget_page drops a
page's runs when it goes away. Each page keeps its last KEEP seeds, and at most MAX_RUNS runs
are kept in all, the least recently used going first (a page may go without the worker
hearing of it).

A run: state (pycore.gpt.live's), losses and answer_losses (one per step), evaluations
[{step, accuracy, answer_loss, attention (L, H): each head's share of held-out sentences with
>= 0.5 of its weight on the answer at "="}], and maps(run): every head's attention on the
running example and its 宽 twin at the current step.
"""
import functools
from collections import OrderedDict

import numpy as np

from . import corpus, evaluate, live, model

EVAL_EVERY = 25
KEEP = 3       # seeds per page
MAX_RUNS = 12  # runs in all

_runs = OrderedDict()  # (page, seed) -> run, the most recently used last


@functools.lru_cache(maxsize=2)
def heldout(n):
    """The fixed held-out sentences every live evaluation uses."""
    return evaluate.heldout(n)


def _evaluate(run):
    s = run["state"]
    e = evaluate.evaluate(s["params"], s["settings"]["model"],
                          heldout(s["settings"]["eval_sentences"]))
    run["evaluations"].append({"step": s["step"], "accuracy": e["accuracy"],
                               "answer_loss": e["loss"], "attention": e["attention"]})


def new_run(seed):
    """A run at step 0 (weights drawn from the seed), evaluated once."""
    run = {"seed": seed, "state": live.init(seed), "losses": [], "answer_losses": [],
           "evaluations": [], "maps": None}
    _evaluate(run)
    return run


def advance(seed, steps, page=None):
    """The page's run of `seed`, brought to exactly `steps` steps (see the module docstring)."""
    if steps < 0:
        raise ValueError(f"steps = {steps}: a run has at least 0 steps")
    key = (page, seed)
    run = _runs.get(key)
    if run is None or run["state"]["step"] > steps:
        run = new_run(seed)
    _runs[key] = run
    _runs.move_to_end(key)
    mine = [k for k in _runs if k[0] == page]
    for old in mine[:-KEEP]:
        del _runs[old]
    while len(_runs) > MAX_RUNS:
        _runs.popitem(last=False)
    state = run["state"]
    while state["step"] < steps:
        n = min(steps - state["step"], EVAL_EVERY - state["step"] % EVAL_EVERY)
        report = live.step(state, n, report=False)
        run["losses"] += report["losses"]
        run["answer_losses"] += report["answer_losses"]
        if state["step"] % EVAL_EVERY == 0:
            _evaluate(run)
    return run


def maps(run):
    """Every head's attention on live.EXAMPLES at the run's current step: weights
    (2, L, H, T, T), answer_position [0, 3], on_answer (2, L, H) (each head's weight at "="
    on the right noun). Computed once per step."""
    step = run["state"]["step"]
    if run["maps"] is None or run["maps"]["step"] != step:
        s = run["state"]
        ids = np.array([corpus.encode(words) for words in live.EXAMPLES])  # (2, T)
        _, cache = model.forward(s["params"], s["settings"]["model"], ids)
        w = np.stack([c["attn"]["weights"] for c in cache["blocks"]], axis=1)  # (2, L, H, T, T)
        where = [words.index(corpus.answer_of(words)) for words in live.EXAMPLES]
        on_answer = np.stack([w[b, :, :, -1, where[b]] for b in range(len(where))])  # (2, L, H)
        run["maps"] = {"step": step, "weights": w, "answer_position": where,
                       "on_answer": on_answer}
    return run["maps"]


def forget():
    """Drop every run (tests)."""
    _runs.clear()


def forget_page(page):
    """Drop the runs of a page that went away: they would only take memory."""
    for key in [k for k in _runs if k[0] == page]:
        del _runs[key]


def table():
    """[(page, seed, step)] of every run kept, the most recently used last (tests)."""
    return [(page, seed, run["state"]["step"]) for (page, seed), run in _runs.items()]
