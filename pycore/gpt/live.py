"""Training in the page: the same model and training code, a smaller config, step by step.

    state = init(seed)        # plain data: settings, weights, AdamW moments, the data
                              # generator's state, the step count
    report = step(state, n)   # n more steps (state is updated in place), then a report

The state holds NumPy arrays and plain Python values only, so a worker keeps it between calls
for free, and it can be copied (copy.deepcopy) or sent as JSON (pycore.widgets.plain).

A report: step, lr, the n losses and answer losses, held-out accuracy on a fixed sample of
held-out sentences, and the attention of every head on the running example (with 累) and on
its twin (with 宽), the two sentences whose answer flips.

LIVE is sized for the page: NumPy in Pyodide has no BLAS, and the reader should see the
accuracy climb within a minute (benchmarks/gpt.py measures steps per second).
"""
import copy
import functools

import numpy as np

from . import adamw, corpus, evaluate, model, train

LIVE = {
    "seed": 0,
    "model": model.config(d_model=32, n_heads=4, n_layers=2),
    "steps": 1000, "batch": 16,
    "peak_lr": 3e-3, "warmup": 100, "min_lr": 3e-4,
    "weight_decay": 0.1, "betas": [0.9, 0.95], "clip": 1.0,
    "lm_weight": 1.0,
    "eval_sentences": 200,
}

EXAMPLES = [
    "小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".split(),
    "小猫 没有 过 马路 因为 它 太 宽 了 ， 它 =".split(),
]


def init(seed=0, settings=None):
    """A fresh run: weights drawn from seed, AdamW at step 0, the data generator at its start.
    `settings` defaults to LIVE (its seed is replaced by `seed`)."""
    settings = copy.deepcopy(LIVE if settings is None else settings)
    settings["seed"] = int(seed)
    params = model.init(settings["model"], settings["seed"])
    return {"settings": settings, "params": params, "opt": adamw.init_state(params),
            "rng": train.data_rng(settings["seed"]).bit_generator.state, "step": 0}


@functools.lru_cache(maxsize=4)
def _heldout(n):
    return evaluate.heldout(n)


def step(state, n=1, report=True):
    """Train n steps (state changes in place). Returns the report (see the module docstring),
    or just the losses with report=False (no evaluation: faster)."""
    rng = np.random.default_rng()
    rng.bit_generator.state = state["rng"]
    losses, answer_losses = [], []
    for _ in range(n):
        loss, answer, _, lr = train.train_step(state["params"], state["opt"],
                                               state["settings"], rng)
        losses.append(loss)
        answer_losses.append(answer)
    state["rng"] = rng.bit_generator.state
    state["step"] = state["opt"]["t"]
    out = {"step": state["step"], "lr": train.learning_rate(state["settings"], state["step"]),
           "losses": losses, "answer_losses": answer_losses}
    if report:
        out.update(snapshot(state))
    return out


def snapshot(state):
    """Held-out accuracy and the attention on the two example sentences, without training.

    attention: {tokens: the two sentences, weights (2, L, H, T, T): every head's map,
    answer_position: where the right noun is in each, on_answer (2, L, H): each head's weight
    at "=" on the right noun}."""
    cfg = state["settings"]["model"]
    e = evaluate.evaluate(state["params"], cfg, _heldout(state["settings"]["eval_sentences"]))
    _, cache = model.forward(state["params"], cfg, np.array([corpus.encode(s) for s in EXAMPLES]))
    w = np.stack([c["attn"]["weights"] for c in cache["blocks"]], axis=1)  # (2, L, H, T, T)
    where = [s.index(corpus.answer_of(s)) for s in EXAMPLES]
    on_answer = np.stack([w[b, :, :, -1, where[b]] for b in range(len(EXAMPLES))])  # (2, L, H)
    return {"accuracy": e["accuracy"], "answer_loss": e["loss"],
            "heldout_attention": e["attention"], "best_head": e["best_head"],
            "attention": {"tokens": EXAMPLES, "weights": w, "answer_position": where,
                          "on_answer": on_answer}}
