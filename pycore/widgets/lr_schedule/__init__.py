"""Widget lr-schedule: linear warmup, then a decay; the curve and the rate at a chosen step.

The picture is a figure.line_chart of the rate against the step (rates in units of the
peak's power of ten, so the axis reads 0 to 3.0 "x 10^-4"), with the end of warmup and the
chosen step marked on the curve. The page maps a pointer on the plot to a step with the
plot's geometry (view["chart"]["plot"], the total and the grid of sample steps).
"""
import functools

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


@functools.lru_cache(maxsize=64)
def curve_chart(warmup, peak, total, decay, min_lr, unit):
    """The curve, worked out once per schedule: picking another step (a key, a pointer on the
    plot) only moves the marker. Shared between views: never changed."""
    steps, rates = lr_curve(warmup, peak, total, decay, min_lr, n=SAMPLES)
    return figure.line_chart([{"name": "学习率", "x": steps, "y": rates / unit}],
                             width=380, height=210, margin=(22, 16, 32, 30),
                             x_domain=(0, total), y_domain=(0, peak / unit))


def view(warmup, peak, total, decay, min_ratio, step):
    warmup, step = min(warmup, total), min(step, total)
    min_lr = peak * min_ratio if decay == "cosine" else 0.0  # the other two ignore it

    def rate(t):
        return learning_rate(t, warmup, peak, total, decay, min_lr)

    e = sci(peak)["e"]
    unit = 10.0 ** e  # the y axis counts in units of the peak's power of ten
    mid = warmup + (total - warmup) // 2  # halfway through the decay
    lr = rate(step)
    chart = curve_chart(warmup, peak, total, decay, min_lr, unit)
    plot = chart["plot"]

    def to_x(t):
        return figure.r(figure.scale(t, 0, total, plot["x"], plot["x"] + plot["w"]))

    def to_y(r):
        return figure.r(figure.scale(r / unit, 0, peak / unit, plot["y"] + plot["h"], plot["y"]))

    lr_sci = sci(lr)
    return {
        "warmup": warmup, "total": total, "decay": decay, "decay_label": LABELS[decay],
        "decay_labels": LABELS,
        "min_ratio": min_ratio, "min_lr": sci(min_lr),
        "peak": sci(peak), "peak_value": peak, "peak_text": sci_text(peak),
        "step": step, "lr": lr_sci, "lr_value": lr,
        "mid_step": mid, "mid": sci(rate(mid)),
        "final": sci(rate(total)),
        "grid": max(1, total // CELLS),  # how far one arrow key (or pointer cell) moves
        "chart": chart,
        "y_unit": f"学习率（× {power_of_ten(e)}）",
        "marker": {"x": to_x(step), "y": to_y(lr)},  # the chosen step, on the curve
        "warm": {"x": to_x(warmup), "tx": to_x(warmup) + 4},  # the end of warmup and its label
        "labels_y": {"unit": 12, "warm": plot["y"] + plot["h"] - 6},
        "slider_text": f"第 {step} 步：{lr_sci['m']:.3f} × 10^{lr_sci['e']}",
    }
