"""The cost of self-attention against an RNN as the sequence length n grows.

Per head and per layer, self-attention scores every pair of tokens: n^2 scores, and a score
matrix stored in fp16 takes 2 n^2 bytes. All of them can be computed at once (one parallel
step). An RNN reads the tokens one after another: n sequential steps, each depending on the
previous hidden state, but only a d-sized state is kept. With d given, multiply-adds are
counted too: Q K^T and weights @ V take n^2 d each (summed over all heads), one RNN step
h_t = f(W h_{t-1} + U x_t) takes 2 d^2.
"""
import numpy as np

UNITS = ("B", "KB", "MB", "GB", "TB", "PB")


def attention_cost(n, n_heads=1, d_model=None, bytes_per_value=2):
    """A dict of the counts for sequence length n (plain Python ints, no overflow)."""
    n = int(n)
    out = {
        "n": n,
        "scores_per_head": n * n,
        "bytes_per_head": bytes_per_value * n * n,
        "bytes_all_heads": n_heads * bytes_per_value * n * n,
        "attention_sequential_steps": 1,
        "rnn_sequential_steps": n,
        "rnn_state_values": d_model,
    }
    if d_model is not None:
        out["attention_madds"] = 2 * n * n * d_model  # Q K^T and weights @ V
        out["rnn_madds"] = n * 2 * d_model * d_model  # n steps of W h + U x
    return out


def cost_curve(ns, bytes_per_value=2):
    """(scores n^2, bytes per head, rnn steps n) as float arrays for a log-log plot."""
    ns = np.asarray(ns, dtype=float)
    return ns * ns, bytes_per_value * ns * ns, ns


def human_bytes(b):
    """Decimal units: 2_000_000_000_000 -> '2.00 TB'; below 1000 bytes, whole bytes."""
    b = float(b)
    i = 0
    while b >= 1000 and i < len(UNITS) - 1:
        b /= 1000
        i += 1
    return f"{int(b)} B" if i == 0 else f"{b:.2f} {UNITS[i]}"
