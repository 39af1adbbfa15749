"""Widget online-softmax: one query row of the running example's semantic head computed tile by
tile of keys, as FlashAttention does, with the memory one tile saves beside it.

The reader picks the query, the tile size (keys per tile) and steps through the tiles. The
math is pycore.flash (tile_steps, example_steps, online_attention, memory); this module lays
out the picture, one column per key:
- the weights known after the tiles read so far (exp(s - s_max) / l for every key seen), as bars
  on a fixed 0-1 axis, each with a tick at its weight in the full softmax: the bars shrink as
  keys arrive and sit on their ticks after the last tile;
- the tiles as frames round their keys (read, the current one, not read yet);
- under each tile, the state after it: the running max s_max (the view's "m"), the running sum l, and the six
  entries of the accumulator acc as cells on one colour scale.
Then the memory of one head's scores: the full n × n matrix against one B × B tile, drawn to
scale, for n, B, d and the number format.

The view comes in parts (pycore/view_parts.py): a query's row is computed once per (query,
tile) (`tiles`); stepping only picks a tile (`reading`); the memory figure has its own controls
(`memory`); the random check reads the tile size only (`check`).
"""
import math

import numpy as np

from ... import example, figure, flash
from ...attention import attention
from ..attention_cost import binary_bytes

TOKENS = example.TOKENS
N_KEYS = len(TOKENS)
LABEL_W = 46     # the state rows' names, left of the first key
CELL = 36        # SVG units per key
BARS_H = 150     # the bars' box: value labels, bars on a 0-1 axis, the keys' names
SCORE_Y = 163    # the keys' scores, under their names
FRAME_Y, FRAME_H = 2, 168
ROW_Y = 180      # the first state row
ROW_H = 17
ACC_GAP = 16     # between l and the accumulator's rows: their heading
WIDTH = LABEL_W + N_KEYS * CELL
SQUARE = 150     # the memory figure: the full score matrix's side
CHECK_N, CHECK_D = 64, 16  # the random check: 64 queries and keys of 16 dimensions

N_CHOICES = [2 ** e for e in range(10, 18)]  # 1024 .. 131072
DTYPES = list(flash.DTYPE_BYTES)

PARAMS = {
    "query": {"type": "choice", "choices": TOKENS, "default": "它",
              "help": "the token whose row of attention is computed tile by tile"},
    "tile": {"type": "int", "min": 1, "max": N_KEYS, "default": 3,
             "help": "keys per tile (the last tile may be shorter)"},
    "step": {"type": "int", "min": 1, "max": N_KEYS, "default": 1,
             "help": "how many tiles have been read (at most the number of tiles)"},
    "n": {"type": "choice", "choices": N_CHOICES, "default": 4096,
          "help": "sequence length of the memory figure"},
    "block": {"type": "choice", "choices": [32, 64, 128, 256], "default": 128,
              "help": "tile size B of the memory figure (B queries x B keys)"},
    "d": {"type": "choice", "choices": [64, 128], "default": 64,
          "help": "head dimension of the memory figure"},
    "dtype": {"type": "choice", "choices": DTYPES, "default": "fp16",
              "help": "number format of scores, queries, keys and values"},
}

STATE_ROWS = ["s_max", "l"] + example.FEATURES  # acc's rows are named by their feature


def _qkv():
    w_q, w_k, w_v = example.semantic_head()
    x = example.EMBEDDINGS  # (9, 6)
    return x @ w_q, x @ w_k, x @ w_v


def full_row(query):
    """The query's row of the full softmax, its output and its scores (all at once)."""
    q, k, v = _qkv()
    weights, out, scores = attention(q, k, v)
    i = TOKENS.index(query)
    return weights[i], out[i], scores[i]


def check(tile):
    """max |online - full| over random Q, K, V (CHECK_N x CHECK_D, seed 0), tiles of `tile`
    keys: what rounding leaves of the difference (the running example's is exactly 0)."""
    rng = np.random.default_rng(0)
    q, k, v = (rng.normal(size=(CHECK_N, CHECK_D)) for _ in range(3))
    diff = float(np.max(np.abs(flash.online_attention(q, k, v, tile) - attention(q, k, v)[1])))
    return {"random_diff": diff, "check_n": CHECK_N}


def _row_bars(values, unread=None):
    bars = figure.bars(values, TOKENS, width=WIDTH, height=BARS_H, top=1.0, digits=3, gap=0.3,
                       axis_space=LABEL_W)
    if unread is not None:
        for b, hidden in zip(bars["bars"], unread):
            if hidden:
                b["text"], b["say"] = "", f"{b['label']}：还没读到"
    return bars


