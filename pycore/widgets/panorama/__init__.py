"""Widget panorama: the clickable map of a decoder-only forward pass in GPT-2's Pre-LN order,
with the running example's shapes on the edges and the parameter count of every block.

Blocks in data order: text -> tokens -> embedding + position -> L x [LayerNorm -> attention
-> (+) residual, LayerNorm -> FFN -> (+) residual] -> final LayerNorm -> output projection ->
softmax -> sampling. The sentence has 9 tokens, so the edges carry 9 x d inside the model,
9 x V after the output projection and V for the last row that sampling reads.

Parameter counts are those of pycore.params.count with biases left out, the output matrix
tied to the embedding and no learned position table: per layer 4 d^2 (attention), 8 d^2
(FFN, d_ff = 4 d) and 2 d for each of its two LayerNorms (gamma and beta); 2 d for the final
LayerNorm; V d for the embedding. Their sum is 12 L d^2 + 4 L d + 2 d + V d, next to chapter
10's estimate 12 L d^2 + V d.

The view also lays the diagram out (top to bottom, in SVG units): a box per block, a circle
per residual addition, an arrow per edge with its shape, the two residual paths that go
around a LayerNorm and its sublayer, and the frame of the repeated layer. The layout does not
depend on d, V or L; only the texts do. The view comes in parts (PARTS,
pycore/view_parts.py): the diagram, sent once; the numbers of d, V and L; the chosen block.
"""
from ... import example, figure
from ...params import count, estimate

N = len(example.TOKENS)  # 9 tokens in the running example

NORM_LINK = ("07-encoder-layer.html", "第 7 节：残差与 LayerNorm")

# key, name, label in the diagram, in (symbolic), out (symbolic), params formula or "",
# repeated per layer, links, shape in the diagram ("box", "norm" or "add")
BLOCKS = [
    ("text", "原始文本", "原始文本", "—", "1 个字符串", "", False,
     [("03-embeddings.html", "第 3 节：分词与嵌入")], "box"),
    ("tokens", "分词", "分词", "1 个字符串", "9 个整数", "", False,
     [("03-embeddings.html", "第 3 节：分词与嵌入")], "box"),
    ("embed", "嵌入 + 位置", "嵌入 + 位置", "9 个整数", "9 × d", "V · d", False,
     [("03-embeddings.html", "第 3 节：词嵌入"), ("06-positional-encoding.html", "第 6 节：位置编码")],
     "box"),
    ("norm-1", "LayerNorm（注意力之前）", "LayerNorm", "9 × d", "9 × d", "2 · d", True,
     [NORM_LINK], "norm"),
    ("attention", "多头注意力", "多头注意力", "9 × d", "9 × d", "4 · d²", True,
     [("04-attention.html", "第 4 节：注意力"), ("05-multi-head.html", "第 5 节：多头"),
      ("08-decoder.html", "第 8 节：因果掩码")], "box"),
    ("add-1", "残差相加（注意力之后）", "残差相加", "9 × d 和 9 × d", "9 × d", "", True,
     [NORM_LINK], "add"),
    ("norm-2", "LayerNorm（前馈网络之前）", "LayerNorm", "9 × d", "9 × d", "2 · d", True,
     [NORM_LINK], "norm"),
    ("ffn", "前馈网络", "前馈网络", "9 × d", "9 × d", "8 · d²", True,
     [("07-encoder-layer.html", "第 7 节：前馈网络"), ("10-parameters.html", "第 10 节：参数在哪里")],
     "box"),
    ("add-2", "残差相加（前馈网络之后）", "残差相加", "9 × d 和 9 × d", "9 × d", "", True,
     [NORM_LINK], "add"),
    ("final-norm", "最终 LayerNorm", "最终 LayerNorm", "9 × d", "9 × d", "2 · d", False,
     [NORM_LINK, ("10-parameters.html", "第 10 节：参数在哪里")], "norm"),
    ("output", "输出投影", "输出投影", "9 × d", "9 × V", "d × V 的矩阵与嵌入矩阵共享", False,
     [("09-sampling.html", "第 9 节：生成与采样"), ("10-parameters.html", "第 10 节：参数在哪里")],
     "box"),
    ("softmax", "softmax", "softmax", "9 × V", "9 × V", "", False,
     [("02-softmax.html", "第 2 节：softmax 与温度")], "box"),
    ("sampling", "采样", "采样", "V", "1 个 token", "", False,
     [("09-sampling.html", "第 9 节：生成与采样")], "box"),
]
KEYS = [b[0] for b in BLOCKS]
REPEATED = [b[0] for b in BLOCKS if b[6]]
MAX_LINKS = max(len(b[7]) for b in BLOCKS)  # link slots of the panel

