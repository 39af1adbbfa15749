"""Widget lr-schedule: linear warmup, then a decay; the curve and the rate at a chosen step.

The picture is a figure.line_chart of the rate against the step (rates in units of the
peak's power of ten, so the axis reads 0 to 3.0 "x 10^-4"), with the end of warmup and the
chosen step marked on the curve. The page maps a pointer on the plot to a step with the
plot's geometry (view["chart"]["plot"], the total and the grid of sample steps).
"""
from ... import figure
from ...notation import sci
from ...schedule import DECAYS, learning_rate, lr_curve

SAMPLES = 101  # the curve's points: 100 intervals, round steps for a round total
CELLS = 200    # the chosen step moves on a grid of total / 200 steps (a key, a pointer)
LABELS = {"cosine": "余弦", "inverse_sqrt": "平方根倒数", "linear": "线性"}
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

PARAMS = {
    "warmup": {"type": "int", "min": 0, "max": 50000, "default": 2000, "step": 100,
               "help": "steps of linear warmup from 0 to the peak (at most `total`)"},
    "peak": {"type": "float", "min": 1e-5, "max": 1e-2, "default": 3e-4, "scale": "log",
             "help": "the learning rate at the end of warmup"},
    "total": {"type": "int", "min": 1000, "max": 1000000, "default": 100000, "scale": "log",
              "help": "the step where cosine and linear decay end"},
    "decay": {"type": "choice", "choices": list(DECAYS), "default": "cosine",
              "help": "the shape after warmup"},
    "min_ratio": {"type": "float", "min": 0.0, "max": 1.0, "default": 0.1, "step": 0.05,
                  "help": "cosine only: the final rate as a fraction of the peak"},
    "step": {"type": "int", "min": 0, "max": 1000000, "default": 51000,
             "help": "the step whose rate is read out (at most `total`)"},
}


def power_of_ten(e):
    """10^-4 as the page prints it: '10⁻⁴'."""
    return "10" + str(e).translate(SUPERSCRIPT)


def sci_text(x, digits=2):
    """3e-4 -> '3.00 × 10⁻⁴' (a value beside a slider)."""
    s = sci(x, digits)
    return f"{s['m']:.{digits}f} × {power_of_ten(s['e'])}"


def schedule(warmup, peak, total, decay, min_ratio):
    """The schedule and its curve: picking another step (a key, a pointer on the plot) leaves
    this part as it is and only moves the marker (`reading`)."""
    warmup = min(warmup, total)
    min_lr = peak * min_ratio if decay == "cosine" else 0.0  # the other two ignore it
    e = sci(peak)["e"]
    unit = 10.0 ** e  # the y axis counts in units of the peak's power of ten
    steps, rates = lr_curve(warmup, peak, total, decay, min_lr, n=SAMPLES)
    chart = figure.line_chart([{"name": "学习率", "x": steps, "y": rates / unit}],
                              width=380, height=210, margin=(22, 16, 32, 30),
                              x_domain=(0, total), y_domain=(0, peak / unit))
    rate = lambda t: learning_rate(t, warmup, peak, total, decay, min_lr)  # noqa: E731
    mid = warmup + (total - warmup) // 2  # halfway through the decay
    warm_x = _x(chart, total, warmup)
    return {
        "warmup": warmup, "total": total, "decay": decay, "decay_label": LABELS[decay],
        "decay_labels": LABELS,
        "min_ratio": min_ratio, "min_lr": sci(min_lr),
        "peak": sci(peak), "peak_value": peak, "peak_text": sci_text(peak),
        "mid_step": mid, "mid": sci(rate(mid)),
        "final": sci(rate(total)),
        "grid": max(1, total // CELLS),  # how far one arrow key (or pointer cell) moves
        "chart": chart,
        "y_unit": f"学习率（× {power_of_ten(e)}）",
        "warm": {"x": warm_x, "tx": warm_x + 4},  # the end of warmup and its label
        "labels_y": {"unit": 12, "warm": chart["plot"]["y"] + chart["plot"]["h"] - 6},
        "_rate": rate, "_unit": unit,
    }


def _x(chart, total, t):
    plot = chart["plot"]
    return figure.r(figure.scale(t, 0, total, plot["x"], plot["x"] + plot["w"]))


def reading(step, schedule):
    """The chosen step's rate, marked on the curve."""
    total, unit, plot = schedule["total"], schedule["_unit"], schedule["chart"]["plot"]
    step = min(step, total)
    lr = schedule["_rate"](step)
    y = figure.r(figure.scale(lr / unit, 0, schedule["peak_value"] / unit,
                              plot["y"] + plot["h"], plot["y"]))
    lr_sci = sci(lr)
    return {
        "step": step, "lr": lr_sci, "lr_value": lr,
        "marker": {"x": _x(schedule["chart"], total, step), "y": y},  # on the curve
        "slider_text": f"第 {step} 步：{lr_sci['m']:.3f} × 10^{lr_sci['e']}",
    }


# A move of the step (the plot is its slider) recomputes and sends the reading only.
PARTS = (schedule, reading)
