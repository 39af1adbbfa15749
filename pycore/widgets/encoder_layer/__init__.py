"""Widget encoder-layer: the reader's sentence walks through one encoder layer, one step at a
time.

The math is pycore.encoder (Post-LN and Pre-LN step lists, each step's n x 6 matrix with its
row means and standard deviations), over the sentence's X (pycore.example.sentence_embeddings:
n = 4..12 tokens, the book's nine by default). This module picks the step the reader is on and
adds what the page needs around it: a Chinese name, the formula, a note, the picture (the
matrix as a heatmap on one diverging scale for every step, each row's mean and standard
deviation as bars beside it) and the FFN's n x 24 hidden layer of the chosen layout.

The page keeps MAX_TOKENS slots of every row (the heatmap's rows, labels and bars, the tables'
rows): the view fills them, pads the tables with zeros, hides the unused slots and frames the
used rows with the picture's viewBox, so the same elements redraw a sentence of any length.

`step` is 1-based (1 = the input x); Post-LN has 7 steps, Pre-LN 8 (the last is the final
LayerNorm that a Pre-LN network adds once, after its last layer). A step past the end of the
list is shown as the last step. No parameter depends on the sentence.

The view is in two parts (PARTS, pycore/view_parts.py): the layer's (the layout's steps over
the sentence and the FFN's hidden layer: the layout and the example decide them) and the
step's; a step brings its own part alone.
"""
import numpy as np

from ... import encoder, ffn, figure
from ...example import MAX_TOKENS, resolve_example, semantic_head_of, sentence_embeddings
from ..attention import padded, slots

LAYOUT_NAMES = {"post": "Post-LN（原论文、BERT）", "pre": "Pre-LN（GPT-2 以后）"}
MAX_STEPS = 8
TONE_FULL = figure.ACTIVATION_LIMIT  # |value| of the strongest colour, the same at every step
                                    # and for every embedding of the book (its colour rule)
# The picture, in SVG units: row labels, the n x 6 heatmap, then the bars of each row's mean
# (on [-1, 1]) and standard deviation (on [0, 2], a line at 1). Row slot i sits at the same
# place whatever n is; the viewBox ends below the sentence's last row.
CELL, LABEL_W, TOP = 26, 40, 36
BARS_W, BARS_GAP, BAR_H = 80, 18, 16

# The reader's edited example (None: the book's): an input of the view, never a block's.
INPUTS = ("example",)

PARAMS = {
    "step": {"type": "int", "min": 1, "max": MAX_STEPS, "default": 1,
             "help": "the step shown, 1 = the input x (Post-LN has 7 steps, Pre-LN 8)"},
    "layout": {"type": "choice", "choices": list(encoder.LAYOUTS), "default": "post",
               "help": "post: LayerNorm after each residual sum; pre: LayerNorm at each "
                       "sub-layer's entrance"},
}

# name, formula (how the step is computed), note -- per (layout, step key); {n}: the
# sentence's length
LN_FORMULA = ("LN(v)ᵢ = γᵢ (vᵢ − μ) / √(σ² + ε) + βᵢ，μ、σ 是这一行 6 个数的均值和标准差；"
              "这里 γ = 1、β = 0、ε = 10⁻⁵")
