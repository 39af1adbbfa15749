"""Chapter 2: softmax with a temperature, numerically stable (pycore/softmax.py)."""
import numpy as np

from .. import softmax as sm
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array
INF = np.inf

DOC = """
沿最后一维做带温度的 softmax：exp(z/T) / sum(exp(z/T))。

z: 形状 (n,) 或 (m, n) 的 logits；二维时每一行各自做 softmax。
temperature: 温度 T > 0。T < 1 让分布更尖，T > 1 让分布更平。
logits 可以很大（比如 1000），也可以是 -inf（被屏蔽的位置，权重为 0）。
"""

SOLUTION = """
z = z / temperature
z = z - np.max(z, axis=-1, keepdims=True)  # 每行减去自己的最大值：结果不变，exp 不会溢出
e = np.exp(z)
return e / np.sum(e, axis=-1, keepdims=True)
"""


def _random(rng):
    cases = []
    for n in draw.sizes(rng, high=12):
        rows = int(rng.integers(1, 4))
        shape = (n,) if rng.random() < 0.4 else (rows, n)
        z = draw.values(rng, shape)
        if rng.random() < 0.5:
            cases.append(Case(f"形状 {shape} 的 logits", {"z": z}))
        else:
            t = float(np.exp(rng.uniform(np.log(0.1), np.log(5.0))))
            cases.append(Case(f"形状 {shape}，T={t:.3g}", {"z": z, "temperature": t}))
    return cases


def _large(rng):
    return Case("400×500 的 logits", {"z": rng.normal(0.0, 3.0, size=(400, 500)),
                                      "temperature": 0.7})


def _plain(z, temperature=1.0):
    e = np.exp(z / temperature)
    return e / np.sum(e, axis=-1, keepdims=True)


def _global_max(z, temperature=1.0):
    e = np.exp(z / temperature - np.max(z / temperature))
    return e / np.sum(e, axis=-1, keepdims=True)


def _times_t(z, temperature=1.0):
    return sm.softmax(np.asarray(z) * temperature)


def _no_t(z, temperature=1.0):
    return sm.softmax(z)


def _sum_all(z, temperature=1.0):
    z = z / temperature
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / np.sum(e)


def _axis0(z, temperature=1.0):
    return sm.softmax(z, temperature, axis=0)


EXERCISE = Exercise(
    id="softmax",
    chapter=2,
    title="带温度的 softmax（数值稳定）",
    signature="softmax(z, temperature=1.0)",
    statement=(
        "写函数 softmax(z, temperature=1.0)：沿最后一维把 logits 变成概率，每行的和为 1。"
        "它要在 logits 很大（±1000）、温度很低、有 -inf 的时候都算得出正确的数。"
        "检查的内容：手算的小例子、不同温度、一行相等的 logits、只有一个 logit、±1000、"
        "-inf、二维输入按行计算，以及一批随机的 logits 和温度。"),
    starter=program("softmax(z, temperature=1.0)", DOC, "raise NotImplementedError"),
    solution=program("softmax(z, temperature=1.0)", DOC, SOLUTION),
    hints=(
        "exp(1000) 已经超出了浮点数的范围。softmax 的结果不会因为整行加减同一个数而改变，"
        "你可以利用这一点。",
        "先除以温度，再减去每行的最大值：np.max(z, axis=-1, keepdims=True)。keepdims=True "
        "让结果保持 (m, 1) 的形状，才能和 (m, n) 广播。",
        "求和也要沿最后一维、带 keepdims=True，否则二维输入会被整体归一化。",
    ),
    reference=sm.softmax,
    reference_name="pycore.softmax.softmax",
    fixed=[
        Case("三个 logits，默认温度", {"z": A([1.0, 2.0, 3.0])}),
        Case("温度 0.5：更尖", {"z": A([1.0, 2.0, 3.0]), "temperature": 0.5}),
        Case("温度 5：更平", {"z": A([2.0, 1.0, 0.1]), "temperature": 5.0}),
        Case("一行相等的 logits", {"z": A([4.0, 4.0, 4.0, 4.0])},
             note="logits 全相等时，每个概率都是 1/n。"),
        Case("只有一个 logit", {"z": A([7.0])}, note="只有一个数时，它的概率就是 1。"),
        Case("二维输入：每一行各做各的", {"z": A([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]])},
             note="二维输入时每一行是一个独立的分布，求最大值和求和都要沿 axis=-1。"),
        Case("有 -inf（被屏蔽的位置）", {"z": A([0.0, -INF, 1.0, -INF])},
             note="-inf 是注意力掩码的写法：exp(-inf) = 0，这些位置的概率应该正好是 0。"),
        Case("logits 为 ±1000", {"z": A([[1000.0, 1000.0, 999.0], [-1000.0, -1000.0, -999.0]])},
             hard=True),
        Case("两行的量级相差很大", {"z": A([[1000.0, 999.0], [1.0, 0.0]])},
             note="两行各有各的最大值：减去整个数组的最大值时，第二行全部变成 exp(-999) = 0。"),
        Case("很低的温度", {"z": A([1.0, 2.0, 3.0]), "temperature": 0.001},
             note="温度 0.001 时 z/T 达到 3000，exp 会溢出：同样要先减去最大值。"),
    ],
    random=_random,
    timing=_large,
    atol=1e-15,
    nonfinite_hint=(
        "exp(1000) 超出了浮点数能表示的范围，变成 inf，inf/inf 就是 nan；exp(-1000) 则变成 0，"
        "0/0 也是 nan。softmax 对整行加减同一个数不变，所以先减去每行的最大值 "
        "z - np.max(z, axis=-1, keepdims=True)：最大的指数变成 exp(0) = 1，不会溢出，"
        "分母至少是 1。"),
    mistakes=[
        Mistake("no-max-shift", _plain,
                "你直接计算了 exp(z/T)，没有先减去最大值，logits 很大或很小时就溢出成 nan。"),
        Mistake("global-max", _global_max,
                "你减去的是整个数组的最大值，而不是每一行自己的最大值。量级小的那一行全部"
                "变成 exp(很负的数) = 0，0/0 得到 nan。用 np.max(z, axis=-1, keepdims=True)。"),
        Mistake("times-temperature", _times_t,
                "你把 logits 乘以了温度。温度要做除数：z / temperature（T 越大分布越平）。"),
        Mistake("no-temperature", _no_t, "你的结果和温度无关：别忘了先把 z 除以 temperature。"),
        Mistake("sum-all", _sum_all,
                "二维输入被当成了一个整体来归一化：求和时要加 axis=-1, keepdims=True，"
                "让每一行的和各自为 1。"),
        Mistake("axis-0", _axis0,
                "你沿着第 0 维（按列）做了 softmax。要沿最后一维（axis=-1），每一行的和为 1。"),
    ],
)

EXERCISES = [EXERCISE]
