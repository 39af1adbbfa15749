"""Widget train-live: a smaller model of the same code (pycore.gpt.live.LIVE) trained in the
reader's page, step by step.

A view cannot hold state, and training is a process: the runs live in pycore.gpt.live_runs,
one per page and seed, in the Python that computes the views (the book's worker, shared by
every open page; `page` is the worker's number for the page asking, see call_json). `steps`
is a parameter like any other, and the view is reproducible: the same seed and steps give the
same numbers, however the page split its calls (live_runs explains how). While the reader
trains, the page asks again and again for a few more steps (pycore/widgets/train_live/widget.js);
a step count behind the run starts it again from its seed.

The view: the loss (every step's loss, and the answer's share of it) and the held-out accuracy
(every EVAL_EVERY steps, on 200 held-out sentences) as charts that grow, one head's attention
on the running example (or its 宽 twin) as a heatmap and as curves from "=", and every head's
weight at "=" on the right noun.

The view comes in parts (PARTS, pycore/view_parts.py): the pictures' grids, the same at
every step, come once; the run's progress and the head drawn read the run (`page`), so they
are computed and sent at every call (each keeps its own small cache, for a click on another
head at the same step).
"""
import functools

import numpy as np

from ... import figure
from ...gpt import corpus, live, live_runs

MAX_STEPS = live.LIVE["steps"]  # where the schedule ends
WINDOW = 5         # the loss curve: the mean of every 5 steps
TARGET = 0.95      # the accuracy the chapter states
HEADS = [f"{layer}-{head}" for layer in range(live.LIVE["model"]["n_layers"])
         for head in range(live.LIVE["model"]["n_heads"])]
T = len(live.EXAMPLES[0])
# The pictures' layout. On a wide screen the widget is two columns, one screen tall
# (widget.css): what training moves on the left (its charts, every head's bars), the head
# drawn on the right, each about 440 px. So the charts and the bars are flat, and the
# heatmap's cells wider than tall: its width (428 units) is the right column's, its twelve
# rows take the height its controls and curves leave. The charts and bars stay 400 units
# wide: on a 360 px phone (drawn at 0.86) their ticks, grown to 11 px (text-size.js), still
# clear each other at the corner of the axes; the heatmap's columns (drawn at 0.8 there)
# stay wider than a two-character word at that size.
CHART = {"width": 400, "height": 130, "margin": (12, 14, 30, 44)}
BARS = {"width": 400, "height": 110}
CURVES = {"width": 400, "height": 110}
HEAT = {"cell_w": 32.0, "cell_h": 24.0, "label_w": 44.0, "label_h": 22.0}
INPUTS = ("page",)

PARAMS = {
    "seed": {"type": "int", "min": 0, "max": 99, "default": 0,
             "help": "seed of the run: the initial weights and the training sentences"},
    "steps": {"type": "int", "min": 0, "max": MAX_STEPS, "default": 0,
              "help": "training steps done (the page adds a few per call while it trains)"},
    "head": {"type": "choice", "choices": HEADS, "default": "1-0",
             "help": "the head drawn: layer-head (1-0 points at the answer for seed 0)"},
    "adjective": {"type": "choice", "choices": ["累", "宽"], "default": "累",
                  "help": "which example sentence the head is drawn on"},
}


def loss_chart(losses, answer_losses):
    """Both losses as the means of every WINDOW steps, on fixed axes (0 to MAX_STEPS steps,
    0 to 9 nats), with a crosshair slot every EVAL_EVERY steps."""
    n = len(losses)
    ends = list(range(WINDOW, n + 1, WINDOW)) + ([n] if n % WINDOW else [])
    means = lambda xs: [float(np.mean(xs[max(0, e - WINDOW):e])) for e in ends]  # noqa: E731
    total, answer = means(losses), means(answer_losses)
    chart = figure.line_chart([{"name": "损失", "x": ends, "y": total},
                               {"name": "答案的损失", "x": ends, "y": answer}],
                              x_domain=(0, MAX_STEPS), y_domain=(0, 9), x_label="训练步数",
                              y_label="损失（nat）", **CHART)
    at = {e: y for e, y in zip(ends, total) if e % live_runs.EVAL_EVERY == 0}
    wrong = {e: y for e, y in zip(ends, answer) if e % live_runs.EVAL_EVERY == 0}
    chart["slots"] = figure.probe_slots(
        chart, SLOTS, at, x_domain=(0, MAX_STEPS), y_domain=(0, 9),
        say=lambda x, y: f"第 {x} 步：损失 {y:.3f}，答案的损失 {wrong[x]:.3f}")
    return chart


SLOTS = list(range(0, MAX_STEPS + 1, live_runs.EVAL_EVERY))


def accuracy_chart(evaluations):
    steps = [e["step"] for e in evaluations]
    acc = [e["accuracy"] for e in evaluations]
    chart = figure.line_chart([{"name": "留出集准确率", "x": steps, "y": acc}],
                              x_domain=(0, MAX_STEPS), y_domain=(0, 1), x_label="训练步数",
                              y_label="留出集准确率", **CHART)
    for t in chart["y_ticks"]:
        if t["label"]:
            t["label"] = f"{round(100 * float(t['label']))}%"
    chart["slots"] = figure.probe_slots(
        chart, SLOTS, dict(zip(steps, acc)), x_domain=(0, MAX_STEPS), y_domain=(0, 1),
        say=lambda x, y: f"第 {x} 步：留出集准确率 {100 * y:.1f} %")
    p = chart["plot"]
    chart["target_y"] = figure.r(figure.scale(TARGET, 0, 1, p["y"] + p["h"], p["y"]))
    return chart


