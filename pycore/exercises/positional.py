"""Chapter 6: the sinusoidal positional encoding and RoPE (pycore/positional.py).

Both use pair i of dimensions (2i, 2i+1) and the frequency w_i = 10000**(-2i/d).
"""
import numpy as np

from .. import positional as pos
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array
BASE = pos.BASE

PE_DOC = """
正弦位置编码表，形状 (n_pos, d_model)：位置 p 的第 i 对维度 (2i, 2i+1) 是
    PE[p, 2i] = sin(w_i * p),  PE[p, 2i+1] = cos(w_i * p),  w_i = 1 / 10000**(2i / d_model)

n_pos: 位置个数（位置 0, 1, ..., n_pos-1）。
d_model: 维数，必须是正的偶数，否则抛出 ValueError。
"""

PE_SOLUTION = """
if d_model <= 0 or d_model % 2 != 0:
    raise ValueError(f"d_model 必须是正的偶数，而不是 {d_model}")
p = np.arange(n_pos).reshape(-1, 1)  # (n_pos, 1)
i = np.arange(d_model // 2)  # (d_model/2,)
w = 1.0 / 10000 ** (2 * i / d_model)  # 第 i 对的频率
angles = p * w  # (n_pos, d_model/2)：广播
pe = np.zeros((n_pos, d_model))
pe[:, 0::2] = np.sin(angles)  # 偶数维
pe[:, 1::2] = np.cos(angles)  # 奇数维
return pe
"""

ROPE_DOC = """
旋转位置编码：把每一行 x[t] 的每一对 (x[t, 2i], x[t, 2i+1]) 逆时针转过角度 positions[t] * w_i，
    w_i = 1 / 10000**(2i / d)
也就是 (a, b) -> (a cos θ - b sin θ, a sin θ + b cos θ)。

x: (n, d)，d 为偶数；positions: (n,)，第 t 行所在的位置。返回 (n, d)。
"""

ROPE_SOLUTION = """
n, d = x.shape
w = 1.0 / 10000 ** (2 * np.arange(d // 2) / d)  # (d/2,)
theta = positions.reshape(-1, 1) * w  # (n, d/2)：每行每对的转角
c, s = np.cos(theta), np.sin(theta)
a, b = x[:, 0::2], x[:, 1::2]  # 每一对的第一个和第二个数，各 (n, d/2)
out = np.zeros_like(x)
out[:, 0::2] = a * c - b * s
out[:, 1::2] = a * s + b * c
return out
"""


# --- wrong answers ---------------------------------------------------------------------

def _freq(d, exponent):
    return BASE ** (-exponent / d)


def _table(n_pos, d, sin_freq, cos_freq, interleave=True, sin_first=True):
    p = np.arange(n_pos).reshape(-1, 1)
    s, c = np.sin(p * sin_freq), np.cos(p * cos_freq)
    if not sin_first:
        s, c = c, s
    if not interleave:
        return np.concatenate([s, c], axis=1)
    pe = np.empty((n_pos, d))
    pe[:, 0::2], pe[:, 1::2] = s, c
    return pe


