"""Widget model-map: the whole Transformer as one map, every part a link to the widget of the
chapter that builds it (chapter 14's recap).

The map is the original encoder-decoder (left column the encoder, right column the decoder,
the encoder's output reaching the decoder's cross-attention), the inside of attention, and
the chapters around the model. The one control picks a family: the full encoder-decoder
(translation), decoder-only (GPT) or encoder-only (BERT); the parts a family leaves out are
dimmed, not removed, so every link stays where the reader saw it. Everything but the dimming
and the caption is fixed: the view returns the same geometry for every family.
"""
from ... import figure

# (label, chapter file, widget of that chapter), top to bottom; None: an empty row
ENCODER = [
    ("分词", "03-embeddings", "bpe"),
    ("词向量", "03-embeddings", "embedding"),
    ("+ 位置编码", "06-positional-encoding", "positional-encoding"),
    ("多头自注意力", "05-multi-head", "multi-head"),
    ("残差 + 归一化", "07-encoder-layer", "encoder-layer"),
    None,  # the decoder's cross-attention has no counterpart here
    ("前馈网络", "07-encoder-layer", "encoder-layer"),
    ("残差 + 归一化", "07-encoder-layer", "encoder-layer"),
]
DECODER = [
    ("已生成的词", "09-sampling", "kv-cache"),
    ("词向量", "03-embeddings", "embedding"),
    ("+ 位置编码", "06-positional-encoding", "rope"),
    ("因果自注意力", "08-decoder", "attention"),
    ("残差 + 归一化", "07-encoder-layer", "encoder-layer"),
    ("交叉注意力", "08-decoder", "cross-attention"),
    ("前馈网络", "07-encoder-layer", "encoder-layer"),
    ("残差 + 归一化", "07-encoder-layer", "encoder-layer"),
    ("线性 + softmax", "02-softmax", "softmax"),
    ("采样", "09-sampling", "sampling"),
]
CROSS = 5          # the decoder's row of cross-attention
LAYER = (3, 7)     # the rows repeated N times, in both columns
# the inside of one attention, left to right, and the chapters around the model
INSIDE = [("点积", "01-dot-product", "dot-product"),
          ("÷√d", "04-attention", "scaling-variance"),
          ("softmax", "02-softmax", "softmax"),
          ("加权求和", "04-attention", "weighted-sum")]
AROUND = [("参数量", "10-parameters", "param-count"), ("训练", "13-training", "lr-schedule"),
          ("图像 ViT", "11-vit", "vit-patches"), ("代码实验", "15-code-lab", "code-lab")]

FAMILIES = {
    "encoder-decoder": ("编码器–解码器", "原始 Transformer（翻译）：左列读原句，右列一边看原句一边逐词生成。"),
    "decoder-only": ("仅解码器", "GPT 一类：只留右列，没有交叉注意力，靠因果掩码一个词一个词往下写。"),
    "encoder-only": ("仅编码器", "BERT 一类：只留左列，每个词都看得到整句，输出每个词的表示，不做生成。"),
}

PARAMS = {
    "family": {"type": "choice", "choices": list(FAMILIES), "default": "encoder-decoder",
               "help": "which family of the model to show: the parts it lacks are dimmed"},
}

# layout, SVG units: two columns of boxes, then two rows of small boxes
WIDTH = 340
COL_X, COL_W = (6, 176), 148
TOP, STEP, BOX_H = 30, 38, 28
SMALL_W, SMALL_H, SMALL_GAP = 78.5, 40, 5


def href(chapter, widget):
    """The address of a chapter's widget: its page, and the id the build gives it."""
    return f"{chapter}.html#{widget}-{chapter}"


def tag(chapter):
    """§n of a chapter file ("13b-..." is part of 13)."""
    return "§" + str(int(chapter[:2]))


def box(label, chapter, widget, x, y, w, h, part):
    return {"label": label, "tag": tag(chapter), "href": href(chapter, widget), "part": part,
            "x": x, "y": y, "w": w, "h": h, "cx": figure.r(x + w / 2)}


