"""Widget panorama: the clickable map of a decoder-only forward pass, with the running
example's shapes on the edges and the parameter count of every block.

Blocks in data order: text -> tokens -> embedding + position -> L x [attention, add & norm,
FFN, add & norm] -> output projection -> softmax -> sampling. The sentence has 9 tokens, so
the edges carry 9 x d inside the model, 9 x V after the output projection and V for the last
row that sampling reads.

Parameter counts are those of pycore.params.count with biases left out, the output matrix
tied to the embedding, no learned position table and no final norm: per layer 4 d^2
(attention), 8 d^2 (FFN, d_ff = 4 d) and 2 d for each LayerNorm (gamma and beta); V d for
the embedding. Their sum is 12 L d^2 + 4 L d + V d, next to chapter 10's estimate 12 L d^2 + V d.
"""
from .. import example
from ..params import count, estimate

N = len(example.TOKENS)  # 9 tokens in the running example

# key, name, in (symbolic), out (symbolic), params formula or "", repeated per layer, links
BLOCKS = [
    ("text", "原始文本", "—", "1 个字符串", "", False,
     [("03-embeddings.html", "第 3 节：分词与嵌入")]),
    ("tokens", "分词", "1 个字符串", "9 个整数", "", False,
     [("03-embeddings.html", "第 3 节：分词与嵌入")]),
    ("embed", "嵌入 + 位置", "9 个整数", "9 × d", "V · d", False,
     [("03-embeddings.html", "第 3 节：词嵌入"), ("06-positional-encoding.html", "第 6 节：位置编码")]),
    ("attention", "多头注意力", "9 × d", "9 × d", "4 · d²", True,
     [("04-attention.html", "第 4 节：注意力"), ("05-multi-head.html", "第 5 节：多头"),
      ("08-decoder.html", "第 8 节：因果掩码")]),
    ("add-norm-1", "相加与归一化", "9 × d", "9 × d", "2 · d", True,
     [("07-encoder-layer.html", "第 7 节：残差与 LayerNorm")]),
    ("ffn", "前馈网络", "9 × d", "9 × d", "8 · d²", True,
     [("07-encoder-layer.html", "第 7 节：前馈网络"), ("10-parameters.html", "第 10 节：参数在哪里")]),
    ("add-norm-2", "相加与归一化", "9 × d", "9 × d", "2 · d", True,
     [("07-encoder-layer.html", "第 7 节：残差与 LayerNorm")]),
    ("output", "输出投影", "9 × d", "9 × V", "d × V 的矩阵与嵌入矩阵共享", False,
     [("09-sampling.html", "第 9 节：生成与采样"), ("10-parameters.html", "第 10 节：参数在哪里")]),
    ("softmax", "softmax", "9 × V", "9 × V", "", False,
     [("02-softmax.html", "第 2 节：softmax 与温度")]),
    ("sampling", "采样", "V", "1 个 token", "", False,
     [("09-sampling.html", "第 9 节：生成与采样")]),
]
KEYS = [b[0] for b in BLOCKS]

