"""The notebook lesson of the widget online-softmax (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "分块计算 softmax（FlashAttention 的做法）"
KEYS = ["query", "tile", "step", "n_tiles", "m", "l", "output", "max_diff"]
MOVED = {"query": "累", "tile": 2, "step": 3, "n": 16384, "block": 64, "d": 128,
         "dtype": "fp32"}


def lesson(params, view, same):
    step(r"一块一块地读键：记住目前为止的最大分数 $s_{\max}$、分母 $l$ 和加权和 acc。来了新的一块，若最大值变大，"
         r"就把旧的 $l$ 和 acc 乘上 $e^{s_{\max}-s_{\max}'}$（$s_{\max}'$ 是新的最大值）再加上这一块的贡献；任何时候 "
         "acc / l 都是已读键上的注意力输出。")
    from pycore import example
    X = example.EMBEDDINGS  # (9, 6)
    W_q, W_k, W_v = example.semantic_head()
    i = example.TOKENS.index(params["query"])
    q, K, V = X[i] @ W_q, X @ W_k, X @ W_v  # (6,), (9, 6), (9, 6)
    s = K @ q / np.sqrt(6)  # (9,)：这一行的分数
    m, l, acc = -np.inf, 0.0, np.zeros(6)
    for start in range(0, 9, params["tile"])[:view["step"]]:
        block = slice(start, start + params["tile"])
        m_new = max(m, s[block].max())
        rescale = np.exp(m - m_new)  # 第一块：e^(-inf) = 0
        p = np.exp(s[block] - m_new)
        l = l * rescale + p.sum()
        acc = acc * rescale + p @ V[block]
        m = m_new
    print(f"s_max = {m:.4f}，l = {l:.4f}")
    same(m, view["m"])
    same(l, view["l"])
    same(acc / l, view["output"])

    step("读完所有块，结果和一次算出整行 softmax 完全一样；而一块 B × B 的分数比整张 n × n 的表小 $(n/B)^2$ 倍。")
    w = np.exp(s - s.max()); w = w / w.sum()
    same(w @ V, view["full_output"])
    size = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1}[params["dtype"]]  # 字节
    n, B = params["n"], min(params["block"], params["n"])
    same(n * n * size, view["memory"]["full_scores"])
    same(B * B * size, view["memory"]["tile_scores"])
    same((n / B) ** 2, view["memory"]["ratio"])
