"""The notebook lesson of the widget sliding-window (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "滑动窗口注意力：每层只往回看 w 个词"
KEYS = ["w", "layers", "query", "field", "first", "weights"]
MOVED = {"w": 3, "layers": 3, "query": "了"}


def lesson(params, view, same):
    step("窗口掩码：查询 i 只看 i − w 到 i 的键；其余的分数设成 −∞，softmax 后为 0。")
    from pycore import example
    x = example.EMBEDDINGS  # (9, 6)
    w_q, w_k, _ = example.semantic_head()
    n, w = len(x), params["w"]
    i, j = np.indices((n, n))
    allowed = (j <= i) & (j >= i - w)
    s = np.where(allowed, (x @ w_q) @ (x @ w_k).T / np.sqrt(6), -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)
    q = example.TOKENS.index(params["query"])
    same(p[q], view["weights"])

    step("叠 L 层之后，最后一层的查询最远能听到往回 L × w 个词（句首为止）。")
    first = max(0, q - params["layers"] * w)
    print(example.TOKENS[first])
    same(params["layers"] * w, view["field"])
    same(q - first, view["reached"])
