"""The notebook lesson of the widget padding-mask (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "补齐与 padding 掩码"
KEYS = ["query", "side", "mask", "causal", "row", "pad_share", "self_weight"]
MOVED = {"query": "累", "side": "left", "mask": False, "causal": True}


def lesson(params, view, same):
    step("短句补上 <pad>（嵌入是零向量）到和长句一样长。padding 掩码遮住 pad 所在的列，"
         r"因果掩码遮住未来；被遮住的分数设为 $-\infty$，softmax 后权重为 0。")
    from pycore import example, padding
    short = padding.SHORT  # 4 个词
    T = len(example.TOKENS)  # 批里最长的句子：9 个词
    real = np.zeros(T, dtype=bool)
    real[:len(short)] = True
    if params["side"] == "left":
        real = real[::-1]  # pad 在前
    x = np.zeros((T, 6))
    x[real] = example.EMBEDDINGS[[example.TOKENS.index(t) for t in short]]
    allowed = np.ones((T, T), dtype=bool)
    if params["mask"]:
        allowed &= real[None, :]  # 每一行都不看 pad 的列
    if params["causal"]:
        allowed &= np.tril(np.ones((T, T), dtype=bool))
    W_q, W_k, W_v = example.semantic_head()
    scores = np.where(allowed, (x @ W_q) @ (x @ W_k).T / np.sqrt(6), -np.inf)
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    w = w / w.sum(axis=1, keepdims=True)  # (T, T)
    qi = np.flatnonzero(real)[short.index(params["query"])]  # 查询词所在的列
    print(f"pad 分走 {w[qi, ~real].sum():.3f}")
    same(w[qi], view["row"])
    same(w[qi, ~real].sum(), view["pad_share"])

    step("加了 padding 掩码，短句的权重就和把它单独拿出来算（根本没有 pad）时一样。")
    x4 = example.EMBEDDINGS[[example.TOKENS.index(t) for t in short]]  # (4, 6)
    s4 = (x4 @ W_q) @ (x4 @ W_k).T / np.sqrt(6)
    if params["causal"]:
        s4 = np.where(np.tril(np.ones((4, 4), dtype=bool)), s4, -np.inf)
    w4 = np.exp(s4 - s4.max(axis=1, keepdims=True))
    w4 = w4 / w4.sum(axis=1, keepdims=True)
    alone = np.zeros(T)
    alone[real] = w4[short.index(params["query"])]  # 放回批里的列
    same(alone, view["row_alone"])
