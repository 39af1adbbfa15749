"""Chapter 11: cutting an image into flattened patches (pycore/vit.py's patchify).

Patches are numbered in row-major order over the grid; each flattens in the order (row inside
the patch, column inside the patch, channel).
"""
import numpy as np

from .. import vit
from . import draw
from .spec import Case, Exercise, Mistake, program

DOC = """
把 (H, W, C) 的图像切成 P×P 的小块，每块展平成一行，返回 (N, P*P*C)，N = (H/P) * (W/P)。

块按网格的行优先编号：第 n 块在网格的第 n // (W/P) 行、第 n % (W/P) 列。
每块内部按（块内的行，块内的列，通道）的顺序展平。
H 或 W 不是 P 的整数倍时抛出 ValueError。
"""

SOLUTION = """
H, W, C = img.shape
if H % P != 0 or W % P != 0:
    raise ValueError(f"{H}x{W} 的图像切不成 {P}x{P} 的块")
h, w = H // P, W // P  # 网格有 h 行、w 列
x = img.reshape(h, P, w, P, C)  # 把行拆成 (网格行, 块内行)，把列拆成 (网格列, 块内列)
x = x.transpose(0, 2, 1, 3, 4)  # (h, w, P, P, C)：两个网格轴放到前面
return x.reshape(h * w, P * P * C)  # 每块一行
"""


def _img(H, W, C):
    """Pixel values 0, 1, 2, ... in (row, column, channel) order: each one says where it was."""
    return np.arange(H * W * C, dtype=float).reshape(H, W, C)


def _grid(img, P):
    H, W, C = img.shape
    return H // P, W // P, C


def _direct(img, P):
    return img.reshape(-1, P * P * img.shape[2])


def _column_major(img, P):
    h, w, C = _grid(img, P)
    return img.reshape(h, P, w, P, C).transpose(2, 0, 1, 3, 4).reshape(h * w, P * P * C)


def _channels_first(img, P):
    h, w, C = _grid(img, P)
    return img.reshape(h, P, w, P, C).transpose(0, 2, 4, 1, 3).reshape(h * w, P * P * C)


def _inside_transposed(img, P):
    h, w, C = _grid(img, P)
    return img.reshape(h, P, w, P, C).transpose(0, 2, 3, 1, 4).reshape(h * w, P * P * C)


def _random(rng):
    cases = []
    for n in draw.sizes(rng, high=4):
        P = int(rng.integers(1, n + 2))
        h, w, C = int(rng.integers(1, n + 2)), int(rng.integers(1, n + 2)), int(rng.choice([1, 3]))
        img = rng.integers(0, 256, size=(h * P, w * P, C)).astype(float)
        cases.append(Case(f"{h * P}×{w * P}×{C} 的图像，P={P}", {"img": img, "P": P}))
    return cases


EXERCISE = Exercise(
    id="patchify",
    chapter=11,
    title="把图像切成 patch",
    signature="patchify(img, P)",
    statement=(
        "写函数 patchify(img, P)：把 (H, W, C) 的图像切成 P×P 的块，按网格的行优先顺序排成 "
        "(N, P*P*C) 的矩阵，每块内部按（行，列，通道）展平；切不整时抛出 ValueError。"
        "检查的内容：像素值就是编号、一眼能看出顺序的小图，三通道、P=1、只有一块、"
        "高和宽不同的网格、切不整的图，以及一批随机图像。"),
    starter=program("patchify(img, P)", DOC, "raise NotImplementedError"),
    solution=program("patchify(img, P)", DOC, SOLUTION),
    hints=(
        "直接 reshape(N, P*P*C) 会把连续的一整行像素当成一块。先 reshape 成 "
        "(h, P, w, P, C)：行拆成（网格行，块内行），列拆成（网格列，块内列）。",
        "再用 transpose 把两个网格轴排到前面：(h, w, P, P, C)，最后 reshape 成 (h*w, P*P*C)。",
    ),
    reference=vit.patchify,
    reference_name="pycore.vit.patchify",
    rtol=0.0,
    atol=0.0,
    fixed=[
        Case("4×4 单通道，P=2", {"img": _img(4, 4, 1), "P": 2},
             note="第 0 块是左上角的 2×2：像素 0, 1（第 0 行）和 4, 5（第 1 行），"
                  "展平后是 [0, 1, 4, 5]。"),
        Case("2×4 三通道，P=2", {"img": _img(2, 4, 3), "P": 2},
             note="块内按（行，列，通道）展平：先是左上像素的 R、G、B，再是它右边的像素。"),
        Case("P=1：每个像素一块", {"img": _img(2, 3, 3), "P": 1}),
        Case("P 等于边长：只有一块", {"img": _img(3, 3, 2), "P": 3}),
        Case("6×4 的图像，P=2：网格 3 行 2 列", {"img": _img(6, 4, 1), "P": 2}, hard=True,
             note="网格有 3 行 2 列：第 0、1 块是最上面一行的两块，第 2 块才是第二行的第一块。"),
        Case("切不整", {"img": _img(5, 4, 1), "P": 2}, raises=ValueError,
             note="5 行切不成整数个 2 行的块：应该 raise ValueError(...)，不要悄悄丢掉一行。"),
    ],
    random=_random,
    timing=lambda rng: Case("224×224×3 的图像，P=16", {
        "img": rng.integers(0, 256, size=(224, 224, 3)).astype(float), "P": 16}),
    mistakes=[
        Mistake("direct-reshape", _direct,
                "你直接 reshape 成了 (N, P*P*C)。这样每一“块”是图像里连续的一串像素（一整行的"
                "一段），不是 P×P 的方块。先 reshape 成 (h, P, w, P, C)，再 transpose。"),
        Mistake("column-major-grid", _column_major,
                "块的编号顺序是按列的：你先走完网格的第一列。约定是行优先：先走完网格的第一行，"
                "transpose(0, 2, 1, 3, 4)。"),
        Mistake("channels-first", _channels_first,
                "块内是按（通道，行，列）展平的。约定是（行，列，通道）：通道在最后，"
                "同一个像素的 R、G、B 挨在一起。"),
        Mistake("inside-transposed", _inside_transposed,
                "块内是先按列再按行展平的（块被转置了）。约定是（块内的行，块内的列，通道）："
                "transpose(0, 2, 1, 3, 4)。"),
    ],
)

EXERCISES = [EXERCISE]
