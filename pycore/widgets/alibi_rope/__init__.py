"""Widget alibi-rope: ALiBi's distance penalty per head next to RoPE, on one query's row of
the semantic head (pycore.alibi_rope).

The picture: two heatmaps with a row per ALiBi head (8 heads, slopes 1/2 .. 1/256) and a
column per token: the penalty -m |i - j| each head adds to the query's scores, and the
weights that come out; the chosen head's row is framed, the query's column banded. Under
them the query's row of weights three times on one axis: without positions, with the chosen
ALiBi head, and with RoPE at the chosen frequency.
"""

import numpy as np

from ... import alibi_rope as R, example, figure, positional

TOKENS = example.TOKENS
H = R.N_HEADS
SLOPES = positional.alibi_slopes(H)  # (H,): 1/2, 1/4, ..., 1/256
CELL = 30
BARS = {"width": 330, "height": 150}

PARAMS = {
    "query": {"type": "choice", "choices": TOKENS, "default": "它",
              "help": "the token whose row of weights is shown"},
    "head": {"type": "int", "min": 1, "max": H, "default": 3,
             "help": f"the ALiBi head (of {H}; slope 2^-head)"},
    "theta": {"type": "float", "min": 0.05, "max": 1.0, "default": 1.0, "step": 0.05,
              "help": "RoPE's rotation per position, one frequency for all three pairs "
                      "(radians; 1 = RoPE's own first pair at d = 6, the pair that holds "
                      "the query of 它)"},
    "causal": {"type": "bool", "default": False,
               "help": "causal mask: keys after the query are left out (ALiBi's own setting)"},
}


# The page asks for its live views with live=True and gets only what a live view rebinds: a
# heatmap's colours (one path per class, figure.heatmap's paths) and its cells' readouts, a
# bar's top and height and its texts (the slots' places never change). The build and the tests
# get the whole picture. The view is in parts (PARTS, pycore/view_parts.py): the heatmaps
# depend on the query and the mask alone, so a move of the head or of theta brings back only
# their frame (the head's row), not their 144 cells.
INPUTS = ("live",)
CELL_LIVE = ("say",)
BAR_LIVE = ("y", "h", "ty", "text", "say")


def _lean_heat(heat):
    return {"cells": [{k: c[k] for k in CELL_LIVE} for c in heat["cells"]],
            "paths": heat["paths"], "masked_d": heat["masked_d"],
            "legend": heat["legend"], "row_band": heat["row_band"], "col_band": heat["col_band"],
            "row_bands": heat["row_bands"]}


def _lean_bars(chart):
    return {"baseline": chart["baseline"], "ticks": chart["ticks"],
            "bars": [{k: b[k] for k in BAR_LIVE} for b in chart["bars"]]}


def _slope_text(h):
    return f"1/{2 ** h}"  # H = 8: slope 2^(-8h/8)


def _heat(matrix, masked, lo, hi, query_pos, cols, digits, weights=False):
    """One of the two heatmaps, its first head's row framed (_framed moves the frame)."""
    rows = [f"头 {h}" for h in range(1, H + 1)]
    heat = figure.heatmap(np.where(masked, 0.0, matrix), rows, cols, cell=CELL, lo=lo, hi=hi,
                          digits=digits, label_w=40, selected_row=0,
                          selected_col=query_pos, masked=masked, weights=weights,
                          paths=True)  # the colours as paths: what the page binds
    for c in heat["cells"]:
        if c["masked"]:
            c["say"] = f"{rows[c['i']]} → {cols[c['j']]}：被因果掩码挡住"
    return heat


FRAME = ("row_band", "selected_row")  # what the head moves of a heatmap (`frame`)


def heads(query, causal, live=False):
    """Every head's row of `query` and the two heatmaps (whole or lean) but their frame: what
    neither the head nor theta touches."""
    i = TOKENS.index(query)
    rows, masked, (pen, w_heat) = _heads(query, causal)
    if live:
        pen, w_heat = _lean_heat(pen), _lean_heat(w_heat)
    before = rows[0]["weights_before"]
    return {
        "query": query, "causal": causal, "position": i,
        "distances": np.abs(np.arange(len(TOKENS)) - i),
        "scores": rows[0]["scores"], "w_before": before,
        "mask_text": ["挡住" if k else "" for k in masked],
        "best": {"before": _best(before)},
        "penalty": {k: v for k, v in pen.items() if k not in FRAME},
        "weights": {k: v for k, v in w_heat.items() if k not in FRAME},
        "_rows": rows, "_masked": masked, "_frames": (pen, w_heat),
    }


