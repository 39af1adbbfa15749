"""The notebook lesson of the widget quantize (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "量化：用更少的位存权重"
KEYS = ["bits", "symmetric", "granularity", "group_size", "levels", "n_scales", "weight"]
MOVED = {"bits": 4, "symmetric": False, "granularity": "group", "group_size": 64}


def lesson(params, view, same):
    step(r"对称量化：每一块（整个矩阵、每一列或每列的每一组）的缩放因子是 $\Delta=\max|x|/(2^{b-1}-1)"
         r"$，存 $q=\mathrm{round}(x/\Delta)$，读回 $q\Delta$。非对称量化多存一个零点 "
         r"$z$，把 $2^b$ 个整数铺满 $[\min, \max]$。")
    from pycore import quantize as Q
    W = Q.lab_weight("W_Q")  # (128, 128)：代码实验里的 W_Q
    b = params["bits"]
    g = {"tensor": 128 * 128, "channel": 128, "group": params["group_size"]}
    n = g[params["granularity"]]  # 共用一个缩放因子的数
    blocks = W.T.reshape(-1, n)  # 一列接一列切块：(块数, n)
    if params["symmetric"]:
        top = 2 ** (b - 1) - 1
        s = np.abs(blocks).max(axis=1, keepdims=True) / top
        z = np.zeros_like(s)
        q = np.clip(np.round(blocks / s), -top, top)
    else:
        top = 2 ** b - 1
        lo = np.minimum(blocks.min(axis=1, keepdims=True), 0)
        hi = np.maximum(blocks.max(axis=1, keepdims=True), 0)
        s = (hi - lo) / top
        z = np.round(-lo / s)
        q = np.clip(np.round(blocks / s) + z, 0, top)
    err = np.abs((q - z) * s - blocks)
    print(f"{len(s)} 个缩放因子，最大误差 {err.max():.2e}")
    same(len(s), view["n_scales"])
    same(err.max(), view["weight"]["max_abs"])
    same(err.mean(), view["weight"]["mean_abs"])

    step("字节数：原来每个数 2 字节（fp16）；量化后整数占 $b/8$ 字节，每个缩放因子按 fp16 存 2 字节，非对称时每块再加一个 $b$ 位的零点。")
    payload = W.size * b // 8
    zeros = 0 if params["symmetric"] else -(-len(s) * b // 8)  # 向上取整
    after = payload + 2 * len(s) + zeros
    print(f"{2 * W.size:,} → {after:,} 字节")
    same(2 * W.size, view["weight"]["before"])
    same(after, view["weight"]["after"])