def tiles(query, tile):
    """Everything about one (query, tile) the steps pick from: per tile its state (m, l,
    rescale, acc, weights so far) and the picture's columns, and what does not move with the
    step: the scores, the full softmax, the ledger, the accumulator's scale."""
    steps = flash.example_steps(query, tile)
    weights, out, scores = full_row(query)
    acc_max = max(float(np.max(s["acc"])) for s in steps)
    rows = []
    for t, s in enumerate(steps):
        start, stop = s["keys"]
        so_far = np.zeros(N_KEYS)
        so_far[:stop] = s["weights_so_far"]
        m_prev = steps[t - 1]["m"] if t else -math.inf
        l_prev = steps[t - 1]["l"] if t else 0.0
        tile_max = float(np.max(s["scores"]))
        tile_sum = s["l"] - l_prev * s["rescale"]  # sum of exp(s_j - m) over this tile
        rows.append({**s, "start": start, "stop": stop, "so_far": so_far,
                     "m_prev": m_prev, "l_prev": l_prev, "tile_max": tile_max,
                     "tile_sum": tile_sum, "output": s["acc"] / s["l"]})
    last = rows[-1]
    online_final = np.zeros(N_KEYS)
    online_final[:last["stop"]] = last["weights_so_far"]
    diff = float(max(np.max(np.abs(online_final - weights)),
                     np.max(np.abs(last["output"] - out))))
    return {
        "query": query, "index": TOKENS.index(query), "tile": tile, "n_tiles": len(rows),
        "tokens": TOKENS, "features": example.FEATURES,
        "scores": scores, "scores_text": [figure.fmt(x, 3) for x in scores],
        "full": weights, "full_output": out, "max_diff": diff,
        "legend": {**figure.legend(0, acc_max, digits=2), "note": "acc 的大小，全图统一刻度"},
        "ledger": ledger(rows),
        "_rows": rows, "_acc_max": acc_max, "_final_bars": _row_bars(weights)["bars"],
    }


def frame_slots(rows, step):
    """A frame round each tile's keys (slots for N_KEYS tiles, the unused ones hidden)."""
    out = []
    for t in range(N_KEYS):
        if t < len(rows):
            start, stop = rows[t]["start"], rows[t]["stop"]
            out.append({"x": LABEL_W + start * CELL + 1, "w": (stop - start) * CELL - 2,
                        "hidden": False, "current": t == step - 1, "future": t >= step,
                        "label": f"第 {t + 1} 块"})
        else:
            out.append({"x": LABEL_W, "w": 0, "hidden": True, "current": False,
                        "future": False, "label": ""})
    return out


def state_cells(rows, step, acc_max):
    """Under each tile, its state after it: m and l as numbers, acc's six entries as cells on
    one scale (0 .. the largest entry of any tile). Rows of N_KEYS slots, unused ones hidden,
    tiles not read yet drawn empty."""
    grid = []
    for r, name in enumerate(STATE_ROWS):
        y = ROW_Y + r * ROW_H + (ACC_GAP if r >= 2 else 0)
        cells = []
        for t in range(N_KEYS):
            if t >= len(rows):
                cells.append({"x": LABEL_W, "cx": LABEL_W, "w": 0, "c": 0, "text": "",
                              "say": False, "hidden": True, "masked": False})
                continue
            s = rows[t]
            value = s["m"] if r == 0 else s["l"] if r == 1 else float(s["acc"][r - 2])
            future = t >= step
            x, w = LABEL_W + s["start"] * CELL + 1, (s["stop"] - s["start"]) * CELL - 2
            cells.append({"x": x, "cx": figure.r(x + w / 2), "w": w,
                          "c": 0 if r < 2 else figure.seq_class(value, 0.0, acc_max),
                          "text": "" if future or r >= 2 else figure.fmt(value, 3),
                          "say": False if future else
                          f"第 {t + 1} 块之后 {name if r < 2 else 'acc·' + name}：{value:.4f}",
                          "hidden": False, "masked": future})
        grid.append({"name": name, "y": y, "ty": y + ROW_H - 5, "h": ROW_H - 2,
                     "kind": "num" if r < 2 else "acc", "cells": cells})
    return grid


