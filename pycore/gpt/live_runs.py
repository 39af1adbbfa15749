"""Live training runs kept between calls: where the train-live widget's state lives.

A widget's view is a function of its parameters; training is a process with a state (weights,
AdamW's moments, the data generator). The two meet here. The Python that computes the views
(in the page's worker, in Pyodide) keeps one run per seed in this module, and

    run = advance(seed, steps)

brings that run to exactly `steps` training steps and returns it:
- a run behind `steps` trains the missing steps, in place (the page asks for a few more
  steps per call, so each call only trains those);
- a run ahead of `steps` (the reader reset, or another page went further) starts again from
  its seed and trains up to `steps`;
so the same seed and steps give the same numbers, however the calls were split, in any
process. The held-out evaluation is made at step 0 and at every multiple of EVAL_EVERY, never
at the step a call happened to end on, for the same reason. The last KEEP seeds are kept.

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
KEEP = 3

_runs = OrderedDict()  # seed -> run, the most recently used last


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


def advance(seed, steps):
    """The run of `seed`, brought to exactly `steps` steps (see the module docstring)."""
    if steps < 0:
        raise ValueError(f"steps = {steps}: a run has at least 0 steps")
    run = _runs.get(seed)
    if run is None or run["state"]["step"] > steps:
        run = new_run(seed)
    _runs[seed] = run
    _runs.move_to_end(seed)
    while len(_runs) > KEEP:
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