FFN_FORMULA = "max(0, v W₁ + b₁) W₂ + b₂，W₁: 6 × 24，W₂: 24 × 6（d_ff = 4d = 24）"
ADD_FORMULA = "y = x + F(x)：两个 {n} × 6 矩阵逐元素相加（残差连接）"
MHA_FORMULA = "Concat(头 A, 头 B) W_O，W_O = [I; I] / 2：两个头的输出逐维取平均"
TEXT = {
    "x": ("输入", "X：{n} 行 × 6 列，句子里每个词一行嵌入",
          "第 3 节的 6 维词向量，原样叠成 {n} × 6 的矩阵（这里没有加位置编码）。"),
    ("post", "mha"): ("多头注意力", MHA_FORMULA,
                      "第 5 节的两个头：语义头 A 和看前一个词的头 B。每一行都变成了其他行的加权混合。"),
    ("post", "add1"): ("残差相加", ADD_FORMULA,
                       "注意力的结果加回原来的 x，原有的特征一个也没丢，只是多了从别的词拿来的东西。"),
    ("post", "ln1"): ("LayerNorm", LN_FORMULA,
                      "每一行单独标准化。看右边的 μ、σ 两栏：各行均值都是 0，标准差都落在 1 那条线上。"),
    ("post", "ffn"): ("前馈网络 FFN", FFN_FORMULA,
                      "同一个 6 → 24 → 6 的小网络分别作用在每一行上，行与行之间互不相干。"
                      "权重是种子为 7 的固定随机数。"),
    ("post", "add2"): ("残差相加", ADD_FORMULA,
                       "FFN 的结果加回它的输入 h。各行的尺度又变得参差不齐。"),
    ("post", "ln2"): ("LayerNorm（本层输出）", LN_FORMULA,
                      "第二次标准化之后，这就是这一层交出的结果：每行均值 0、标准差约 1，可以直接喂给下一层。"),
    ("pre", "ln1"): ("LayerNorm（子层入口）", LN_FORMULA,
                     "先把 x 的一份副本标准化再送进注意力，主干上的 x 本身保持不变。"),
    ("pre", "mha"): ("多头注意力", MHA_FORMULA,
                     "同样的两个头，只是它们读到的是标准化后的 LN(x)。"),
    ("pre", "add1"): ("残差相加", ADD_FORMULA,
                      "注意力的结果加到没有归一化过的主干 x 上。主干上只有加法。"),
    ("pre", "ln2"): ("LayerNorm（子层入口）", LN_FORMULA,
                     "再取主干 r 的一份副本标准化，准备送进 FFN。"),
    ("pre", "ffn"): ("前馈网络 FFN", FFN_FORMULA,
                     "FFN 逐行加工 LN(r)，每行独立，权重和 Post-LN 时相同。"),
    ("pre", "add2"): ("残差相加（本层输出）", ADD_FORMULA,
                      "这就是 Pre-LN 这一层的输出。它没有再经过归一化，所以各行的标准差不等于 1。"),
    ("pre", "ln_final"): ("最终 LayerNorm", LN_FORMULA,
                          "不属于每一层：整个 Pre-LN 网络只在最后一层之后补这一次归一化，再交给输出层。"
                          "接在这里是为了对比。"),
}


def _text(layout, key, n):
    """(name, formula, note) of a step, for a sentence of n tokens."""
    name, formula, note = TEXT["x"] if key == "x" else TEXT[(layout, key)]
    return name, formula.format(n=n), note.format(n=n)


def _clean(m, digits):
    """Values that round to zero at `digits` decimals become +0.0 (no "-0.000" on the page)."""
    m = np.asarray(m, dtype=float)
    return np.where(np.abs(m) < 0.5 * 10.0 ** -digits, 0.0, m)


def ffn_hidden(layout, steps=None):
    """(n, 24): the ReLU layer inside this layout's FFN, max(0, v W1 + b1) (steps: the
    layout's encoder_steps, default the book's example)."""
    steps = {s["key"]: s["matrix"] for s in steps or encoder.encoder_steps(layout)}
    v = steps["ln1"] if layout == "post" else steps["ln2"]  # (n, 6): the FFN's input
    w = encoder.ffn_weights()
    return ffn.relu(v @ w["w1"] + w["b1"])  # (n, 24)


def layer(layout, example=None):
    """What a layout and the example decide, whatever the step (the weights are fixed, so
    moving to another step only picks another one): the FFN's hidden layer with its picture;
    for the step's part, the steps over the example's sentence, the step list's names, the
    sentence's slots."""
    ex = resolve_example(example)[0]
    tokens = list(ex["tokens"])
    steps = encoder.encoder_steps(layout, x=sentence_embeddings(ex),  # x: (n, 6)
                                  w_q=semantic_head_of(ex)[0])
    n = len(tokens)
    hidden = ffn_hidden(layout, steps)  # (n, 24)
    # a fixed box whatever n is (the rows get taller for a shorter sentence): the raster's
    # paths, transform and ticks are bound, its viewBox is not
    hidden_fig = figure.heatmap(hidden, form="raster", diverging=False, lo=0.0, width=312,
                                height=108, label_w=28, label_h=22, row_name="词",
                                col_name="24 个隐藏单元")
    names = [_text(layout, t["key"], n)[0] for t in steps]
    return {"d_ff": hidden.shape[1],
            "hidden": padded(hidden, MAX_TOKENS),  # (n, 24) in (MAX_TOKENS, 24), zeros below
            "hidden_fig": hidden_fig,
            "hidden_cols": [str(j + 1) for j in range(hidden.shape[1])],
            "hidden_shape": f"{n} × {hidden.shape[1]}",
            "_steps": steps, "_tokens": tokens, "_token_slots": slots(tokens), "_names": names,
            "_list": [{"key": t["key"], "name": name, "label": t["label"]}
                      for t, name in zip(steps, names)]}


