"""Widget attention-cost: for a sequence length n, the n^2 scores of one head, the memory of
their fp16 score matrix, and the n sequential steps of an RNN; a log-log chart of all three
with this n marked: n^2 and 2n^2 rise with slope 2, n with slope 1.

The chart's lines never change, only the mark on them: the view is in two parts (PARTS,
pycore/view_parts.py), the lines (they read nothing: the page gets them once) and this n's
numbers and mark."""
import numpy as np

from ... import figure
from ...cost import attention_cost, cost_curve, human_bytes

BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
CURVE_N = np.logspace(0, 6, 13)  # 1, ~3.16, 10, ... 10^6: the chart's lines (straight in log-log)
PRESETS = [9, 1024, 4096, 131_072, 1_000_000]  # the running example, then common contexts
SERIES = ["n² 个注意力分数", "fp16 分数矩阵的字节数 2n²", "RNN 依次执行的 n 步"]

PARAMS = {
    "n": {"type": "int", "min": 1, "max": 1_000_000, "default": 1000, "scale": "log",
          "step": 0.05, "help": "sequence length in tokens (the slider is log-scaled)"},
}


def binary_bytes(b):
    """Powers of 1024: 2_097_152 -> '2.00 MiB'; below 1024 bytes, whole bytes."""
    b, i = float(b), 0
    while b >= 1024 and i < len(BINARY_UNITS) - 1:
        b /= 1024
        i += 1
    return f"{int(b)} B" if i == 0 else f"{b:.2f} {BINARY_UNITS[i]}"


def readout(log_n, _log_y):
    """What the chart's crosshair says at one of its points."""
    n = 10 ** log_n
    c = attention_cost(round(n))
    return (f"n ≈ {round(n):,}：{c['scores_per_head']:,} 个分数，"
            f"{human_bytes(c['bytes_per_head'])}，RNN {round(n):,} 步")


def lines():
    """The chart without its mark, its lines as numbers (for the 数值 table), the presets."""
    scores, memory, rnn = cost_curve(CURVE_N)
    series = [{"name": name, "x": CURVE_N, "y": ys}
              for name, ys in zip(SERIES, (scores, memory, rnn))]
    chart = figure.log_line_chart(series, x_decades=(0, 6), y_decades=(0, 13), y_every=3,
                                  width=460, height=270, margin=(14, 16, 30, 44),
                                  probes=len(CURVE_N), say=readout)
    table = [{"n": f"{round(x):,}", "scores": f"{round(s):,}", "bytes": human_bytes(b),
              "rnn": f"{round(x):,}"} for x, s, b in zip(CURVE_N, scores, memory)]
    return {
        "presets": [{"value": p, "label": f"{p:,}" + ("（例句）" if p == 9 else "")}
                    for p in PRESETS],
        "chart": {k: v for k, v in chart.items() if k != "mark"},
        "series": SERIES,
        "curve": table,  # the chart's lines as numbers, for the 数值 table
        "_chart": chart,
    }


def length(lines, n):
    """This n's numbers and its mark on the lines."""
    c = attention_cost(n)
    counts = [c["scores_per_head"], c["bytes_per_head"], c["rnn_sequential_steps"]]
    return {
        "n": n, "n_text": f"{n:,}",
        "n_say": f"n = {n:,}",  # the slider's spoken value
        "scores": c["scores_per_head"], "scores_text": f"{c['scores_per_head']:,}",
        "bytes": c["bytes_per_head"], "bytes_text": f"{c['bytes_per_head']:,}",
        "bytes_decimal": human_bytes(c["bytes_per_head"]),
        "bytes_binary": binary_bytes(c["bytes_per_head"]),
        "rnn_steps": c["rnn_sequential_steps"], "rnn_steps_text": f"{c['rnn_sequential_steps']:,}",
        "attention_steps": c["attention_sequential_steps"],
        "ratio_text": f"{c['scores_per_head'] // c['rnn_sequential_steps']:,}",  # n^2 / n = n
        "chart": {"mark": figure.log_mark(lines["_chart"], n, counts)},
    }


PARTS = (lines, length)
