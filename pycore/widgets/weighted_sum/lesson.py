"""The notebook lesson of the widget weighted-sum (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "加权求和：权重 × V → 输出"
KEYS = ["query", "scale", "weights", "output"]
MOVED = {"query": "小猫", "scale": 4.5}


def lesson(params, view, same):
    step("语义头的查询、键、值：$W_K=W_V=I$，$W_Q$ 只有代词那行换成 $(1,1,0,0,0,0)"
         r"$；查询词那一行分数除以 $\sqrt{6}$、乘缩放系数后做 softmax。")
    from pycore import example
    x = example.EMBEDDINGS  # (9, 6)
    w_q, w_k, w_v = example.semantic_head()
    i = example.TOKENS.index(params["query"])
    s = params["scale"] * (x @ w_q)[i] @ (x @ w_k).T / np.sqrt(6)  # (9,)
    w = np.exp(s - s.max()); w /= w.sum()
    same(w, view["weights"])

    step(r"每个词交出自己那行值向量的 $w_j$ 倍，逐维相加就是输出 $\sum_j w_j \mathbf{v}_j$。")
    v = x @ w_v  # (9, 6)
    parts = w[:, None] * v  # (9, 6)：每个词交出的那一份
    out = parts.sum(axis=0)  # (6,)
    print(np.round(out, 3))
    same(out, view["output"])
