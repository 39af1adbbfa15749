"""Chapter 5: splitting d_model into heads and merging them back (pycore/block.py's
split_heads and merge_heads, shapes (B, T, D) <-> (B, H, T, Dh))."""
import numpy as np

from .. import block
from . import draw
from .spec import Case, Exercise, Mistake, program


def _x(*shape):
    """Entries 0, 1, 2, ... so that every number shows where it came from."""
    return np.arange(np.prod(shape), dtype=float).reshape(shape)


SPLIT_DOC = """
把 (B, T, D) 拆成 (B, H, T, Dh)，Dh = D // H：第 h 个头拿到第 h*Dh 到 (h+1)*Dh-1 列。

x: (B, T, D)，B 是批大小，T 是序列长度，D 是 d_model。
n_heads: 头数 H。D 不能被 H 整除时应该抛出 ValueError。
"""

SPLIT_SOLUTION = """
B, T, D = x.shape
if D % n_heads != 0:
    raise ValueError(f"d_model={D} 不能被 n_heads={n_heads} 整除")
x = x.reshape(B, T, n_heads, D // n_heads)  # (B, T, H, Dh)：最后一维切成 H 段
return x.transpose(0, 2, 1, 3)  # (B, H, T, Dh)：头的轴挪到 T 前面
"""

MERGE_DOC = """
split_heads 的逆运算：把 (B, H, T, Dh) 拼回 (B, T, D)，D = H * Dh。

每个 token 的 D 维向量依次是第 0 个头的 Dh 维、第 1 个头的 Dh 维……
"""

MERGE_SOLUTION = """
B, H, T, Dh = x.shape
x = x.transpose(0, 2, 1, 3)  # (B, T, H, Dh)
return x.reshape(B, T, H * Dh)  # (B, T, D)
"""


def _random_split(rng):
    cases = []
    for k, n in enumerate(draw.sizes(rng, high=4)):
        B, T, H, Dh = (int(rng.integers(1, n + 2)) for _ in range(4))
        cases.append(Case(f"B={B}，T={T}，D={H * Dh}，{H} 个头",
                          {"x": draw.values(rng, (B, T, H * Dh)), "n_heads": H}))
    return cases


def _random_merge(rng):
    return [Case(c.name, {"x": block.split_heads(c.inputs["x"], c.inputs["n_heads"]).copy()})
            for c in _random_split(rng)]


def _large_split(rng):
    return Case("B=8，T=256，D=512，8 个头", {"x": rng.normal(size=(8, 256, 512)),
                                            "n_heads": 8})


def _large_merge(rng):
    return Case("B=8，8 个头，T=256，Dh=64", {"x": rng.normal(size=(8, 8, 256, 64))})


def _split_no_transpose(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)


