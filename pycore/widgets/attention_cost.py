"""Widget attention-cost: for a sequence length n, the n^2 scores of one head, the memory of
their fp16 score matrix, and the n sequential steps of an RNN; a log-log chart of all three."""
import numpy as np

from ..cost import attention_cost, cost_curve, human_bytes

BINARY_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
CURVE_N = np.logspace(0, 6, 13)  # 1, ~3.16, 10, ... 10^6: the chart's lines (straight in log-log)

PARAMS = {
    "n": {"type": "int", "min": 1, "max": 1_000_000, "default": 1000,
          "help": "sequence length in tokens (the slider is log-scaled)"},
}


def binary_bytes(b):
    """Powers of 1024: 2_097_152 -> '2.00 MiB'; below 1024 bytes, whole bytes."""
    b, i = float(b), 0
    while b >= 1024 and i < len(BINARY_UNITS) - 1:
        b /= 1024
        i += 1
    return f"{int(b)} B" if i == 0 else f"{b:.2f} {BINARY_UNITS[i]}"


def view(n):
    c = attention_cost(n)
    scores, memory, rnn = cost_curve(CURVE_N)
    return {
        "n": n, "n_text": f"{n:,}",
        "scores": c["scores_per_head"], "scores_text": f"{c['scores_per_head']:,}",
        "bytes": c["bytes_per_head"], "bytes_text": f"{c['bytes_per_head']:,}",
        "bytes_decimal": human_bytes(c["bytes_per_head"]),
        "bytes_binary": binary_bytes(c["bytes_per_head"]),
        "rnn_steps": c["rnn_sequential_steps"], "rnn_steps_text": f"{c['rnn_sequential_steps']:,}",
        "attention_steps": c["attention_sequential_steps"],
        "ratio_text": f"{c['scores_per_head'] // c['rnn_sequential_steps']:,}",  # n^2 / n = n
        # chart coordinates: log10 of each quantity, for the curves and for this n
        "log_n": float(np.log10(n)),
        "log_scores": float(np.log10(c["scores_per_head"])),
        "log_bytes": float(np.log10(c["bytes_per_head"])),
        "log_rnn": float(np.log10(c["rnn_sequential_steps"])),
        "curve": {"log_n": np.log10(CURVE_N), "log_scores": np.log10(scores),
                  "log_bytes": np.log10(memory), "log_rnn": np.log10(rnn)},
    }
