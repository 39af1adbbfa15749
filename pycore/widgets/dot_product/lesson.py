"""The notebook lesson of the widget dot-product (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "点积与夹角"
KEYS = ["a", "b", "dot", "norm_a", "norm_b", "cos", "angle", "projection"]
MOVED = {"a": [-2.0, 1.5], "b": [0.5, -3.0]}


def lesson(params, view, same):
    step("点积是对应分量相乘再相加；除以两个长度，得到夹角的余弦。")
    a, b = np.array(params["a"]), np.array(params["b"])
    dot = a @ b
    norm_a, norm_b = np.sqrt(a @ a), np.sqrt(b @ b)
    print("a·b =", dot)
    same(dot, view["dot"])
    if norm_a > 0 and norm_b > 0:
        cos = dot / (norm_a * norm_b)
        same(cos, view["cos"])
        same(norm_b * cos, view["projection"])  # b 落在 a 方向上的影子