def equations(s, t):
    """The current tile's update, written out with its numbers."""
    keys = " ".join(TOKENS[s["start"]:s["stop"]])
    if t == 0:
        m = f"s_max = 块内最大 = {s['m']:.3f}（第一块，之前没有 s_max）"
        scale = "缩放因子：第一块之前什么都没有（l = 0，acc = 0）"
        l_text = f"l = Σ e^(s − s_max) = {s['l']:.3f}"
    else:
        m = f"s_max = max({s['m_prev']:.3f}, {s['tile_max']:.3f}) = {s['m']:.3f}"
        shift = f"{s['m_prev'] - s['m']:.3f}".replace("-", "−")
        scale = (f"缩放因子 e^(旧 s_max − 新 s_max) = e^({shift}) = "
                 f"{s['rescale']:.3f}：之前的 l 和 acc 都乘它")
        l_text = (f"l = {s['l_prev']:.3f} × {s['rescale']:.3f} + "
                  f"{s['tile_sum']:.3f} = {s['l']:.3f}")
    return {"tile_keys": f"第 {t + 1} 块：{keys}（块内最大分数 {s['tile_max']:.3f}）",
            "m": m, "scale": scale, "l": l_text,
            "acc": "acc = acc × 缩放因子 + Σ e^(s − s_max) v，输出 = acc / l"}


def ledger(rows):
    """The state after every tile as text, for the 数值 table (N_KEYS slots)."""
    out = []
    for t in range(N_KEYS):
        if t >= len(rows):
            out.append({"tile": "", "tokens": "", "m": "", "l": "", "rescale": "", "hidden": True})
            continue
        r = rows[t]
        out.append({"tile": f"{t + 1}", "tokens": " ".join(TOKENS[r["start"]:r["stop"]]),
                    "m": f"{r['m']:.4f}", "l": f"{r['l']:.4f}",
                    "rescale": "—" if t == 0 else f"{r['rescale']:.4f}", "hidden": False})
    return out


def memory(n, block, d, dtype):
    """The memory figure: one head's full score matrix against one tile, to scale."""
    mem = flash.memory(n, d=d, tile=block, dtype=dtype)
    side = max(1.5, SQUARE * block / n)  # the tile, to scale (at least a visible dot)
    return {"n": n, "n_say": f"n = {n:,}", "block": block, "d": d, "dtype": dtype,
            "memory": {**mem, "full_text": binary_bytes(mem["full_scores"]),
                       "tile_text": binary_bytes(mem["tile_scores"]),
                       "tile_total_text": binary_bytes(mem["tile_total"]),
                       "ratio_text": f"{round(mem['ratio']):,}",
                       "square": {"size": SQUARE, "tile": figure.r(side), "mid": SQUARE / 2,
                                  "label_x": figure.r(min(side, SQUARE - 40) + 4),
                                  "viewbox": f"-2 -2 {SQUARE + 4} {SQUARE + 4}"}}}


def reading(step, tiles):
    """What the tiles read so far show (a step past the last tile reads the last)."""
    rows = tiles["_rows"]
    step = min(step, len(rows))
    s = rows[step - 1]
    unread = [j >= s["stop"] for j in range(N_KEYS)]
    bars = _row_bars(s["so_far"], unread)
    for b, f in zip(bars["bars"], tiles["_final_bars"]):
        b["ref"] = f["y"]  # the full softmax's weight: a tick across the bar, a little wider
        b["rx1"], b["rx2"] = figure.r(b["x"] - 3), figure.r(b["x"] + b["w"] + 3)
    return {
        "step": step, "keys_read": s["stop"],
        "m": s["m"], "l": s["l"], "rescale": s["rescale"], "acc": s["acc"],
        "output": s["output"], "so_far": s["so_far"],
        "done": step == len(rows),
        "progress": f"已读 {s['stop']} / {N_KEYS} 个键（第 {step} 块，共 {len(rows)} 块）",
        "eq": equations(s, step - 1),
        "bars": bars, "frames": frame_slots(rows, step),
        "state": state_cells(rows, step, tiles["_acc_max"]),
    }


def geometry():
    """The picture's fixed frame."""
    return {"width": WIDTH, "height": ROW_Y + len(STATE_ROWS) * ROW_H + ACC_GAP + 4,
            "acc_y": ROW_Y + 2 * ROW_H + ACC_GAP - 4,
            "score_y": SCORE_Y, "frame_y": FRAME_Y, "frame_h": FRAME_H, "label_w": LABEL_W}


PARTS = (geometry, tiles, check, reading, memory)
