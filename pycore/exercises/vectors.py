"""Chapter 1: the dot product and the cosine similarity (pycore/vectors.py)."""
import numpy as np

from .. import example, vectors
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array
CAT, ROAD = example.EMBEDDINGS[0], example.EMBEDDINGS[3]  # 小猫, 马路
PRONOUN_QUERY = example.EMBEDDINGS[5] @ example.semantic_head()[0]  # 它's query: [1 1 0 0 0 0]


def _pairs(rng, parallel=False):
    """Random (a, b) pairs; with parallel=True some b are multiples of a (cosine +-1)."""
    cases = []
    for k, n in enumerate(draw.sizes(rng, high=40)):
        a = draw.values(rng, n)
        if parallel and k % 5 == 4:
            b, name = a * float(rng.choice([-3.0, 0.5, 2.0])), f"长度 {n}，b 与 a 共线"
        else:
            b, name = draw.values(rng, n), f"长度 {n} 的随机向量"
        cases.append(Case(name, {"a": a, "b": b}))
    return cases


def _large(rng):
    n = 300_000
    return Case(f"长度 {n:,} 的向量", {"a": rng.normal(size=n), "b": rng.normal(size=n)})


def _dot_atol(inputs):
    """Summing in another order moves the result by about n * eps * sum |a_i b_i|."""
    a, b = inputs["a"], inputs["b"]
    return 1e-12 * (1.0 + float(np.abs(a).sum() * np.abs(b).max())) if a.size == b.size \
        else 0.0


DOT_DOC = """
两个向量的点积 a·b = a[0]*b[0] + a[1]*b[1] + ...，返回一个数。

a, b: 形状 (n,) 的数组。长度不同时点积没有定义，应该抛出 ValueError。
"""

DOT = Exercise(
    id="dot-product",
    chapter=1,
    title="点积",
    signature="dot(a, b)",
    statement=(
        "写函数 dot(a, b)，返回两个一维数组的点积（一个数）。两个向量长度不同时要抛出 "
        "ValueError。检查的内容：手算的小例子、互相垂直和方向相反的向量、长度为 1 的向量、"
        "长度不同的向量，以及一批随机向量。"),
    starter=program("dot(a, b)", DOT_DOC, "raise NotImplementedError"),
    solution=program("dot(a, b)", DOT_DOC, """
if len(a) != len(b):
    raise ValueError(f"长度不同：{len(a)} 和 {len(b)}")
return float(np.sum(a * b))  # 也可以写 a @ b
"""),
    hints=(
        "a * b 是逐元素相乘，得到一个和 a 一样长的数组；点积还要把这些乘积加起来。",
        "先用 len(a) != len(b) 判断长度，不同就 raise ValueError(...)。",
    ),
    reference=vectors.dot,
    reference_name="pycore.vectors.dot",
    fixed=[
        Case("两个二维向量", {"a": A([3.0, 4.0]), "b": A([2.0, 1.0])}),
        Case("互相垂直：点积为 0", {"a": A([1.0, 0.0]), "b": A([0.0, 5.0])}),
        Case("方向相反：点积为负", {"a": A([1.0, 2.0, 3.0]), "b": A([-1.0, -2.0, -3.0])}),
        Case("长度为 1", {"a": A([2.5]), "b": A([-4.0])}),
        Case("书中的例子：“它”的查询和“小猫”的键", {"a": PRONOUN_QUERY, "b": CAT.copy()}),
        Case("长度不同", {"a": A([1.0, 2.0, 3.0]), "b": A([1.0, 2.0])}, raises=ValueError,
             hard=True,
             note="两个向量长度不同时点积没有定义。用 zip 或按 b 的长度循环会悄悄丢掉多出来的元素，"
                  "应该先比较长度，不同就 raise ValueError(...)。"),
    ],
    random=_pairs,
    timing=_large,
    atol=_dot_atol,
    mistakes=[
        Mistake("elementwise", lambda a, b: a * b,
                "你返回的是逐元素乘积 a * b（一个数组）。点积还要把这些乘积加起来："
                "np.sum(a * b)，或者直接 a @ b。"),
        Mistake("sum-times-sum", lambda a, b: float(np.sum(a) * np.sum(b)),
                "你算的是 (a 的元素和) × (b 的元素和)。点积是对应位置先相乘、再求和，"
                "不是各自求和再相乘。"),
        Mistake("zip-truncates", lambda a, b: float(sum(x * y for x, y in zip(a, b))),
                "zip 在较短的向量用完时就停下，多出来的元素被悄悄丢掉了。先检查长度。"),
    ],
)