TEXT = {
    "text": "一切从一段普通的文字开始。模型不能直接对字符做运算，所以第一步总是把它切开。",
    "tokens": "分词器按照事先定好的词表把句子切成 token，并把每个 token 换成它在词表里的编号。"
              "例句按本书的按词切分得到 9 个编号（GPT-2 的分词器会把它切成 31 个），"
              "每个都落在 0 到 V − 1 之间。词表是查找规则，不含要训练的权重。",
    "embed": "拿每个编号去嵌入矩阵（V 行 × d 列）里取出对应的那一行，9 个编号就成了 9 个 d 维向量；"
             "再加上位置信息，模型才分得清谁先谁后。这 9 个向量就是贯穿所有层的“主干”。",
    "norm-1": "GPT-2 的顺序（Pre-LN）：主干上的向量先复制一份，用 LayerNorm 把每一行拉回均值 0、"
              "标准差 1 的尺度，再乘 γ、加 β，然后才送进注意力。主干本身不被归一化。",
    "attention": "每个位置用自己的查询向量去和它左边（含自己）的每个位置比对，再按得到的权重把它们的值向量加起来。"
                 "各个位置之间交换信息，只发生在这一步。",
    "add-1": "残差连接：注意力的输出直接加回主干上原来的向量（绕过 LayerNorm 和注意力的那条线），形状不变。"
             "加法没有参数；这条一路直通的主干，让很深的网络也训练得动。",
    "norm-2": "第二次 LayerNorm，放在前馈网络的入口，和第一次一样只归一化送进子层的那一份，"
              "有自己的一组 γ 和 β。",
    "ffn": "同一个两层小网络分别加工每个位置的向量：先升到 4d 维，过一个非线性激活，再降回 d 维。"
           "位置与位置之间在这里互不往来。",
    "add-2": "前馈网络的输出同样加回主干，这就是这一层的输出：9 × d 进来，9 × d 出去，交给下一层。",
    "final-norm": "L 层都走完以后，主干上的向量再做一次 LayerNorm，才送去输出投影。"
                  "Pre-LN 的各层只归一化送进子层的拷贝，主干一路只做加法，尺度会越积越大，"
                  "所以出口要补上这一次。GPT-2 的代码里它叫 ln_f。",
    "output": "每个位置的向量乘以一个 d × V 的矩阵，得到词表里每个词的分数（logit）。"
              "许多模型直接拿嵌入矩阵的转置来用，因此这里不多出参数。",
    "softmax": "把每一行的 V 个分数变成概率：个个为正，合起来正好是 1。训练时前 8 行各以句中的下一个词为答案、"
               "参与计算损失；最后一行要猜的词不在句中。",
    "sampling": "生成时只用最后一行，也就是“了”之后的预测。按温度、top-k、top-p 从这个分布里抽出一个词，"
                "接到句尾，再跑下一轮。",
}

PARAMS = {
    "d_model": {"type": "int", "min": 1, "max": 65536, "default": 768,
                "help": "model width d (the chapter's example: GPT-2 small, 768)"},
    "vocab": {"type": "int", "min": 2, "max": 1_000_000, "default": 50257,
              "help": "vocabulary size V (GPT-2: 50257)"},
    "layers": {"type": "int", "min": 1, "max": 1000, "default": 12,
               "help": "number of repeated blocks L (GPT-2 small: 12)"},
    "block": {"type": "choice", "choices": KEYS, "default": "attention",
              "help": "the block whose explanation, shapes and parameters are shown"},
}


def grouped(n):
    """123568896 -> '123,568,896'."""
    return f"{int(n):,}"


def short(n):
    """123568896 -> '123.6M', 1536 -> '1.5K', 0 -> '0' (one decimal)."""
    for unit, size in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(int(n))


def numeric(shape, d, vocab):
    """'9 × d' -> '9 × 768'; 'V' -> '50257'; word shapes stay as they are."""
    sub = {"d": str(d), "V": str(vocab)}
    return " ".join(sub.get(p, p) for p in shape.split(" "))