def down_arrow(x, y0, y1):
    """A short arrow from y0 down to y1 at x: its shaft and its head (a path each)."""
    return {"d": f"M{figure.r(x)} {y0}V{y1 - 5}",
            "head": f"M{figure.r(x - 4)} {y1 - 6}L{figure.r(x + 4)} {y1 - 6}L{figure.r(x)} {y1}Z"}


def column(rows, x, part):
    boxes, arrows = [], []
    for i, row in enumerate(rows):
        if row is None:
            continue
        y = TOP + i * STEP
        boxes.append(box(*row, x, y, COL_W, BOX_H, part))
        if i > 0 and rows[i - 1] is not None:
            arrows.append(down_arrow(x + COL_W / 2, y - STEP + BOX_H, y))
    return boxes, arrows


def layout():
    """The map's fixed geometry."""
    enc, enc_arrows = column(ENCODER, COL_X[0], "encoder")
    dec, dec_arrows = column(DECODER, COL_X[1], "decoder")
    dec[CROSS]["part"] = "cross"
    # the encoder's output (its last row) into the decoder's cross-attention
    out_y = TOP + (len(ENCODER) - 1) * STEP + BOX_H / 2
    cross_y = TOP + CROSS * STEP + BOX_H / 2
    mid_x = (COL_X[0] + COL_W + COL_X[1]) / 2
    link = {"d": f"M{COL_X[0] + COL_W} {out_y}H{mid_x}V{cross_y}H{COL_X[1] - 5}",
            "head": f"M{COL_X[1] - 6} {cross_y - 4}L{COL_X[1] - 6} {cross_y + 4}L{COL_X[1]} {cross_y}Z"}
    # the word sampled goes back to the decoder's input: autoregression
    right = COL_X[1] + COL_W
    last_y = TOP + (len(DECODER) - 1) * STEP + BOX_H / 2
    first_y = TOP + BOX_H / 2
    loop = {"d": f"M{right} {last_y}H{WIDTH - 2}V{first_y}H{right + 5}",
            "head": f"M{right + 6} {first_y - 4}L{right + 6} {first_y + 4}L{right} {first_y}Z"}
    frames = [{"x": x - 3, "y": TOP + LAYER[0] * STEP - 4, "w": COL_W + 6,
               "h": (LAYER[1] - LAYER[0]) * STEP + BOX_H + 8} for x in COL_X]
    repeat_y = TOP + CROSS * STEP + BOX_H / 2 + 5
    rows_end = TOP + len(DECODER) * STEP
    inside_y, around_y = rows_end + 26, rows_end + 26 + SMALL_H + 34
    small = lambda items, y, part: [box(*it, COL_X[0] + k * (SMALL_W + SMALL_GAP), y, SMALL_W,
                                        SMALL_H, part) for k, it in enumerate(items)]
    return {"width": WIDTH, "height": around_y + SMALL_H + 6,
            "heads": [{"x": figure.r(x + COL_W / 2), "label": t}
                      for x, t in zip(COL_X, ("编码器", "解码器"))],
            "boxes": enc + dec, "arrows": enc_arrows + dec_arrows, "link": link, "loop": loop,
            "frames": frames, "repeat": {"x": figure.r(COL_X[0] + COL_W / 2), "y": repeat_y,
                                         "label": "虚线框 × L 层"},
            "inside_title": {"x": COL_X[0], "y": inside_y - 8, "label": "注意力内部"},
            "around_title": {"x": COL_X[0], "y": around_y - 8, "label": "模型之外"},
            "small": small(INSIDE, inside_y, "inside") + small(AROUND, around_y, "around")}


DIMMED = {"encoder-decoder": set(), "decoder-only": {"encoder", "cross"},
          "encoder-only": {"decoder", "cross"}}


def view(family):
    fig = layout()
    off = DIMMED[family]
    for b in fig["boxes"] + fig["small"]:
        b["dim"] = b["part"] in off
    fig["link"]["dim"] = bool(off)  # without both columns nothing crosses between them
    fig["loop"]["dim"] = "decoder" in off
    name, caption = FAMILIES[family]
    return {"family": family, "name": name, "caption": caption, "fig": fig,
            "kept": sum(not b["dim"] for b in fig["boxes"])}
