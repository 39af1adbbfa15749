"""How the book writes very small and very large numbers: as pieces a page can show as text.

A widget binds each piece to its own element (digits fixed per element), so a learning rate
1.65e-4 is shown as "1.650 × 10^-4" and 1.4e12 training tokens as "1.40 T".
"""
import math

# (unit, size): a count is written with the largest unit that keeps it >= 1
UNITS = (("T", 1e12), ("B", 1e9), ("M", 1e6))


def sci(x, digits=3):
    """x as {"m": mantissa, "e": exponent} with the mantissa rounded to `digits` decimals.

    The rounding happens before the exponent is chosen, so 9.9996e-5 becomes 1.000 x 10^-4
    (never 10.000 x 10^-5). Zero is {"m": 0.0, "e": 0}.
    """
    mantissa, exponent = f"{float(x):.{digits}e}".split("e")
    return {"m": float(mantissa), "e": int(exponent)}


def scaled(x, digits=2):
    """A count with a unit: 1.4e12 -> {"value": 1.4, "unit": "T"}; below a million, no unit.

    The unit is chosen after rounding, so 999.999e9 is written 1.00 T rather than 1000.00 B.
    """
    for unit, size in UNITS:
        if round(abs(x) / size, digits) >= 1:
            return {"value": x / size, "unit": unit}
    return {"value": float(x), "unit": ""}


def log10(x):
    """log10 for a slider position; 0 and negative numbers have none (None)."""
    return math.log10(x) if x > 0 else None


# The book's symbols: one symbol, one meaning. Each entry is (TeX, meaning, pattern, chapters):
# `pattern` finds the symbol in a formula's TeX (a bare V, not W_V, \mathcal{V} or a word),
# `chapters` the chapters (file stems' numbers) whose formulas use it, in book order; the
# first is where the symbol is introduced. tests/test_notation.py checks the chapters' formulas
# against this list, and the build writes it as the notation page (符号表).
def _bare(letter):
    """A single letter standing alone: not a subscript's or superscript's base part (W_V,
    K^T), not inside a command (\\top) or a braced argument (\\mathcal{V}), not in a word."""
    return rf"(?<![\\_^A-Za-z{{]){letter}(?![A-Za-z_])"


