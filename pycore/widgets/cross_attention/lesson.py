"""The notebook lesson of the widget cross-attention (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "交叉注意力：译文看原文"
KEYS = ["step", "scale", "writes", "attended", "attended_weight", "weights"]
MOVED = {"step": 7, "scale": 2.5}


def lesson(params, view, same):
    step("编码器给原文的 9 个词各一个 10 维输出（6 个特征再加 4 个上下文特征），它们同时是键和值；"
         "解码器写第 step 个英文词时的查询说明它要找什么。打分、缩放、softmax，和自注意力一样，"
         "只是 Q 来自译文，K、V 来自原文。")
    from pycore import cross_attention as CA
    KV = CA.encoder_output()  # (9, 10)
    q = CA.need(params["step"] - 1)  # (10,)
    z = params["scale"] * (KV @ q) / np.sqrt(len(q))  # (9,)
    w = np.exp(z - z.max()); w = w / w.sum()
    print(dict(zip(CA.SOURCE, np.round(w, 3).tolist())))
    same(w, view["weights"])
    same(w.max(), view["attended_weight"])
    assert CA.SOURCE[int(np.argmax(w))] == view["attended"]

    step("训练时整句译文已知，13 个查询一次算完：13 × 9 的权重矩阵，每行最大的一格就是对齐。")
    Q = np.array([CA.need(j) for j in range(len(CA.TARGET))])  # (13, 10)
    Z = params["scale"] * Q @ KV.T / np.sqrt(Q.shape[1])  # (13, 9)
    W = np.exp(Z - Z.max(axis=1, keepdims=True))
    W = W / W.sum(axis=1, keepdims=True)
    same(W, view["matrix"])
    print([f"{t}→{CA.SOURCE[j]}" for t, j in zip(CA.TARGET, W.argmax(axis=1))])
    same(W.argmax(axis=1), [CA.SOURCE.index(w) for w in view["aligned"]])
