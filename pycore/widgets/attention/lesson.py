"""The notebook lesson of the widget attention (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "缩放点积注意力"
KEYS = ["query", "scale", "causal", "row", "output"]
MOVED = {"query": "小猫", "scale": 2.5, "causal": True, "example": EDITED_EXAMPLE}


def lesson(params, view, same):
    step(r"用语义头的三个矩阵把嵌入投影成 Q、K、V，算 $QK^\top/\sqrt{d_k}$，需要时遮住未来的位置，再逐行 softmax。")
    from pycore import example
    ex = example.resolve_example(params.get("example"))[0]  # 你改过的例子，或书中的
    tokens = ex["tokens"]  # 句子里的词（你可能增删过）
    n = len(tokens)
    X = example.sentence_embeddings(ex)  # (n, 6)
    W_q, W_k, W_v = example.semantic_head_of(ex)  # W_Q 的代词行也可能改过
    Q, K, V = X @ W_q, X @ W_k, X @ W_v  # 各 (n, 6)
    scores = params["scale"] * Q @ K.T / np.sqrt(Q.shape[1])  # (n, n)
    if params["causal"]:
        scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    w = w / w.sum(axis=1, keepdims=True)  # 每行和为 1
    i = tokens.index(params["query"])
    print(dict(zip(tokens, np.round(w[i], 3))))
    same(w[i], view["row"][:n])  # 图有 12 个位置，多出的为 0

    step("输出是值向量按这一行权重的加权平均。")
    same(w[i] @ V, view["output"])
