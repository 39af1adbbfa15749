"""The notebook lesson of the widget scaling-variance (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "为什么要除以 √d_k"
KEYS = ["d_k", "seed", "n", "var_raw", "var_scaled", "std_raw", "std_scaled"]
MOVED = {"d_k": 512, "seed": 11}


def lesson(params, view, same):
    step("两个分量独立、方差为 1 的 $d_k$ 维随机向量，点积的方差约为 $d_k$；除以 "
         r"$\sqrt{d_k}$ 后约为 1。固定 q 时 $q\cdot k$ 服从 $N(0, "
         r"|q|^2)$，所以不必抽出整个向量：抽 $|q|^2\sim\chi^2(d_k)$ "
         r"和 $z\sim N(0,1)$，$q\cdot k = |q|\,z$。")
    rng = np.random.default_rng(params["seed"])
    sq_norm = rng.chisquare(params["d_k"], size=view["n"])  # |q|^2，共 n 次
    z = rng.standard_normal(view["n"])
    raw = np.sqrt(sq_norm) * z
    scaled = raw / np.sqrt(params["d_k"])
    print(f"原始方差 {raw.var():.2f}，缩放后 {scaled.var():.3f}")
    same(raw.var(), view["var_raw"])
    same(scaled.var(), view["var_scaled"])