def _pe_i_over_d(n_pos, d_model):
    f = _freq(d_model, np.arange(d_model // 2))
    return _table(n_pos, d_model, f, f)


def _pe_own_index(n_pos, d_model):
    return _table(n_pos, d_model, _freq(d_model, np.arange(0, d_model, 2)),
                  _freq(d_model, np.arange(1, d_model, 2)))


def _pe_halves(n_pos, d_model):
    f = pos.frequencies(d_model)
    return _table(n_pos, d_model, f, f, interleave=False)


def _pe_swapped(n_pos, d_model):
    f = pos.frequencies(d_model)
    return _table(n_pos, d_model, f, f, sin_first=False)


def _pe_from_one(n_pos, d_model):
    return pos.encode(np.arange(1, n_pos + 1), d_model)


def _rope_halves(x, positions):
    d = x.shape[1]
    theta = positions.reshape(-1, 1) * pos.frequencies(d)
    c, s = np.cos(theta), np.sin(theta)
    a, b = x[:, :d // 2], x[:, d // 2:]
    return np.concatenate([a * c - b * s, a * s + b * c], axis=1)


def _rope_clockwise(x, positions):
    return pos.rope(x, -positions)


def _rope_i_over_d(x, positions):
    d = x.shape[1]
    return pos.rope(x, positions, theta=_freq(d, np.arange(d // 2)))


def _rope_one_angle(x, positions):
    return pos.rope(x, positions, theta=1.0)


# --- cases -----------------------------------------------------------------------------

def _random_pe(rng):
    return [Case(f"n_pos={n}，d_model={d}", {"n_pos": n, "d_model": d})
            for n, d in zip(draw.sizes(rng, high=50),
                            (2 * k for k in draw.sizes(rng, high=16)))]


def _random_rope(rng):
    cases = []
    for n in draw.sizes(rng, high=6):
        d = 2 * int(rng.integers(1, 9))
        positions = rng.integers(0, 200, size=n).astype(float)
        cases.append(Case(f"n={n}，d={d}", {"x": draw.values(rng, (n, d)),
                                             "positions": positions}))
    return cases


def _unit_pairs(d, pair):
    """(1, d): zeros except pair `pair`, which is (1, 0)."""
    x = np.zeros((1, d))
    x[0, 2 * pair] = 1.0
    return x


PE = Exercise(
    id="sinusoidal-encoding",
    chapter=6,
    title="正弦位置编码",
    signature="sinusoidal(n_pos, d_model)",
    statement=(
        "写函数 sinusoidal(n_pos, d_model)，返回 (n_pos, d_model) 的正弦位置编码表：偶数维放 "
        "sin、奇数维放 cos，第 i 对维度的频率是 1/10000^(2i/d_model)；d_model 不是正偶数时抛出 "
        "ValueError。检查的内容：小表格、只有一个位置、d_model=2、较远的位置、奇数的 d_model，"
        "以及一批随机大小。"),
    starter=program("sinusoidal(n_pos, d_model)", PE_DOC, "raise NotImplementedError"),
    solution=program("sinusoidal(n_pos, d_model)", PE_DOC, PE_SOLUTION),
    hints=(
        "先做出 (n_pos, 1) 的位置列和 (d_model/2,) 的频率行，相乘时广播成 (n_pos, d_model/2) "
        "的角度表。",
        "第 2i 维和第 2i+1 维共用同一个频率 w_i（指数里是 2i，不是维度自己的下标）。",
        "pe[:, 0::2] 选出所有偶数列，pe[:, 1::2] 选出所有奇数列。",
    ),
    reference=pos.sinusoidal,
    reference_name="pycore.positional.sinusoidal",
    atol=1e-10,
    fixed=[
        Case("4 个位置，d_model=4", {"n_pos": 4, "d_model": 4}),
        Case("只有一个位置", {"n_pos": 1, "d_model": 6},
             note="位置 0 的编码是 [0, 1, 0, 1, ...]：sin 0 = 0，cos 0 = 1。"),
        Case("d_model=2：只有一对", {"n_pos": 5, "d_model": 2}),
        Case("d_model=16，位置 0..9", {"n_pos": 10, "d_model": 16}, hard=True),
        Case("较远的位置（到 999）", {"n_pos": 1000, "d_model": 8}),
        Case("奇数的 d_model", {"n_pos": 3, "d_model": 5}, raises=ValueError,
             note="维度是成对使用的，d_model 必须是偶数：奇数时应该 raise ValueError(...)。"),
    ],
    random=_random_pe,
    timing=lambda rng: Case("2048 个位置，d_model=512", {"n_pos": 2048, "d_model": 512}),
    mistakes=[
        Mistake("exponent-i", _pe_i_over_d,
                "你的频率指数用的是 i/d_model，应该是 2i/d_model（i 是第几对）：w_i = "
                "1/10000^(2i/d_model)，最慢的一对周期接近 2π·10000。"),
        Mistake("own-index", _pe_own_index,
                "奇数维用了它自己的下标 2i+1 来算频率。一对里的 sin 和 cos 要共用同一个频率 "
                "w_i = 1/10000^(2i/d_model)，这样它们才是同一个角度的两个坐标。"),
        Mistake("halves", _pe_halves,
                "你把所有 sin 放在前一半、所有 cos 放在后一半。本书（和原论文）的约定是交错排列："
                "第 2i 维是 sin，第 2i+1 维是 cos。"),
        Mistake("cos-first", _pe_swapped, "sin 和 cos 放反了：偶数维放 sin，奇数维放 cos。"),
        Mistake("from-one", _pe_from_one, "位置要从 0 开始：np.arange(n_pos)。"),
    ],
)

ROPE = Exercise(
    id="rope",
    chapter=6,
    title="旋转位置编码 RoPE",
    signature="rope(x, positions)",
    statement=(
        "写函数 rope(x, positions)：把 x 的每一行按它所在的位置旋转，每一对相邻的维度 "
        "(2i, 2i+1) 逆时针转过 位置 × 1/10000^(2i/d) 弧度。检查的内容：位置 0（不转）、"
        "二维向量转 1 弧度、两行四维、只有某一对不为零的向量（看是否转错了对）、很远的位置，"
        "以及一批随机输入。"),
    starter=program("rope(x, positions)", ROPE_DOC, "raise NotImplementedError"),
    solution=program("rope(x, positions)", ROPE_DOC, ROPE_SOLUTION),
    hints=(
        "x[:, 0::2] 是每一对的第一个数，x[:, 1::2] 是第二个数；转角表是 positions 的列乘以"
        "频率的行，形状 (n, d/2)。",
        "二维旋转 (a, b) → (a cos θ − b sin θ, a sin θ + b cos θ)：θ > 0 时是逆时针。",
    ),
    reference=pos.rope,
    reference_name="pycore.positional.rope",
    atol=1e-10,
    fixed=[
        Case("位置 0：不转", {"x": A([[1.0, 2.0, 3.0, 4.0]]), "positions": A([0.0])}),
        Case("二维向量 (1, 0) 转 1 弧度", {"x": A([[1.0, 0.0]]), "positions": A([1.0])},
             note="d=2 时频率是 1，(1, 0) 转 1 弧度应得 (cos 1, sin 1) ≈ (0.5403, 0.8415)。"),
        Case("两行四维，位置 1 和 2", {"x": A([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]]),
                                   "positions": A([1.0, 2.0])}),
        Case("d=8，只有最后一对不为零", {"x": _unit_pairs(8, 3), "positions": A([100.0])},
             hard=True,
             note="只有第 6、7 维不为零：转完以后也只能是这两维不为零，而且转角是 100 × "
                  "10000^(-6/8) = 0.1 弧度。"),
        Case("同一个向量放在不同位置", {"x": A([[0.6, 0.8, -1.0, 0.5]] * 4),
                                    "positions": A([0.0, 1.0, 2.0, 3.0])}),
        Case("很远的位置", {"x": A([[1.0, -2.0, 0.5, 3.0]]), "positions": A([5000.0])}),
    ],
    random=_random_rope,
    timing=lambda rng: Case("1024 行，d=256", {"x": rng.normal(size=(1024, 256)),
                                              "positions": np.arange(1024.0)}),
    mistakes=[
        Mistake("half-pairs", _rope_halves,
                "你把第 i 维和第 i+d/2 维配成了一对（有些库的 rotate_half 写法）。本书和原论文"
                "配对的是相邻的两维 (2i, 2i+1)：x[:, 0::2] 和 x[:, 1::2]。"),
        Mistake("clockwise", _rope_clockwise,
                "你转的方向反了（顺时针）：(a, b) → (a cos θ − b sin θ, a sin θ + b cos θ)。"),
        Mistake("exponent-i", _rope_i_over_d,
                "频率的指数应该是 2i/d（i 是第几对），你用的是 i/d。"),
        Mistake("one-frequency", _rope_one_angle,
                "你让每一对都转同样的角度（频率都是 1）。第 i 对的频率是 1/10000^(2i/d)，"
                "越往后转得越慢。"),
    ],
)

EXERCISES = [PE, ROPE]
