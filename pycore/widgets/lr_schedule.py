"""Widget lr-schedule: linear warmup, then a decay; the curve and the rate at a chosen step.

The plot is PLOT_W x PLOT_H SVG units (step 0 at x = 0, the last step at x = PLOT_W; rate 0
at y = PLOT_H, the peak at y = 0). The template adds margins around it for the axis labels.
"""
import math

import numpy as np

from ..notation import sci
from ..schedule import DECAYS, learning_rate, lr_curve

PLOT_W, PLOT_H = 560, 200
SAMPLES = 201  # 200 intervals: for a round total every sample is a round step
LABELS = {"cosine": "余弦", "inverse_sqrt": "平方根倒数", "linear": "线性"}

PARAMS = {
    "warmup": {"type": "int", "min": 0, "max": 50000, "default": 2000,
               "help": "steps of linear warmup from 0 to the peak (at most `total`)"},
    "peak": {"type": "float", "min": 1e-5, "max": 1e-2, "default": 3e-4,
             "help": "the learning rate at the end of warmup"},
    "total": {"type": "int", "min": 1000, "max": 1000000, "default": 100000,
              "help": "the step where cosine and linear decay end"},
    "decay": {"type": "choice", "choices": list(DECAYS), "default": "cosine",
              "help": "the shape after warmup"},
    "min_ratio": {"type": "float", "min": 0.0, "max": 1.0, "default": 0.1,
                  "help": "cosine only: the final rate as a fraction of the peak"},
    "step": {"type": "int", "min": 0, "max": 1000000, "default": 51000,
             "help": "the step whose rate is read out (at most `total`)"},
}


def to_plot(steps, rates, total, peak):
    """Steps and rates -> SVG x and y (arrays)."""
    x = np.asarray(steps, dtype=float) / total * PLOT_W
    y = PLOT_H * (1.0 - np.asarray(rates, dtype=float) / peak)
    return x, y


def ticks(total):
    """Five labelled steps along the x axis: 0, a quarter, ..., the total."""
    steps = [round(total * k / 4) for k in range(5)]
    return [{"x": s / total * PLOT_W, "label": str(s)} for s in steps]


def view(warmup, peak, total, decay, min_ratio, step):
    warmup, step = min(warmup, total), min(step, total)
    min_lr = peak * min_ratio if decay == "cosine" else 0.0  # the other two ignore it

    def rate(t):
        return learning_rate(t, warmup, peak, total, decay, min_lr)

    steps, rates = lr_curve(warmup, peak, total, decay, min_lr, n=SAMPLES)
    xs, ys = to_plot(steps, rates, total, peak)
    mid = warmup + (total - warmup) // 2  # halfway through the decay
    lr = rate(step)
    (mx,), (my,) = to_plot([step], [lr], total, peak)
    (px,), _ = to_plot([warmup], [peak], total, peak)
    return {
        "warmup": warmup, "total": total, "decay": decay, "decay_label": LABELS[decay],
        "min_ratio": min_ratio, "min_lr": sci(min_lr),
        "peak": sci(peak), "peak_value": peak, "peak_log": math.log10(peak),
        "step": step, "lr": sci(lr), "lr_value": lr,
        "mid_step": mid, "mid": sci(rate(mid)),
        "final": sci(rate(total)),
        "grid": max(1, total // (SAMPLES - 1)),  # how far one arrow key (or hover cell) moves
        "curve": {"steps": steps, "rates": rates},
        "plot": {
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys)),
            "marker": [mx, my],
            "peak_x": px,
        },
        "ticks": ticks(total),
    }