RECENT = 10


def recent(losses, answers):
    """The last RECENT steps' losses, in RECENT slots (the first ones hidden before step 10)."""
    n = len(losses)
    pad = max(0, RECENT - n)
    take = lambda xs: np.array([0.0] * pad + list(xs[n - (RECENT - pad):]))  # noqa: E731
    return {"steps": np.maximum(np.arange(n - RECENT, n) + 1, 0),
            "hidden": np.arange(RECENT) < pad, "losses": take(losses),
            "answer_losses": take(answers)}


def evaluation_rows(evaluations):
    """One row per slot of the accuracy chart, as text (a slot not reached yet is hidden)."""
    done = {e["step"]: e for e in evaluations}
    return [{"step": str(s), "accuracy": f"{100 * done[s]['accuracy']:.1f} %",
             "answer_loss": f"{done[s]['answer_loss']:.4f}", "hidden": False} if s in done else
            {"step": "", "accuracy": "", "answer_loss": "", "hidden": True} for s in SLOTS]


# The two parts below read the run (`page`), so parts.py computes them at every call; cached
# here per (seed, steps, page), a view of the same step (another head) reads the run once.
@functools.lru_cache(maxsize=4)
def progress(seed, steps, page=None):
    """Everything that depends on the run's progress only: the charts and the figures."""
    run = live_runs.advance(seed, steps, page)
    losses, answers = run["losses"], run["answer_losses"]
    last = run["evaluations"][-1]
    reached = next((e["step"] for e in run["evaluations"] if e["accuracy"] >= TARGET), None)
    lr = live.train.learning_rate(run["state"]["settings"], steps)
    return {
        "seed": seed, "steps": steps,
        "loss_chart": loss_chart(losses, answers),
        "accuracy_chart": accuracy_chart(run["evaluations"]),
        "step": steps, "lr": lr,
        "loss_text": f"{losses[-1]:.3f}" if losses else "—",
        "recent": recent(losses, answers),
        "accuracy": last["accuracy"], "accuracy_text": f"{100 * last['accuracy']:.1f} %",
        "evaluated_at": last["step"], "lr_text": f"{lr:.2e}",
        "evaluation_rows": evaluation_rows(run["evaluations"]),
        "reached": (f"第 {reached} 步第一次达到 {TARGET:.0%}" if reached is not None else
                    f"还没到 {TARGET:.0%}"),
        "state_note": ("还没开始训练：权重还是随机数" if steps == 0 else
                       f"训练了 {steps} 步（学习率 {lr:.2e}）" if steps < MAX_STEPS else
                       f"训练完了 {MAX_STEPS} 步（预热 + 余弦衰减到头）"),
    }


@functools.lru_cache(maxsize=16)
def drawn_head(seed, steps, head, adjective, page=None):
    """One head's attention on one example sentence at the run's current step."""
    run = live_runs.advance(seed, steps, page)
    maps = live_runs.maps(run)
    b = 0 if adjective == "累" else 1
    words = live.EXAMPLES[b]
    layer, h = (int(x) for x in head.split("-"))
    w = maps["weights"][b, layer, h]  # (T, T)
    noun = maps["answer_position"][b]
    heat = figure.heatmap(w, words, words, form="columns", weights=True, digits=3,
                          selected_row=T - 1, selected_col=noun, **HEAT)
    on = maps["on_answer"][b]  # (L, H)
    best = np.unravel_index(int(np.argmax(on)), on.shape)
    return {
        "head": head, "adjective": adjective,
        "tokens": np.array(words), "answer": words[noun],
        "heat": {"c": heat["cells"]["c"], "say": heat["cells"]["say"],
                 "row_y": heat["row_band"]["y"], "col_x": heat["col_band"]["x"]},
        "curves": figure.attention_curves(words, w[-1], T - 1, columns=True, **CURVES),
        "queried": np.arange(T) == T - 1,
        "on_answer": {"weight": w[-1, noun],
                      "bars": figure.bars(on.reshape(-1), [f"L{a}·头{c}" for a, c in
                                                           (x.split("-") for x in HEADS)],
                                          top=1.0, digits=2, **BARS)},
        "best": f"L{best[0]}·头{best[1]}",
        "head_name": f"L{layer}·头{h}",
    }


def fixed():
    """The grids of the pictures, the same at every step."""
    blank = [""] * T
    heat = figure.heatmap(np.zeros((T, T)), blank, blank, form="columns", weights=True, **HEAT)
    heat["cells"]["masked"] = heat["cells"]["j"] > heat["cells"]["i"]
    curves = figure.attention_curves(blank, np.ones(T) / T, T - 1, **CURVES)
    return {"geometry": {"heat": heat, "curves": {k: curves[k] for k in
                                                  ("width", "height", "top", "bottom")}},
            "max_steps": MAX_STEPS, "eval_every": live_runs.EVAL_EVERY,
            "head_labels": {x: f"L{x[0]}·头{x[2]}" for x in HEADS}}


PARTS = (fixed, progress, drawn_head)


def page_closed(page):
    """The page went away (pycore.widgets.page_closed): its runs go with it."""
    live_runs.forget_page(page)