def both(shape, d, vocab):
    """'9 × d' -> '9 × d = 9 × 768'; a shape without letters is written once."""
    num = numeric(shape, d, vocab)
    return shape if num == shape else f"{shape} = {num}"


def block_params(d, layers, vocab):
    """Parameters of one copy of every block (per layer for the repeated ones), and the total."""
    c = count(d, layers, vocab, bias=False, final_norm=True, tied=True)
    norm = c["layer_norms"] // (2 * layers)
    out = {key: 0 for key in KEYS}
    out.update({"embed": c["token_embedding"], "norm-1": norm, "norm-2": norm,
                "attention": c["attention"] // layers, "ffn": c["mlp"] // layers,
                "final-norm": c["final_norm"], "output": c["output"]})
    return out, c["total"]


# the parameter formula with the numbers put in
FILLED = {"embed": "{V} × {d}", "attention": "4 × {d}²", "norm-1": "2 × {d}",
          "ffn": "8 × {d}²", "norm-2": "2 × {d}", "final-norm": "2 × {d}"}


def params_line(key, formula, each, total, layers, repeated, embed, d, vocab):
    """The parameter count of one block, as the panel writes it."""
    if key == "output":
        return f"{formula}，不另计：0（不共享时另加 V · d = {grouped(embed)}）"
    if not formula:
        return "0（没有要训练的权重）"
    line = f"{formula} = {FILLED[key].format(d=d, V=vocab)} = {grouped(each)}"
    return f"{line}（每层）；× {layers} 层 = {grouped(total)}" if repeated else line


def count_text(key, each, repeated):
    """What the diagram writes in a block beside its name: its parameters, if it has any."""
    if key == "output":
        return "与嵌入共享"
    if not each:
        return ""
    return f"{short(each)}/层" if repeated else short(each)


def _block(spec, d, layers, vocab, n_params):
    key, name, label, shape_in, shape_out, formula, repeated, links, _ = spec
    each = n_params[key]
    total = each * layers if repeated else each
    inner = f"中间层 {N} × 4d = {N} × {4 * d}" if key == "ffn" else ""
    slots = [{"href": h, "title": t, "hidden": False} for h, t in links]
    slots += [{"href": "", "title": "", "hidden": True}] * (MAX_LINKS - len(links))
    return {
        "key": key, "name": name, "label": label, "text": TEXT[key],
        "in_sym": shape_in, "in_num": numeric(shape_in, d, vocab),
        "out_sym": shape_out, "out_num": numeric(shape_out, d, vocab),
        "in_text": both(shape_in, d, vocab), "out_text": both(shape_out, d, vocab),
        "formula": formula, "repeated": repeated,
        "params": each, "params_text": grouped(each), "params_short": short(each),
        "count": count_text(key, each, repeated),
        "total": total, "total_text": grouped(total),
        "params_line": params_line(key, formula, each, total, layers, repeated,
                                   n_params["embed"], d, vocab),
        "inner": inner, "no_inner": not inner,
        "links": slots,
    }


# ---------------------------------------------------------------- the diagram's layout

WIDTH = 360
CX = 196            # the main column: the residual stream runs down it
BOX_W = 200         # a block spans CX - BOX_W / 2 .. CX + BOX_W / 2
HEIGHT = {"box": 30, "norm": 26, "add": 26}
GAP = 28            # the edge between two blocks (its arrow and its shape); a block's hit area
                    # reaches half-way into the edges above and below it, so that on a phone
                    # (the figure about 290 px wide) even a LayerNorm is a 44 px target
RES_X = 64          # the residual paths go down on the left of the blocks
FRAME = (26, 344)   # the repeated layer's frame, from x to x
PAD = 12            # room inside the frame above the first and below the last repeated block