def picture(tokens, matrix, mean, std):
    """The step's matrix (n, 6) as a heatmap (the same scale at every step, so a LayerNorm is
    seen to even the rows out), each row's mean and standard deviation as bars beside it. Every
    row has MAX_TOKENS slots at fixed places: the unused ones hidden (no label, no readout),
    below the viewBox, which ends under the sentence's last row."""
    n, d = matrix.shape
    spare = MAX_TOKENS - n
    labels = list(tokens) + [""] * spare
    heat = figure.heatmap(padded(matrix, MAX_TOKENS), labels,  # (12, 6), zeros below n
                          [f"维 {j + 1}" for j in range(d)], form="grid", cell=CELL,
                          label_w=LABEL_W, label_h=TOP, limit=TONE_FULL)
    heat["say"][n:] = [[""] * d for _ in range(spare)]
    heat["legend"]["note"] = "每一步同一刻度"
    ys = [y + (CELL - BAR_H) / 2 for y in heat["ys"]]
    mu_x = heat["width"] + BARS_GAP
    sd_x = mu_x + BARS_W + BARS_GAP
    beside = {"form": "beside", "ys": ys, "width": BARS_W, "height": BAR_H}
    mu = figure.bars(list(mean) + [0.0] * spare, tokens, x=mu_x, bottom=-1.0, top=1.0,
                     name="均值 μ", **beside)
    sd = figure.bars(list(std) + [0.0] * spare, tokens, x=sd_x, bottom=0.0, top=2.0, ref=1.0,
                     name="标准差 σ", **beside)
    for bars in (mu, sd):
        for i, bar in enumerate(bars["bars"]):
            bar["hidden"] = i >= n
            if bar["hidden"]:
                bar["say"] = ""
    bottom = TOP + n * CELL  # the used rows' bottom edge
    width, height = sd_x + BARS_W + 8, bottom + 20
    return {"heat": heat,
            "rows": [{"y": y + CELL / 2, "label": t, "hidden": i >= n}
                     for i, (y, t) in enumerate(zip(heat["ys"], labels))],
            "col_x": [x + CELL / 2 for x in heat["xs"]],
            "cols": [str(j + 1) for j in range(d)],
            "label_x": LABEL_W - 6, "col_y": TOP - 8, "title_y": 14, "axis_y": bottom + 14,
            "mu": mu, "sd": sd,
            "mu_title_x": mu_x + BARS_W / 2, "sd_title_x": sd_x + BARS_W / 2,
            "top": TOP, "bottom": bottom, "ref_y1": TOP - 4, "ref_y2": bottom + 4,
            "width": width, "height": height, "viewbox": f"0 0 {width} {height}",
            "aria": f"当前的 {n} × {d} 矩阵（行：词；列：{d} 个维度），紫色为负、橙色为正；"
                    "右侧是每一行的均值 μ 和标准差 σ，虚线标出 σ = 1"}


def at_step(layer, step, layout):
    """The step's matrix, its picture and its names (a step past the end of the layout's list
    is its last)."""
    part = layer
    steps, tokens = part["_steps"], part["_tokens"]
    i = min(step, len(steps)) - 1
    s = steps[i]
    n, d = s["matrix"].shape
    name, formula, note = _text(layout, s["key"], n)
    mean, std = _clean(s["row_mean"], 3), s["row_std"]  # each (n,)
    grid = np.column_stack([_clean(s["matrix"], 3), mean, std])  # (n, 8): 6 values, mean, std
    return {
        "layout": layout, "layout_name": LAYOUT_NAMES[layout],
        "step": i + 1, "n_steps": len(steps), "key": s["key"], "kind": s["kind"],
        "name": name, "label": s["label"], "formula": formula, "note": note,
        "shape": f"{n} × {d}", "is_norm": s["kind"] == "norm",
        "steps": part["_list"],
        # the step list always has MAX_STEPS items; a shorter layout hides its last ones
        "slots": [{"name": part["_names"][k] if t else "", "label": t["label"] if t else "",
                   "hidden": t is None, "selected": str(k == i).lower()}
                  for k, t in enumerate(steps + [None] * (MAX_STEPS - len(steps)))],
        "prev_off": str(i == 0).lower(), "next_off": str(i == len(steps) - 1).lower(),
        "tokens": tokens, "n": n, "token_slots": part["_token_slots"], "d": d,
        "grid": padded(grid, MAX_TOKENS),  # (n, 8) in (MAX_TOKENS, 8), zeros below
        "row_mean": mean, "row_std": std,
        "mean_abs_max": float(np.max(np.abs(mean))),
        "std_min": float(std.min()), "std_max": float(std.max()),
        "fig": picture(tokens, _clean(s["matrix"], 4), mean, std),
    }


PARTS = (layer, at_step)
