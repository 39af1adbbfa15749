"""Widget quantize: the code lab's W_Q and the running example's KV cache in 8, 4 or 2 bits
(pycore.quantize): the bytes, the error, and what the cache's error does to a row of weights.

The picture: one bar of W_Q's fp16 bytes split into what the quantised copy keeps (the
integers, the fp16 scales, the zero points) and what it saves; then the first 32 entries of
W_Q's first column against the grid of levels their scale allows (a horizontal line per
level; at 8 bits they are too close to tell apart), each entry a dot and its stored value a
square on the nearest level; then LLaMA-7B's KV cache at 2048 tokens as the same kind of bar.
"""
import functools

import numpy as np

from ... import example, figure, quantize as Q

SHOWN = 32  # entries of the first column drawn on the grid
GROUPS = {"tensor": "整个矩阵一个", "channel": "每列一个", "group": "每组一个"}
# the grid is the widget's picture: drawn for 480 px (beside the controls on a wide screen it
# shows at up to 680; text-size.js keeps its labels readable on a phone)
PLOT = {"width": 480, "height": 220, "left": 40, "top": 8, "bottom": 8, "right": 8}
STACK_W = 340

PARAMS = {
    "bits": {"type": "choice", "choices": [8, 4, 2], "default": 8,
             "help": "bits per stored integer"},
    "symmetric": {"type": "bool", "default": True,
                  "help": "symmetric (q = round(x / s), zero at 0) or asymmetric "
                          "(a zero point spends the levels on [min, max])"},
    "granularity": {"type": "choice", "choices": list(GROUPS), "default": "channel",
                    "help": "how many numbers share one scale: the whole matrix, each "
                            "column, or each group of group_size entries down a column"},
    "group_size": {"type": "choice", "choices": [32, 64, 128], "default": 32,
                   "help": "entries per group (used when granularity is group)"},
}


@functools.lru_cache(maxsize=1)
def _w_q():
    """The code lab's W_Q (128 x 128), made once: the block's weights take a while to draw."""
    return Q.lab_weight("W_Q")


def _mib(n):
    return n / 2 ** 20


def _bytes_bar(b):
    labels = ["整数", "缩放因子（fp16）", "零点", "省下"]
    parts = [b["payload"], b["scales"], b["zero_points"], b["before"] - b["after"]]
    bar = figure.bars(parts, labels, form="stacked", width=STACK_W, height=22)
    for seg, n in zip(bar["segments"], parts):
        seg["say"] = f"{seg['label']}：{n} 字节（{seg['text']}）"
    return bar


def _grid(w, r, group_size):
    """The first SHOWN entries of column 0 on a fixed axis [-R, R] (R = max |W|, the widest
    grid any setting draws): the levels of their block, each entry's dot and stored square."""
    R = float(np.abs(w).max())
    px, py = PLOT["left"], PLOT["top"]
    pw = PLOT["width"] - px - PLOT["right"]
    ph = PLOT["height"] - py - PLOT["bottom"]
    sy = lambda v: figure.scale(v, -R, R, py + ph, py)  # noqa: E731
    # block 0 holds these entries at every granularity: the whole matrix, column 0, or
    # column 0's first group (pycore.quantize orders the blocks column by column)
    s, z = float(r["scale"][0]), int(r["zero_point"][0])
    levels = (np.arange(r["qmin"], r["qmax"] + 1) - z) * s  # every value a block can store
    levels = levels[(levels >= -R - 1e-12) & (levels <= R + 1e-12)]
    d = " ".join(f"M{px},{figure.r(sy(v))}h{pw}" for v in levels)
    x, x_hat = w[:SHOWN, 0], r["x_hat"][:SHOWN, 0]
    step = pw / SHOWN
    points = []
    for k in range(SHOWN):
        cx = px + (k + 0.5) * step
        points.append({"cx": figure.r(cx), "cy": figure.r(sy(x[k])), "sy": figure.r(sy(x_hat[k])),
                       "sy_box": figure.r(sy(x_hat[k]) - 2.5),  # the square's top
                       "say": f"第 {k + 1} 个：{x[k]:.4f} → {x_hat[k]:.4f}"
                              f"（误差 {x_hat[k] - x[k]:+.4f}）"})
    return {"width": PLOT["width"], "height": PLOT["height"], "plot": {"x": px, "y": py, "w": pw,
            "h": ph}, "levels": d, "n_levels": int(len(levels)), "zero_y": figure.r(sy(0.0)),
            "top_label": figure.fmt(R, 3), "bottom_label": figure.fmt(-R, 3),
            "points": points, "scale": s, "half_step": s / 2,
            "max_error": float(np.max(np.abs(x_hat - x)))}


def view(bits, symmetric, granularity, group_size):
    w = _w_q()
    group = group_size if granularity == "group" else None
    r = Q.quantize(w, bits, symmetric, granularity, 1, group)
    stats = Q.error_stats(r)
    b = Q.nbytes(w.size, len(r["scale"]), bits, symmetric)
    kv = Q.kv_cache_report(bits, symmetric, per="token", positions=True)
    llama = Q.kv_preset_bytes("LLaMA-7B", bits, symmetric=symmetric)
    return {
        "bits": bits, "symmetric": symmetric, "granularity": granularity,
        "group_size": group_size, "group_text": GROUPS[granularity],
        "scheme": f"{'int' if symmetric else 'uint'}{bits}，"
                  f"{'对称' if symmetric else '非对称（带零点）'}，缩放因子{GROUPS[granularity]}"
                  + (f"（{group_size} 个数一组）" if group else ""),
        "levels": 2 ** bits - (1 if symmetric else 0),
        "n_scales": len(r["scale"]),
        "weight": {"before": b["before"], "after": b["after"], "payload": b["payload"],
                   "scales": b["scales"], "zero_points": b["zero_points"],
                   "saved_pct": 100 * (1 - b["after"] / b["before"]), "ratio": b["ratio"],
                   "mean_abs": stats["mean_abs"], "max_abs": stats["max_abs"],
                   "max_half_step": stats["max_scale"] / 2},
        "weight_bar": _bytes_bar(b),
        "grid": _grid(w, r, group_size),
        "kv": {"row_before": kv["row_before"], "row_after": kv["row_after"],
               "row_max_change": kv["row_max_change"], "key_max_error": kv["key_max_error"],
               "before": kv["bytes"]["before"], "after": kv["bytes"]["after"]},
        "llama": {"before_mib": _mib(llama["before"]), "after_mib": _mib(llama["after"]),
                  "scales_mib": _mib(llama["scales"] + llama["zero_points"]),
                  "saved_pct": 100 * (1 - llama["after"] / llama["before"])},
        "llama_bar": _bytes_bar(llama),
        "tokens": example.TOKENS,
    }
