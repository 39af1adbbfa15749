"""Widget cross-attention: the running example translated into English one word at a time; at
each step the decoder's query looks at the 9 encoder outputs, and the rows written so far make
the (13 × 9) cross-attention matrix read as an alignment.

The reader steps through the decoder's steps and may change the logits' scale. The math is
pycore.cross_attention (cross_attention, decoder_step); this module lays out the picture:
- the English words across the top (those not written yet dimmed, the one being written
  marked) and the Chinese words across the bottom, with curves from the word being written to
  every source word, width and opacity by weight;
- the alignment: the 13 × 9 weights, the rows written so far coloured, the rest dashed (not
  computed yet at this step of generation), the current row framed;
- what each attention of the decoder layer may look at at this step: its own inputs for the
  masked self-attention, the whole source for the cross-attention.
"""
import numpy as np

from ... import cross_attention as CA
from ... import figure

SOURCE = CA.SOURCE
TARGET = CA.TARGET
N_STEPS = len(TARGET)
CELL = 30
CURVES_W = 620

PARAMS = {
    "step": {"type": "int", "min": 1, "max": N_STEPS, "default": 1,
             "help": "the decoder's step: it writes the step-th English word (1 = the first)"},
    "scale": {"type": "float", "min": 0.5, "max": 10.0, "default": CA.SCALE, "step": 0.5,
              "help": "multiplies q . k / sqrt(d) before the softmax (the book's example uses 6)"},
}


# What a cell of the view keeps: templates/widgets/_marks.html live_heatmap draws the colours
# from the paths (figure.heatmap's paths) and reads a cell's place and readout; a cell's value
# and its text at 2 digits are not drawn (its readout says the value), and leaving them out
# makes the view that goes to the page a quarter lighter.
HEAT_CELL = ("i", "j", "x", "y", "w", "h", "c", "say", "masked")


# What a step draws of the heatmap (the rest is the scale's): its cells (the rows not written
# yet masked), their colours as paths, the frame on the current row.
STEP_HEAT = ("cells", "paths", "masked_d", "row_band", "selected_row")


def _heat(weights, step):
    """The heatmap at a step (0-based): the rows not written yet masked, the current framed."""
    heat = figure.heatmap(weights, TARGET, SOURCE, cell=CELL, weights=True, selected_row=step,
                          masked=[[i > step] * len(SOURCE) for i in range(N_STEPS)],
                          paths=True, label_w=58, row_name="译文", col_name="原文")
    heat["cells"] = [{k: c[k] for k in HEAT_CELL} for c in heat["cells"]]
    return heat


def matrix(scale):
    """The whole (13, 9) cross-attention at this scale and its heatmap but what a step draws."""
    scale = float(scale)
    ca = CA.cross_attention(scale=scale)
    heat = _heat(ca["weights"], 0)
    return {"scale": scale, "n_steps": N_STEPS, "features": CA.ENCODER_FEATURES,
            "matrix": ca["weights"], "aligned": ca["aligned"],
            "heat": {k: v for k, v in heat.items() if k not in STEP_HEAT}}


def writing(matrix, step):
    """What step `step` draws at this scale: the decoder's step, the heatmap's rows not
    written yet masked and the current one framed, the curves, the numbers."""
    i, scale = step - 1, matrix["scale"]
    s = CA.decoder_step(i, scale=scale)
    weights = s["weights"]  # (9,) the same as row i of the whole matrix
    heat = _heat(matrix["matrix"], i)
    curves = figure.attention_curves(
        TARGET, weights, i, keys=SOURCE, width=CURVES_W, height=170,
        dim=[k > i for k in range(N_STEPS)], top_prefix="t", bottom_prefix="s",
        say=lambda k, w: f"写 {TARGET[i]} 时看「{SOURCE[k]}」：{figure.fmt(w, 4)}")
    order = np.argsort(-weights)
    written = " ".join(TARGET[:i]) if i else "（还没有）"
    return {
        "step": step,
        "writes": s["writes"], "attended": s["attended"], "attended_weight": s["attended_weight"],
        "second": SOURCE[int(order[1])], "second_weight": float(weights[order[1]]),
        "written": written,
        "self_keys": " ".join(s["self_keys"]), "n_self": len(s["self_keys"]),
        "cross_keys": " ".join(s["cross_keys"]), "n_cross": len(s["cross_keys"]),
        "progress": f"第 {step} / {N_STEPS} 步：已写出 {i} 个词，正在写 {s['writes']}",
        "curves": curves, "heat": {k: heat[k] for k in STEP_HEAT},
        "weights": weights, "scores": s["scores"], "query": s["query"],
        "shape": f"Q：{N_STEPS} × {len(s['query'])}，K、V：{len(SOURCE)} × {len(s['query'])}，"
                 f"权重：{N_STEPS} × {len(SOURCE)}",
    }


# The scale's part (the matrix, its heatmap) and the step's; a step brings only its own.
PARTS = (matrix, writing)
