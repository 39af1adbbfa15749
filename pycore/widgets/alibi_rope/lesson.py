"""The notebook lesson of the widget alibi-rope (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "ALiBi 与 RoPE：两种告诉注意力距离的办法"
KEYS = ["query", "head", "theta", "causal", "slope", "w_before", "w_alibi", "w_rope"]
MOVED = {"query": "了", "head": 6, "theta": 0.35, "causal": True}


def lesson(params, view, same):
    step(r"ALiBi 不改向量，只在分数上减去 $m\,|i-j|$：8 个头的斜率是 $2^{-h}$（1/2 "
         r"到 1/256）。距离每远一个词就少 $m$ 个 logit，所以权重每隔 $\ln 2/m$ 个词减半。")
    from pycore import example
    X = example.EMBEDDINGS  # (9, 6)
    W_q, W_k, _ = example.semantic_head()
    i = example.TOKENS.index(params["query"])
    scores = (X[i] @ W_q) @ (X @ W_k).T / np.sqrt(6)  # (9,)
    dist = np.abs(np.arange(9) - i)
    m = 2.0 ** -params["head"]
    keep = np.arange(9) <= i if params["causal"] else np.ones(9, dtype=bool)

    def softmax(z):
        z = np.where(keep, z, -np.inf)  # 因果掩码：查询之后的词不看
        e = np.exp(z - z.max())
        return e / e.sum()

    alibi = softmax(scores - m * dist)
    print(f"m = {m}，权重每 {np.log(2) / m:.1f} 个词减半")
    same(m, view["slope"])
    same(np.log(2) / m, view["half_weight"])
    same(softmax(scores), view["w_before"])
    same(alibi, view["w_alibi"])

    step("RoPE 把 q、k 的每一对维度 $(x_{2k}, x_{2k+1})$ 按位置转 "
         r"$p\theta$，分数于是只和相对位置 $i-j$ 有关。这里三对维度用同一个 $\theta$。")
    theta = round(params["theta"], 2)

    def rotate(v, p):  # v: (..., 6)；p：位置，标量或 (n, 1)
        a, b = v[..., 0::2], v[..., 1::2]
        c, s = np.cos(p * theta), np.sin(p * theta)
        out = np.empty_like(v)
        out[..., 0::2], out[..., 1::2] = a * c - b * s, a * s + b * c
        return out

    q = rotate(X[i] @ W_q, i)  # (6,)
    k = rotate(X @ W_k, np.arange(9)[:, None])  # (9, 6)：第 j 个键转 jθ
    rope = softmax(k @ q / np.sqrt(6))
    print(dict(zip(example.TOKENS, np.round(rope, 3).tolist())))
    same(rope, view["w_rope"])
