"""Chapter 7: LayerNorm over the last axis (pycore/norms.py)."""
from functools import partial

import numpy as np

from .. import norms
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array

DOC = """
LayerNorm：对每个 token 的向量（最后一维）减去均值、除以标准差，再缩放、平移：
    y = gamma * (x - mean) / sqrt(var + eps) + beta

x: (..., d)，最后一维是特征；gamma, beta: (d,)。
var 是有偏方差（除以 d，不是 d - 1）；eps 加在根号里面。
"""

SOLUTION = """
mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
var = x.var(axis=-1, keepdims=True)  # (..., 1)，有偏方差：除以 d
return gamma * (x - mean) / np.sqrt(var + eps) + beta
"""


def _wrong(x, gamma, beta, eps=1e-5, ddof=0, eps_outside=False, axis=-1, use_eps=True):
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True, ddof=ddof)
    if not use_eps:
        return gamma * (x - mean) / np.sqrt(var) + beta
    denom = np.sqrt(var) + eps if eps_outside else np.sqrt(var + eps)
    return gamma * (x - mean) / denom + beta


def _random(rng):
    cases = []
    for d in draw.sizes(rng, high=16):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(rng.integers(1, 4)) for _ in range(ndim - 1)) + (d,)
        x = draw.values(rng, shape, scale=float(rng.choice([0.1, 1.0, 10.0])))
        x = x + float(rng.normal(0, 5))  # rows need not be centred already
        inputs = {"x": x, "gamma": rng.normal(1.0, 0.5, d), "beta": rng.normal(0.0, 0.5, d)}
        if rng.random() < 0.3:
            inputs["eps"] = float(rng.choice([1e-6, 1e-3, 0.1]))
        cases.append(Case(f"形状 {shape}", inputs))
    return cases


def _ones(d):
    return {"gamma": np.ones(d), "beta": np.zeros(d)}


EXERCISE = Exercise(
    id="layer-norm",
    chapter=7,
    title="层归一化 LayerNorm",
    signature="layer_norm(x, gamma, beta, eps=1e-5)",
    statement=(
        "写函数 layer_norm(x, gamma, beta, eps=1e-5)：沿最后一维把每个 token 的向量标准化成"
        "均值 0、方差 1，再乘 gamma、加 beta。方差除以 d（有偏），eps 加在根号里。"
        "检查的内容：一行、带 gamma 和 beta 的两行、常数行、只有一维的特征、方差很小（eps "
        "起作用）的一行、三维输入、传入的 eps，以及一批随机形状。"),
    starter=program("layer_norm(x, gamma, beta, eps=1e-5)", DOC, "raise NotImplementedError"),
    solution=program("layer_norm(x, gamma, beta, eps=1e-5)", DOC, SOLUTION),
    hints=(
        "均值和方差都沿最后一维算，并且 keepdims=True，这样 (..., 1) 才能和 (..., d) 广播。",
        "np.var 默认就是有偏方差（ddof=0）；除以 d - 1 的是样本方差，LayerNorm 不用它。",
        "eps 要加在方差上、根号里面：np.sqrt(var + eps)。",
    ),
    reference=norms.layer_norm,
    reference_name="pycore.norms.layer_norm",
    rtol=1e-8,
    atol=1e-10,
    fixed=[
        Case("一行，gamma=1，beta=0", {"x": A([1.0, 2.0, 3.0, 4.0]), **_ones(4)}),
        Case("两行，带 gamma 和 beta", {"x": A([[1.0, 2.0, 6.0], [-3.0, 0.0, 3.0]]),
                                    "gamma": A([1.0, 2.0, 0.5]), "beta": A([0.0, -1.0, 1.0])}),
        Case("常数行：方差为 0", {"x": A([[5.0, 5.0, 5.0]]), "gamma": A([2.0, 2.0, 2.0]),
                                "beta": A([1.0, 2.0, 3.0])},
             note="一行全相等时 x - mean = 0，方差也是 0：分母里的 eps 让结果是 0 而不是 0/0，"
                  "输出就是 beta。"),
        Case("只有一维特征（d=1）", {"x": A([[3.0], [-2.0]]), "gamma": A([1.5]),
                                  "beta": A([0.5])},
             note="d=1 时每行只有一个数，有偏方差是 0；除以 d - 1 = 0 就会得到 nan。"),
        Case("方差很小：eps 起作用", {"x": A([1.0, 1.001, 0.999, 1.0]), **_ones(4)}, hard=True,
             note="这一行的方差约 5e-7，比 eps=1e-5 还小：sqrt(var + eps) 和 sqrt(var) + eps "
                  "差得很远。"),
        Case("三维输入 (B, T, D)", {"x": np.arange(24.0).reshape(2, 3, 4) ** 1.5,
                                  "gamma": A([1.0, -1.0, 2.0, 0.5]),
                                  "beta": A([0.1, 0.2, 0.3, 0.4])}),
        Case("传入 eps=0.1", {"x": A([[0.0, 0.5, 1.0]]), **_ones(3), "eps": 0.1},
             note="这里传入了 eps=0.1：要用参数 eps，而不是写死的 1e-5。"),
    ],
    random=_random,
    timing=lambda rng: Case("(8, 128, 512) 的输入", {"x": rng.normal(size=(8, 128, 512)),
                                                  "gamma": rng.normal(size=512),
                                                  "beta": rng.normal(size=512)}),
    nonfinite_hint="方差为 0 时分母也是 0：eps 要加在根号里面，np.sqrt(var + eps)，分母才不会是 0。",
    mistakes=[
        Mistake("unbiased-variance", partial(_wrong, ddof=1),
                "你用了无偏方差（除以 d - 1）。LayerNorm 用的是有偏方差，除以 d：np.var(x, "
                "axis=-1, keepdims=True)，或 np.mean((x - mean) ** 2, ...)。"),
        Mistake("eps-outside-sqrt", partial(_wrong, eps_outside=True),
                "eps 加在了根号外面：sqrt(var) + eps。约定是 sqrt(var + eps)，方差很小时两者"
                "差别很大。"),
        Mistake("no-eps", partial(_wrong, use_eps=False),
                "分母里没有 eps：方差为 0 时就成了 0/0。写成 np.sqrt(var + eps)。"),
        Mistake("wrong-axis", partial(_wrong, axis=0),
                "你沿第 0 维（跨 token）求了均值和方差。LayerNorm 是每个 token 自己标准化："
                "沿最后一维，axis=-1。"),
        Mistake("fixed-eps", lambda x, gamma, beta, eps=1e-5: norms.layer_norm(x, gamma, beta),
                "你没有用传入的 eps，而是写死了 1e-5。"),
        Mistake("no-gamma-beta", lambda x, gamma, beta, eps=1e-5: norms.layer_norm(x, eps=eps),
                "你只做了标准化，还要乘 gamma、加 beta。"),
        Mistake("swapped-gamma-beta",
                lambda x, gamma, beta, eps=1e-5: norms.layer_norm(x, beta, gamma, eps),
                "gamma 和 beta 用反了：乘的是 gamma，加的是 beta。"),
    ],
)

EXERCISES = [EXERCISE]