TEXT = {
    "text": "一切从一段普通的文字开始。模型不能直接对字符做运算，所以第一步总是把它切开。",
    "tokens": "分词器按照事先定好的词表把句子切成 token，并把每个 token 换成它在词表里的编号。"
              "例句按本书的按词切分得到 9 个编号（GPT-2 的分词器会把它切成 31 个），"
              "每个都落在 0 到 V − 1 之间。词表是查找规则，不含要训练的权重。",
    "embed": "拿每个编号去嵌入矩阵（V 行 × d 列）里取出对应的那一行，9 个编号就成了 9 个 d 维向量；"
             "再加上位置信息，模型才分得清谁先谁后。",
    "attention": "每个位置用自己的查询向量去和它左边（含自己）的每个位置比对，再按得到的权重把它们的值向量加起来。"
                 "各个位置之间交换信息，只发生在这一步。",
    "add-norm-1": "先把注意力的输出加回它的输入（残差连接），再用 LayerNorm 把每一行拉回均值 0、标准差 1 的尺度。"
                  "图里按原论文的 Post-LN 顺序画；GPT-2 以后多把归一化挪到子层入口（Pre-LN）。",
    "ffn": "同一个两层小网络分别加工每个位置的向量：先升到 4d 维，过一个非线性激活，再降回 d 维。"
           "位置与位置之间在这里互不往来。",
    "add-norm-2": "和前面那次一样：FFN 的输出加回主干，再做一次 LayerNorm，然后把 9 × d 的结果交给下一层。",
    "output": "最后一层的每个位置乘以一个 d × V 的矩阵，得到词表里每个词的分数（logit）。"
              "许多模型直接拿嵌入矩阵的转置来用，因此这里不多出参数。"
              "Pre-LN 的模型（如 GPT-2）在这之前还有一次最终的 LayerNorm，图里没有画。",
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
    parts = shape.split(" × ")
    sub = {"d": str(d), "V": str(vocab)}
    return " × ".join(sub.get(p, p) for p in parts)


def both(shape, d, vocab):
    """'9 × d' -> '9 × d = 9 × 768'; a shape without letters is written once."""
    num = numeric(shape, d, vocab)
    return shape if num == shape else f"{shape} = {num}"


def block_params(d, layers, vocab):
    """Parameters of one copy of every block (per layer for the repeated ones)."""
    c = count(d, layers, vocab, bias=False, final_norm=False, tied=True)
    return {"text": 0, "tokens": 0, "embed": c["token_embedding"],
            "attention": c["attention"] // layers, "add-norm-1": c["layer_norms"] // (2 * layers),
            "ffn": c["mlp"] // layers, "add-norm-2": c["layer_norms"] // (2 * layers),
            "output": c["output"], "softmax": 0, "sampling": 0, "total": c["total"]}


# the parameter formula with the numbers put in
FILLED = {"embed": "{V} × {d}", "attention": "4 × {d}²", "add-norm-1": "2 × {d}",
          "ffn": "8 × {d}²", "add-norm-2": "2 × {d}"}


def params_line(key, formula, each, total, layers, repeated, embed, d, vocab):
    """The parameter count of one block, as the panel writes it."""
    if key == "output":
        return f"{formula}，不另计：0（不共享时另加 V · d = {grouped(embed)}）"
    if not formula:
        return "0（没有要训练的权重）"
    line = f"{formula} = {FILLED[key].format(d=d, V=vocab)} = {grouped(each)}"
    return f"{line}（每层）；× {layers} 层 = {grouped(total)}" if repeated else line


def _block(spec, d, layers, vocab, n_params):
    key, name, shape_in, shape_out, formula, repeated, links = spec
    each = n_params[key]
    total = each * layers if repeated else each
    return {
        "key": key, "name": name, "text": TEXT[key],
        "in_sym": shape_in, "in_num": numeric(shape_in, d, vocab),
        "out_sym": shape_out, "out_num": numeric(shape_out, d, vocab),
        "in_text": both(shape_in, d, vocab), "out_text": both(shape_out, d, vocab),
        "formula": formula, "repeated": repeated,
        "params": each, "params_text": grouped(each), "params_short": short(each),
        "total": total, "total_text": grouped(total),
        "params_line": params_line(key, formula, each, total, layers, repeated,
                                   n_params["embed"], d, vocab),
        "inner": f"中间层 {N} × 4d = {N} × {4 * d}" if key == "ffn" else "",
        "links": [{"href": h, "title": t} for h, t in links],
    }


def view(d_model, vocab, layers, block):
    n_params = block_params(d_model, layers, vocab)
    blocks = [_block(s, d_model, layers, vocab, n_params) for s in BLOCKS]
    edges = [b["out_text"] for b in blocks[:-1]]  # edge i joins block i to block i + 1
    edges[KEYS.index("softmax")] = f"9 × V → 取最后一行：V = {vocab}"
    per_layer = sum(n_params[k] for k in ("attention", "add-norm-1", "ffn", "add-norm-2"))
    est = estimate(d_model, layers, vocab)
    return {
        "d_model": d_model, "vocab": vocab, "layers": layers, "block": block, "n_tokens": N,
        "d_ff": 4 * d_model, "blocks": blocks, "edges": edges,
        "sel": blocks[KEYS.index(block)],
        "layer_params_text": grouped(per_layer),
        "model_total": n_params["total"], "model_total_text": grouped(n_params["total"]),
        "model_total_short": short(n_params["total"]),
        "estimate_text": grouped(est),
    }
