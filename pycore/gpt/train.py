"""Training: fresh sentences every step, the loss, AdamW, warmup + cosine, and saving.

The loss of a batch of B sentences is

    L = mean over sentences of CE(answer at "=")  +  lm_weight * mean over every other real
        position of CE(next token)

The first term is the task. The second is ordinary language-model training on the rest of the
sentence: it costs little (the logits are there anyway), it teaches the model the grammar, so
that the next-token distribution the page shows after any prefix (太 -> an adjective, 因为 ->
它) is meaningful, and it makes the nouns of one kind share a direction in the embedding
space sooner, which is what lets a rule learnt on training pairs carry over to held-out ones.

Each step draws its own sentences from a data generator seeded from the run's seed (every
sentence is drawn anew from the 67,200 distinct training sentences), so a run is
reproduced exactly by its seed and settings.
"""
import json
import sys
import time

import numpy as np

from .. import schedule
from . import adamw, corpus, evaluate, model

# The book's model and how it is trained. A plain dict: saved beside the weights.
BOOK = {
    "seed": 0,
    "model": model.config(d_model=48, n_heads=4, n_layers=2),
    "steps": 3000, "batch": 64,
    "peak_lr": 3e-3, "warmup": 100, "min_lr": 3e-4,
    "weight_decay": 0.1, "betas": [0.9, 0.95], "clip": 1.0,
    "lm_weight": 1.0,
    "eval_every": 250, "eval_sentences": 1000,
}


def loss_weights(b, lm_weight):
    """(B, T) weights: 1/B at each sentence's "=", lm_weight / (number of other real
    positions) at each of those, 0 on padding."""
    B, T = b["targets"].shape
    rows = np.arange(B)
    real = b["targets"] != corpus.PAD_ID  # (B, T)
    real[rows, b["query"]] = False
    w = np.where(real, lm_weight / max(int(real.sum()), 1), 0.0)  # (B, T)
    w[rows, b["query"]] = 1.0 / B
    return w


def data_rng(seed):
    """The generator of training sentences (separate from the one of the initial weights)."""
    return np.random.default_rng([seed, 1])


def learning_rate(settings, step):
    return schedule.learning_rate(step, settings["warmup"], settings["peak_lr"],
                                  settings["steps"], "cosine", settings["min_lr"])


def train_step(params, opt, settings, rng):
    """One step on a fresh batch: returns (loss, answer loss, gradient norm, lr)."""
    b = corpus.batch(corpus.sample(rng, "train", settings["batch"]))
    w = loss_weights(b, settings["lm_weight"])
    loss, grads, z = model.loss_and_grads(params, settings["model"], b["inputs"],
                                          b["targets"], w)
    grads, norm = adamw.clip(grads, settings["clip"])
    lr = learning_rate(settings, opt["t"])
    adamw.step(params, grads, opt, lr, settings["weight_decay"], tuple(settings["betas"]))
    # The answer's share of the loss: z holds the weighted positions in (B, T) order.
    at_answer = np.zeros(w.shape, dtype=bool)
    at_answer[np.arange(len(w)), b["query"]] = True
    z_answer = z[at_answer[w > 0]]  # (B, V)
    answer = model.cross_entropy(z_answer, b["answer"], np.full(len(w), 1.0 / len(w)))
    return loss, answer, norm, lr


def train(settings=BOOK, steps=None, out=sys.stdout, progress=True, evaluate_every=None):
    """Train from settings["seed"]; returns (params, record). record holds the settings, the
    loss of every step, the evaluations along the way and the final one.

    steps: stop early after that many steps (the schedule still spans settings["steps"]).
    """
    steps = settings["steps"] if steps is None else steps
    every = settings["eval_every"] if evaluate_every is None else evaluate_every
    params = model.init(settings["model"], settings["seed"])
    opt = adamw.init_state(params)
    rng = data_rng(settings["seed"])
    heldout = evaluate.heldout(settings["eval_sentences"])
    record = {"settings": settings, "losses": [], "answer_losses": [], "evaluations": []}
    bar = ProgressBar(steps, out) if progress else None
    started = time.perf_counter()
    for i in range(steps):
        loss, answer, norm, lr = train_step(params, opt, settings, rng)
        record["losses"].append(loss)
        record["answer_losses"].append(answer)
        last = i + 1 == steps
        if every and ((i + 1) % every == 0 or last):
            e = evaluate.evaluate(params, settings["model"], heldout)
            record["evaluations"].append({"step": i + 1, "accuracy": e["accuracy"],
                                          "best_attention": e["best_attention"],
                                          "train_loss": loss})
            if bar:
                bar.note(f"step {i + 1}: loss {loss:.4f}, held-out accuracy "
                         f"{100 * e['accuracy']:.1f} %, best head >= 0.5 on the answer in "
                         f"{100 * e['best_attention']:.1f} %")
        if bar:
            bar.update(i + 1, f"loss {loss:.4f} answer {answer:.4f}")
    record["seconds"] = time.perf_counter() - started
    if bar:
        bar.close()
    return params, record


class ProgressBar:
    """A one-line text progress bar ([#####.....] 1200/3000 ... 12 s, 25 s left), redrawn in
    place on a terminal and every tenth of the run otherwise (a log file stays short)."""

    def __init__(self, total, out, width=30):
        self.total, self.out, self.width = total, out, width
        self.tty = out.isatty() if hasattr(out, "isatty") else False
        self.started = time.perf_counter()
        self.shown = -1

    def update(self, done, text=""):
        tenth = done * 10 // self.total
        if not self.tty and tenth == self.shown:
            return
        self.shown = tenth
        elapsed = time.perf_counter() - self.started
        left = elapsed / done * (self.total - done)
        filled = done * self.width // self.total
        line = (f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} {text} "
                f"{elapsed:.0f} s, {left:.0f} s left")
        self.out.write(("\r" + line + "\033[K") if self.tty else line + "\n")
        self.out.flush()

    def note(self, text):
        self.out.write(("\r\033[K" if self.tty else "") + text + "\n")
        self.shown = -1

    def close(self):
        if self.tty:
            self.out.write("\n")
        self.out.flush()


def save(params, record, npz_path, json_path):
    """The weights as .npz (float64 arrays, one per parameter name; np.load reads it, also in
    Pyodide) and beside it a JSON file with the seed, settings, the first losses and the
    final metrics, for the tests and the page."""
    np.savez_compressed(npz_path, **params)
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump(record, f, ensure_ascii=False, indent=1)
        f.write("\n")


def load(npz_path):
    with np.load(npz_path) as data:
        return {name: data[name] for name in data.files}