def _split_interleaved(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, D // n_heads, n_heads).transpose(0, 3, 1, 2)


def _split_no_swap(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads)


def _merge_no_transpose(x):
    B, H, T, Dh = x.shape
    return x.reshape(B, T, H * Dh)


def _merge_heads_last(x):
    B, H, T, Dh = x.shape
    return x.transpose(0, 2, 3, 1).reshape(B, T, H * Dh)


def _merge_no_reshape(x):
    return x.transpose(0, 2, 1, 3)


SPLIT = Exercise(
    id="split-heads",
    chapter=5,
    title="把 d_model 拆成多个头",
    signature="split_heads(x, n_heads)",
    statement=(
        "写函数 split_heads(x, n_heads)：把 (B, T, D) 的张量拆成 (B, H, T, Dh)，第 h 个头"
        "拿到 D 维中连续的第 h 段；D 不能被 H 整除时抛出 ValueError。检查的内容：用 0, 1, 2, "
        "… 填充、一眼能看出每个数去了哪里的小张量，一个头、每个头一维、批大小 2、长度 1、"
        "不能整除的 D，以及一批随机形状。"),
    starter=program("split_heads(x, n_heads)", SPLIT_DOC, "raise NotImplementedError"),
    solution=program("split_heads(x, n_heads)", SPLIT_DOC, SPLIT_SOLUTION),
    hints=(
        "reshape 只是换一种方式读同一串数，它总是从最后一维开始切：(B, T, D) 只能先变成 "
        "(B, T, H, Dh)，这样每个头才拿到连续的 Dh 列。",
        "然后用 transpose(0, 2, 1, 3) 把 H 和 T 两个轴交换位置。",
        "先用 D % n_heads 判断能否整除，不能就 raise ValueError(...)。",
    ),
    reference=block.split_heads,
    reference_name="pycore.block.split_heads",
    rtol=0.0,
    atol=0.0,
    fixed=[
        Case("B=1，T=3，D=4，2 个头", {"x": _x(1, 3, 4), "n_heads": 2},
             note="第 0 个 token 是 [0, 1, 2, 3]：头 0 应拿到 [0, 1]，头 1 拿到 [2, 3]。"),
        Case("只有一个头", {"x": _x(1, 3, 4), "n_heads": 1}),
        Case("每个头一维（H = D）", {"x": _x(1, 2, 3), "n_heads": 3}),
        Case("批大小 2，T=3，D=6，3 个头", {"x": _x(2, 3, 6), "n_heads": 3}, hard=True),
        Case("长度为 1", {"x": _x(2, 1, 4), "n_heads": 2}),
        Case("D=10 不能被 4 个头整除", {"x": _x(1, 2, 10), "n_heads": 4}, raises=ValueError,
             note="10 维分不成 4 个一样宽的头。应该抛出 ValueError，而不是悄悄丢掉几列。"),
    ],
    random=_random_split,
    timing=_large_split,
    mistakes=[
        Mistake("reshape-only", _split_no_transpose,
                "你直接 reshape 成了 (B, H, T, Dh)。reshape 不会搬动数据，这样切开的是"
                "“序列 × 特征”这一整块数，每个“头”拿到的是好几个 token 混在一起的数。先 reshape "
                "成 (B, T, H, Dh)，再 transpose(0, 2, 1, 3)。"),
        Mistake("interleaved", _split_interleaved,
                "你的第 h 个头拿到的是第 h, h+H, h+2H, … 列（隔 H 列取一列）。约定是每个头"
                "拿连续的一段：reshape(B, T, H, Dh)，不是 reshape(B, T, Dh, H)。"),
        Mistake("no-swap", _split_no_swap,
                "还差一步：(B, T, H, Dh) 还要把头的轴挪到 T 前面，transpose(0, 2, 1, 3)，"
                "得到 (B, H, T, Dh)。"),
    ],
)

MERGE = Exercise(
    id="merge-heads",
    chapter=5,
    title="把多个头拼回 d_model",
    signature="merge_heads(x)",
    statement=(
        "写函数 merge_heads(x)：split_heads 的逆运算，把 (B, H, T, Dh) 拼回 (B, T, D)，"
        "每个 token 的向量依次是各个头的输出。检查的内容：用 0, 1, 2, … 填充的小张量、"
        "一个头、每个头一维、批大小 2、长度 1，以及一批随机形状。"),
    starter=program("merge_heads(x)", MERGE_DOC, "raise NotImplementedError"),
    solution=program("merge_heads(x)", MERGE_DOC, MERGE_SOLUTION),
    hints=(
        "先把 T 挪回 H 前面：transpose(0, 2, 1, 3) 得到 (B, T, H, Dh)。",
        "这时每个 token 的 H 个头已经挨在一起了，再 reshape 成 (B, T, H * Dh)。",
    ),
    reference=block.merge_heads,
    reference_name="pycore.block.merge_heads",
    rtol=0.0,
    atol=0.0,
    fixed=[
        Case("B=1，2 个头，T=2，Dh=2", {"x": _x(1, 2, 2, 2)},
             note="头 0 的 token 0 是 [0, 1]，头 1 的 token 0 是 [4, 5]：拼起来 token 0 应是 "
                  "[0, 1, 4, 5]。"),
        Case("只有一个头", {"x": _x(1, 1, 3, 4)}),
        Case("每个头一维", {"x": _x(1, 3, 2, 1)}),
        Case("批大小 2，3 个头，T=3，Dh=2", {"x": _x(2, 3, 3, 2)}, hard=True),
        Case("长度为 1", {"x": _x(2, 2, 1, 3)}),
    ],
    random=_random_merge,
    timing=_large_merge,
    mistakes=[
        Mistake("reshape-only", _merge_no_transpose,
                "你直接 reshape 成了 (B, T, D)，没有先把 T 挪回 H 前面，拼在一起的是同一个头里"
                "不同 token 的数。先 transpose(0, 2, 1, 3)，再 reshape。"),
        Mistake("heads-last", _merge_heads_last,
                "你用的是 transpose(0, 2, 3, 1)，头的轴跑到了最后，拼出来是各个头交错的一列一列。"
                "用 transpose(0, 2, 1, 3)。"),
        Mistake("no-reshape", _merge_no_reshape,
                "还差一步：(B, T, H, Dh) 还要 reshape 成 (B, T, H * Dh)。"),
    ],
)

EXERCISES = [SPLIT, MERGE]
