"""The notebook lesson of the widget softmax (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "softmax 与温度"
KEYS = ["logits", "temperature", "probs", "entropy", "max_entropy"]
MOVED = {"logits": [4.0, -2.0, 0.5], "temperature": 0.6}


def lesson(params, view, same):
    step("先把分数除以温度，减去最大值（不改变结果，却能防止 exp 溢出），取指数后归一化。")
    z = np.array(params["logits"]) / params["temperature"]
    e = np.exp(z - z.max())
    p = e / e.sum()
    print(np.round(p, 4))
    same(p, view["probs"])

    step(r"熵 $-\sum p_i \log p_i$ 衡量分布有多“平”：均匀分布时最大，为 $\log n$。")
    h = -np.sum(p[p > 0] * np.log(p[p > 0]))
    print(f"熵 {h:.4f}，上限 {np.log(len(p)):.4f}")
    same(h, view["entropy"])