SYMBOLS = (
    (r"d", "模型维度：每个 token 向量的长度", _bare("d"),
     ('00', '01', '03', '04', '05', '06', '07', '08', '09', '10', '10b', '11', '12', '14', '15')),
    (r"n", "个数：一句话的 token 数（序列长度）、图块数", _bare("n"),
     ('00', '01', '02', '04', '05', '07', '08', '09', '10', '10b', '11', '12', '15')),
    (r"L", "层数", _bare("L"),
     ('00', '07', '09', '10', '10b', '11', '14', '15')),
    (r"\lvert\mathcal{V}\rvert", "词表大小", r"\\mathcal\{V\}",
     ('00', '03', '09', '10', '13', '14', '15')),
    (r"Q,\ K,\ V", "查询、键、值矩阵（每个 token 一行）", _bare("V"),
     ('04', '08', '09', '12', '13', '14')),
    (r"W_Q,\ W_K,\ W_V,\ W_O", "注意力的投影矩阵", r"W_[QKVO]",
     ('03', '04', '05', '06', '08', '10', '10b', '13', '13b', '14', '15', '16')),
    (r"T", "softmax 的温度", _bare("T"),
     ('02', '04', '09', '10b', '11')),
    (r"\tau", "对比学习里的温度", r"\\tau\b",
     ('12',)),
    (r"m", "ALiBi 的斜率：每远一个位置扣的分", _bare("m"),
     ('06',)),
    (r"i,\ j", "查询、键所在的位置（RoPE 转的角度、ALiBi 扣的分都由它们定）",
     r"\((?:i-j|j-i)\)|(?<![\\_^A-Za-z{])[ij]\\theta",
     ('06',)),
    (r"\Pi", "置换矩阵：把词序打乱", r"\\Pi\b",
     ('06',)),
    (r"s_{\max}", "在线 softmax 里目前读到的最大分数", r"s_\{\\max\}",
     ('04',)),
    (r"t", "时间上的序号：序列里的第 t 个位置，训练的第 t 步", _bare("t"),
     ('00', '04', '06', '09', '10b', '13', '14')),
    (r"t_{\text{warm}}", "学习率预热的步数", r"t_\{\\text\{warm\}\}",
     ('13',)),
    (r"t_{\text{total}}", "训练的总步数", r"t_\{\\text\{total\}\}",
     ('13',)),
    (r"\eta", "学习率", r"\\eta\b",
     ('13',)),
    (r"\lambda", "权重衰减系数", r"\\lambda\b",
     ('13',)),
    (r"\ell", "注意力汇聚里高斯核的宽度", r"\\ell\b",
     ('04',)),
    (r"N", "模型的参数量", _bare("N"),
     ('10', '10b', '13', '14')),
    (r"n_{\text{原}},\ n_{\text{译}}", "交叉注意力里原文、译文的词数", r"n_\{\\text\{[原译]\}\}",
     ('08',)),
    (r"n_A,\ n_B", "图像匹配里两张图的关键点数", r"n_[AB]\b",
     ('12',)),
    (r"H_{\text{img}},\ W_{\text{img}}", "图像的高和宽（像素）", r"[HW]_\{\\text\{img\}\}",
     ('11', '12')),
    (r"P", "ViT 图块的边长（像素）", _bare("P"),
     ('11', '14')),
    (r"h", "多头注意力的头数（查询头）", _bare("h"),
     ('05', '10b', '14', '15')),
    (r"H", "熵", _bare("H"),
     ('02',)),
    (r"U,\ k_B", "玻尔兹曼分布里的能量和玻尔兹曼常数", r"(?<![\\_^A-Za-z{])U(?![A-Za-z_])|k_B",
     ('02',)),
    (r"D", "训练用的 token 数", _bare("D"),
     ('13', '14')),
    (r"B", "批大小：一批里的样本数（句子、图文对）", _bare("B"),
     ('08', '12', '15')),
    (r"M", "因果掩码矩阵（被遮住处是 −∞）", r"(?<![\\_^A-Za-z{])M(?![A-Za-z])",
     ('08',)),
    (r"E", "嵌入矩阵：把 token（或图块）变成 d 维向量", _bare("E"),
     ('03', '09', '11')),
    (r"X,\ Y", "按行摞起来的一组向量（一层的输入、输出）", _bare("[XY]"),
     ('01', '04', '05', '06', '07')),
    (r"w", "窗口宽度：一次看的相邻位置数（卷积核、滑动窗口；Swin 窗口的边长按图块计）", _bare("w"),
     ('00', '10b', '11')),
    (r"k", "top-k 的 k：留下的候选数、每个 token 去的专家数", _bare("k"),
     ('09', '10b')),
    (r"\delta", "两个位置之间的偏移", r"\\delta\b",
     ('06',)),
    (r"\Delta", "量化的步长（缩放因子）", r"\\Delta\b",
     ('10',)),
    (r"\kappa", "RoPE 上下文拉长的倍数", r"\\kappa\b",
     ('10b',)),
    (r"n_{\text{束}}", "束搜索的束宽", r"n_\{\\text\{束\}\}",
     ('09',)),
    (r"n_{\text{专家}}", "MoE 的专家数", r"n_\{\\text\{专家\}\}",
     ('10b',)),
    (r"n_{\text{训}}", "训练时的上下文长度（token 数）", r"n_\{\\text\{训\}\}",
     ('10b',)),
    (r"d_k", "每个头的查询、键向量的维度", r"d_k\b",
     ('01', '02', '04', '05', '06', '08', '10', '10b', '13', '14', '15')),
    (r"h_{\text{KV}}", "键值头的个数（GQA 的组数）", r"h_\{\\text\{KV\}\}",
     ('10b',)),
    (r"n_{\text{字节}}", "每个数占的字节数", r"n_\{\\text\{字节\}\}",
     ('10b',)),
    (r"p", "概率（一个 token 的、一条分布的，dropout 丢掉的比例）", _bare("p"),
     ('02', '04', '09', '13')),
    (r"b", "偏置（线性层加上的向量）", _bare("b"),
     ('11', '15')),
    (r"u,\ v", "WordPiece 打分的两个相邻片段", _bare("[uv]"),
     ('03',)),
    (r"g", "梯度（梯度裁剪里的整个梯度向量）", _bare("g"),
     ('13',)),
    (r"d_c", "MLA 缓存的潜向量维度", r"d_c\b",
     ('10b',)),
)

# Uses that say another meaning than the list's, found by their form: (chapter, TeX pattern,
# what it is), for a widget's label the chapter must match until the widget follows the list.
# A use found that is not listed here fails tests/test_notation.py, and so does a listed one
# no longer found.
PENDING = ()