def layout():
    """Positions of the blocks (top to bottom), the edges between them, the residual paths
    and the layer frame, in SVG units of a WIDTH-wide figure."""
    y, boxes = 8, []
    for k, spec in enumerate(BLOCKS):
        key, shape = spec[0], spec[8]
        if key == REPEATED[0]:
            frame_top = y
            y += PAD + 16  # the frame's label sits above its first block
        h = HEIGHT[shape]
        boxes.append({"key": key, "label": spec[2], "shape": shape,
                      "x": CX - BOX_W / 2, "y": y, "w": BOX_W,
                      "h": h, "cy": y + h / 2, "r": h / 2})
        y += h
        if key == REPEATED[-1]:
            y += PAD
            frame_bottom = y
        if k < len(BLOCKS) - 1:
            y += GAP
    edges = []
    for a, b in zip(boxes, boxes[1:]):
        top = a["y"] + a["h"] if a["shape"] != "add" else a["cy"] + a["r"]
        bottom = b["y"] if b["shape"] != "add" else b["cy"] - b["r"]
        arrow = figure.arrow(CX, top, CX, bottom, head=6)
        # the shape is written beside the arrow, half a gap below the block it leaves (above
        # the lower block where the edge leaves the frame: not on the frame's border)
        ly = bottom - GAP / 2 + 4 if a["key"] == REPEATED[-1] else top + GAP / 2 + 4
        edges.append({**arrow, "lx": CX + 9, "ly": figure.r(ly)})
    by_key = {b["key"]: b for b in boxes}
    residuals = []
    for norm, add in (("norm-1", "add-1"), ("norm-2", "add-2")):
        start = by_key[norm]["y"] - GAP / 2  # the split point, half-way down the edge above
        end = by_key[add]
        split = f"M{CX},{figure.r(start)} H{RES_X} V{figure.r(end['cy'])}"
        head = figure.arrow(RES_X, end["cy"], CX - end["r"], end["cy"], head=6)
        residuals.append({"d": split, **head, "dot_y": figure.r(start)})
    frame = {"x": FRAME[0], "y": frame_top, "w": FRAME[1] - FRAME[0],
             "h": frame_bottom - frame_top, "lx": FRAME[1] - 8, "ly": frame_top + 16}
    loop_y = y + 8 + 12
    for b in boxes:
        for k in ("x", "y", "w", "h", "cy", "r"):
            b[k] = figure.r(b[k])
        b["tx"] = figure.r(b["x"] + 10)            # the name, left in the box
        b["nx"] = figure.r(b["x"] + b["w"] - 10)   # the count, right in the box
        b["ty"] = figure.r(b["cy"] + 4)            # the baseline of its texts
        b["py"] = figure.r(b["cy"] + 5)            # a circle's "+"
        b["hit_y"], b["hit_h"] = figure.r(b["y"] - GAP / 2), b["h"] + GAP  # the target
    return {"width": WIDTH, "height": loop_y + 8, "boxes": boxes, "edges": edges,
            "residuals": residuals, "frame": frame, "loop_y": loop_y, "cx": CX,
            "add_lx": CX + 20}


LAYOUT = layout()


def block_table(d_model, vocab, layers):
    """Every block's explanation, shapes and parameters, in data order; and the total."""
    n_params, model_total = block_params(d_model, layers, vocab)
    return [_block(s, d_model, layers, vocab, n_params) for s in BLOCKS], n_params, model_total


def diagram():
    """The layout: the same for every d, V and L, so a page that holds it never gets it again."""
    return {"fig": LAYOUT, "n_tokens": N}


def numbers(d_model, vocab, layers):
    """Every block's counts and shapes, the edges' texts and the totals."""
    blocks, n_params, model_total = block_table(d_model, vocab, layers)
    edges = [b["out_text"] for b in blocks[:-1]]  # edge i joins block i to block i + 1
    edges[KEYS.index("softmax")] = f"取最后一行：V = {vocab}"
    per_layer = sum(n_params[k] for k in REPEATED)
    est = estimate(d_model, layers, vocab)
    return {
        "d_model": d_model, "vocab": vocab, "layers": layers,
        "d_ff": 4 * d_model, "counts": [b["count"] for b in blocks], "edges": edges,
        "layer_params_text": grouped(per_layer),
        "final_norm_text": grouped(n_params["final-norm"]),
        "model_total": model_total, "model_total_text": grouped(model_total),
        "model_total_short": short(model_total),
        "estimate_text": grouped(est),
        "repeat_text": f"× L = {layers} 层",
        "_blocks": blocks,
    }


def chosen(numbers, block):
    """The chosen block's explanation, shapes, parameters and links."""
    return {"block": block, "sel": numbers["_blocks"][KEYS.index(block)]}


PARTS = (diagram, numbers, chosen)
