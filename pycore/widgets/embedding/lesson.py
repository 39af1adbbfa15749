"""The notebook lesson of the widget embedding (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "词向量的点积与余弦"
KEYS = ["a", "b", "vec_a", "vec_b", "dot", "cos"]
MOVED = {"a": "它", "b": "累", "example": EDITED_EXAMPLE}


def lesson(params, view, same):
    step("运行示例里每个词是一行 6 维的特征向量；取出两行，点积和余弦就是它们的相似程度。")
    from pycore import example
    ex = example.resolve_example(params.get("example"))[0]  # 你改过的例子，或书中的
    va = np.array(example.features_of(ex, params["a"]), dtype=float)  # (6,)
    vb = np.array(example.features_of(ex, params["b"]), dtype=float)  # (6,)
    same(va @ vb, view["dot"])
    same(va @ vb / (np.linalg.norm(va) * np.linalg.norm(vb)), view["cos"])