# Old meanings of the letters above that must not come back, found by their form: the
# vocabulary as V, a sequence length or total steps as T, warmup as W, patches as N, a target
# length as m, and each letter that once said two things in the book (the entry says which).
RETIRED = (
    (r"(?<![_{])V\s*=\s*\d|\\ln V\b|\\times V\b|(?<![_{])V\\times d|(?<![_{])V\\?,?d\b", "词表大小写成 V"),
    (r"\(B,\s*T\b|T-W|W\^\{-1\.5\}|(?<![_{])W\s*=\s*\d|W\\le t", "序列长度、总步数、预热步数写成 T、W"),
    (r"N\s*=\s*\\frac\{H\}|N\\cdot M|N/M\^2", "图块数写成 N"),
    (r"m\\times n|m\\times d_k|m\\times m", "译文长度写成 m"),
    (r"m_\{\\text\{新\}\}|s_j-m\}|e\^\{m-|m=-\\infty", "在线 softmax 的最大值写成 m"),
    (r"[mn]\\theta|\b(?:n-m|m-n)\b", "RoPE 的位置写成 m、n"),
    (r"\(PX\)|P\\,\\operatorname", "置换矩阵写成 P"),
    (r"M\\times M|n/M\^2|n\\cdot M\^2|M/2", "Swin 的窗口边长写成 M（M 是 08 的掩码矩阵）"),
    (r"(?<![_{])H/g", "头数写成 H（H 是熵）"),
    (r"d_h\b", "每个头的维度写成 d_h（全书是 d_k）"),
    (r"h/g\b|(?<![_{])g=1|2Lg|\\times b\\", "键值头数、字节数写成 g、b（g 是梯度，b 是偏置）"),
    (r"d\\times E\b|E\\sum|nk/E|E=k", "专家数写成 E（E 是嵌入矩阵）"),
    (r"(?<![_{])B=1|AB\^\\top", "束宽、一叠向量写成 B（B 是批大小）"),
    (r"x/s\b|q\\,s\b|\bsL\b|p/s\b|\\ln s\b|\bs\^\{d", "量化步长、拉长倍数写成 s（s 是分数）"),
    (r"e\^\{-E/|\(kT\)|O\(n/k\)|\\log_k", "能量、卷积核宽度写成 E、k"),
    (r"p\+k\)|R\(k\)|\\omega_?i? k\b", "位置的偏移写成 k（k 是 top-k 的个数）"),
    (r"score\}\(a,b\)", "相邻片段写成 a、b（b 是偏置）"),
    (r"PE\(p|\\omega_i\\?,p\b|p\\,\\theta|p/\\kappa", "位置写成 p（p 是概率）"),
)

# Widget labels that still write a retired meaning (a widget's files are changed with it):
# (file, label, what it should say). tests/test_notation.py fails when one is gone, so that
# this list only shrinks; it may be empty.
WIDGET_LABELS = ()

# Labels a widget once wrote with a retired meaning, and what the book writes instead: none may
# come back in a widget's files (WIDGET_FILES) unless WIDGET_LABELS still lists it there.
RETIRED_LABELS = (
    ("词表 V", "词表大小 |𝒱|"),
    ("预热步数 W", "预热步数 t_warm"),
    ("总步数 T", "总步数 t_total"),
    ("(B, T, d)", "(B, n, d)：序列长度是 n"),
    ("查询位置 m", "查询位置 i"),
    ("键位置 n", "键位置 j"),
    ("m − n", "i − j"),
    ("q_m", "q_i"),
    ("A(PX)", "A(ΠX)"),
    ("m = max(", "s_max = max("),
    ("e^(s − m)", "e^(s − s_max)"),
    ("m旧 − m新", "旧 s_max − 新 s_max"),
    ("窗口边长 M", "窗口边长 w"),
    ("专家数 E", "专家数 n_专家"),
    ("E·Σ f·P", "n_专家·Σ f·P"),
    ("n·k/E", "n·k/n_专家"),
    ("拉长倍数 s", "拉长倍数 κ"),
    ("训练上下文 L", "训练上下文 n_训"),
    ("L 与 s·L", "n_训 与 κ·n_训"),
    ("步长 s =", "步长 Δ ="),
    ("偏移 k", "偏移 δ"),
    ("PE(p+k)", "PE(t+δ)"),
    ("PE(p+δ)", "PE(t+δ)"),
    ("起点 p", "起点 t"),
    ("N / M²", "n / w²"),
    ("M×M 窗口", "w×w 窗口"),
)

# Where a widget's labels are written: its markup, its view, its script and its notebook lesson.
# (each widget's folder holds them all: bookbuild/widget_parts.py)
WIDGET_FILES = ("pycore/widgets/*/template.html", "pycore/widgets/*/__init__.py",
                "pycore/widgets/*/widget.js", "pycore/widgets/*/lesson.py")
