"""The notebook lesson of the widget moe-router (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "混合专家：路由器把每个 token 送给 k 个专家"
KEYS = ["experts", "k_used", "routes", "loads", "loss", "total", "active"]
MOVED = {"experts": 4, "k": 1, "temperature": 0.5, "seed": 7}


def lesson(params, view, same):
    step(r"路由器是一个 $6\times n_{\text{专家}}$ 的矩阵（按种子抽的高斯数）：每个 token 的向量乘它、除以温度，"
         r"再做 softmax，得到它对 $n_{\text{专家}}$ 个专家的概率；取最大的 k 个，门控是这 k 个概率重新归一化。")
    from pycore import example
    e, k = params["experts"], view["k_used"]
    w_r = np.random.default_rng(params["seed"]).standard_normal((6, 8))[:, :e]
    z = example.EMBEDDINGS @ w_r / params["temperature"]  # (9, E)
    p = np.exp(z - z.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)
    top = np.argsort(-p, axis=1, kind="stable")[:, :k]  # (9, k)
    g = np.take_along_axis(p, top, axis=1); g /= g.sum(axis=1, keepdims=True)
    same(p, view["probs"])
    same(g, view["gates"])

    step("每个专家的负载是它接到的 token 数；f 是负载占全部 9k 次分派的份额，P 是它的平均概率。"
         r"Switch Transformer 的均衡损失是 $n_{\text{专家}}\sum_i f_iP_i$，完全均衡时等于 1。")
    loads = np.bincount(top.ravel(), minlength=e)
    f = loads / top.size
    loss = e * np.sum(f * p.mean(axis=0))
    print(loads, round(loss, 3))
    same(loads, view["loads"][:e])
    same(loss, view["loss"])

    step("模型的大小：每层注意力 2d² + 2d·(8 × 128)，每个专家是 SwiGLU 的 3·d·d_ff，"
         r"再加路由器、归一化和两份嵌入。存下的是 $n_{\text{专家}}$ 个专家，每个 token 只算 k 个。")
    d, layers, d_ff, vocab = 4096, 32, 14336, 32000
    shared = layers * (2 * d * d + 2 * d * 8 * 128 + d * e + 2 * d) + 2 * vocab * d + d
    same(shared + layers * e * 3 * d * d_ff, view["total"])
    same(shared + layers * k * 3 * d * d_ff, view["active"])