def frame(heads, head):
    """The chosen ALiBi head: its numbers, and its row framed in both heatmaps."""
    ali, masked = heads["_rows"][head - 1], heads["_masked"]
    pen, w_heat = (_framed(h, head) for h in heads["_frames"])
    m = float(SLOPES[head - 1])
    return {
        "head": head, "slope": m, "slope_text": _slope_text(head),
        "half_weight": float(np.log(2) / m), "one_logit": 1.0 / m,
        "bias": np.where(masked, 0.0, ali["bias"]),
        "logits_alibi": np.where(masked, 0.0, ali["logits"]),
        "w_alibi": ali["weights_after"], "best": {"alibi": _best(ali["weights_after"])},
        "penalty": {k: pen[k] for k in FRAME if k in pen},
        "weights": {k: w_heat[k] for k in FRAME if k in w_heat},
    }


def rope(query, theta, causal):
    """RoPE at the chosen frequency (the value shown is the value used: theta to 2 decimals)."""
    theta = round(theta, 2)
    rope = R.rope_row(query, theta=theta, causal=causal)
    return {"theta": theta, "scores_rope": np.where(heads_masked(query, causal), 0.0,
                                                    rope["scores_rotated"]),
            "w_rope": rope["weights_after"], "best": {"rope": _best(rope["weights_after"])}}


def heads_masked(query, causal):
    return np.arange(len(TOKENS)) > TOKENS.index(query) if causal else \
        np.zeros(len(TOKENS), dtype=bool)


def charts(heads, frame, rope, live=False):
    """The three rows of bars on one axis: without positions, the chosen head, RoPE."""
    rows = (heads["w_before"], frame["w_alibi"], rope["w_rope"])
    top = figure.nice_max(max(w.max() for w in rows))
    made = [figure.bars(w, TOKENS, top=top, bottom=0.0, **BARS) for w in rows]
    return {"charts": [_lean_bars(c) if live else c for c in made],
            "titles": ["不加位置", f"ALiBi 头 {frame['head']}（m = {frame['slope_text']}）",
                       f"RoPE（θ = {rope['theta']:.2f}）"]}


PARTS = (heads, frame, rope, charts)


def _best(w):
    j = int(np.argmax(w))
    return {"token": TOKENS[j], "w": float(w[j])}


def _framed(heat, head):
    """The heatmap (whole or lean) with the chosen head's row framed instead of the first (its
    band, one of the heatmap's row_bands): the one part of it the head changes."""
    out = {**heat, "row_band": heat["row_bands"][head - 1]}
    if "selected_row" in heat:
        out["selected_row"] = head - 1
    return out


def _heads(query, causal):
    """Every head's row of `query`, the mask's row and the two heatmaps."""
    i = TOKENS.index(query)
    heads = R.alibi_heads(query, causal=causal)
    bias, weights = heads["bias"], heads["weights_after"]  # (H, 9), -inf after i if causal
    rows = [{"scores": heads["scores"], "weights_before": heads["weights_before"],
             "bias": bias[h], "logits": heads["logits"][h], "weights_after": weights[h]}
            for h in range(H)]  # what the view takes of R.alibi_row, per head
    masked = np.broadcast_to(np.arange(len(TOKENS)) > i, bias.shape) if causal else \
        np.zeros(bias.shape, dtype=bool)
    lowest = float(-SLOPES[0] * (len(TOKENS) - 1))  # the steepest head at the longest distance
    pen = _heat(bias, masked, lowest, 0.0, i, TOKENS, 2)
    pen["legend"]["lo"] = figure.fmt(lowest, 1)
    w_heat = _heat(weights, masked, None, None, i, TOKENS, 3, weights=True)
    return rows, masked[0], (pen, w_heat)