COS_DOC = """
两个向量的余弦相似度 cos θ = a·b / (|a| |b|)，返回一个数。

a, b: 形状 (n,) 的数组。有一个是零向量时夹角没有定义，按约定返回 0.0。
"""

COSINE = Exercise(
    id="cosine-similarity",
    chapter=1,
    title="余弦相似度",
    signature="cosine(a, b)",
    statement=(
        "写函数 cosine(a, b)，返回两个向量夹角的余弦：点积除以两个长度的乘积。"
        "有零向量时返回 0.0。检查的内容：同向、垂直、反向的向量，书中的例子，零向量，"
        "以及一批随机向量（其中有些互相平行）。"),
    starter=program("cosine(a, b)", COS_DOC, "raise NotImplementedError"),
    solution=program("cosine(a, b)", COS_DOC, """
na = np.sqrt(np.sum(a * a))  # |a|，也可以用 np.linalg.norm(a)
nb = np.sqrt(np.sum(b * b))
if na == 0 or nb == 0:
    return 0.0
return float(np.sum(a * b) / (na * nb))
"""),
    hints=(
        "向量的长度是 |a| = sqrt(a·a)：np.sqrt(np.sum(a * a)) 或 np.linalg.norm(a)。",
        "除法之前先判断 |a| 或 |b| 是否为 0，是就直接返回 0.0，否则会得到 nan。",
    ),
    reference=vectors.cosine,
    reference_name="pycore.vectors.cosine",
    fixed=[
        Case("同一方向、长度不同：余弦为 1", {"a": A([1.0, 2.0]), "b": A([3.0, 6.0])}),
        Case("互相垂直：余弦为 0", {"a": A([2.0, 0.0]), "b": A([0.0, 0.5])}),
        Case("方向相反：余弦为 -1", {"a": A([1.0, -1.0, 2.0]), "b": A([-2.0, 2.0, -4.0])}),
        Case("书中的例子：“它”的查询和“马路”的键", {"a": PRONOUN_QUERY, "b": ROAD.copy()}),
        Case("长度为 1", {"a": A([3.0]), "b": A([-2.0])}),
        Case("有一个零向量", {"a": A([0.0, 0.0, 0.0]), "b": A([1.0, 2.0, 3.0])}, hard=True,
             note="零向量的长度是 0，除以 0 得到 nan。题目约定这时返回 0.0。"),
    ],
    random=lambda rng: _pairs(rng, parallel=True),
    timing=_large,
    mistakes=[
        Mistake("one-norm", lambda a, b: float(a @ b / np.linalg.norm(a)),
                "你只除了 |a|，还要再除以 |b|：cos θ = a·b / (|a| |b|)。"),
        Mistake("squared-norms", lambda a, b: float(a @ b / ((a @ a) * (b @ b))),
                "你除的是 (a·a)(b·b)，也就是长度的平方。长度要开平方：|a| = sqrt(a·a)。"),
        Mistake("angle", lambda a, b: vectors.angle_degrees(a, b),
                "你返回的是夹角（度），题目要的是夹角的余弦。"),
        Mistake("no-zero-check", lambda a, b: float(a @ b / (np.linalg.norm(a) *
                                                              np.linalg.norm(b))),
                "零向量的长度是 0，a·b / (|a| |b|) 成了 0/0 = nan。先判断长度是否为 0，"
                "是就返回 0.0。"),
    ],
)

EXERCISES = [DOT, COSINE]
