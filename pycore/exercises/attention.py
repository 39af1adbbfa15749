"""Chapters 4 and 8: scaled dot-product attention with an optional causal mask
(pycore/attention.py). The answer returns (output, weights), like pycore/block.py's
multi_head_attention; pycore.attention.attention returns (weights, output, scores)."""
import numpy as np

from .. import attention as att
from .. import example
from ..softmax import softmax
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array

DOC = """
缩放点积注意力：weights = softmax(Q K^T / sqrt(d_k))，output = weights @ V。

q: (n, d_k) 查询，k: (m, d_k) 键，v: (m, d_v) 值，每个 token 是一行。
causal=True 时（此时 n == m）第 i 个查询只能看第 0..i 个键：未来位置的权重为 0。
返回 (output, weights)，形状 (n, d_v) 和 (n, m)。
"""

SOLUTION = """
d_k = q.shape[-1]
scores = q @ k.T / np.sqrt(d_k)  # (n, m)
if causal:
    n = scores.shape[0]
    allowed = np.tril(np.ones((n, n), dtype=bool))  # 下三角：键 j <= 查询 i
    scores = np.where(allowed, scores, -np.inf)  # 在 softmax 之前屏蔽未来
scores = scores - np.max(scores, axis=-1, keepdims=True)
e = np.exp(scores)
weights = e / np.sum(e, axis=-1, keepdims=True)  # 每行的和为 1
return weights @ v, weights
"""


def reference(q, k, v, causal=False):
    weights, output, _ = att.attention(q, k, v, causal=causal)
    return output, weights


def _book_head():
    """The running example's semantic head: Q = X W_Q, K = V = X, (9, 6) each."""
    w_q, w_k, w_v = example.semantic_head()
    x = example.EMBEDDINGS
    return {"q": x @ w_q, "k": x @ w_k, "v": x @ w_v}


def _future_favoured(rng, n=5, d=4):
    """Keys later in the sequence agree with every query much more than earlier ones: a mask
    that leaks lets them take nearly all the weight."""
    q = rng.normal(size=(n, d)) * 0.3 + 1.0
    k = np.arange(n).reshape(-1, 1) * np.ones((1, d))  # key j = [j, j, ...]
    return {"q": q, "k": k, "v": rng.normal(size=(n, 3)), "causal": True}


def _random(rng):
    cases = []
    for n in draw.sizes(rng, high=7):
        causal = rng.random() < 0.5
        m = n if causal else int(rng.integers(1, 8))
        d_k, d_v = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        scale = float(rng.choice([0.3, 1.0, 1.0, 5.0]))
        inputs = {"q": rng.normal(0, scale, (n, d_k)), "k": rng.normal(0, scale, (m, d_k)),
                  "v": draw.values(rng, (m, d_v)), "causal": causal}
        label = "因果" if causal else "无掩码"
        cases.append(Case(f"{label}，n={n}，m={m}，d_k={d_k}，d_v={d_v}", inputs))
    return cases


def _large(rng):
    n, d = 256, 64
    return Case("n = m = 256，d = 64，因果", {"q": rng.normal(size=(n, d)),
                                             "k": rng.normal(size=(n, d)),
                                             "v": rng.normal(size=(n, d)), "causal": True})


def _attend(scores, v):
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def _masked(scores, causal, fill=-np.inf, lower=True, diagonal=True):
    if not causal:
        return scores
    n = len(scores)
    keep = np.tril(np.ones((n, n), dtype=bool), k=0 if diagonal else -1)
    keep = keep if lower else np.triu(np.ones((n, n), dtype=bool))
    return np.where(keep, scores, fill)


def _scaled(q, k, by):
    return q @ k.T / by


def _no_scale(q, k, v, causal=False):
    return _attend(_masked(q @ k.T, causal), v)


def _scale_d(q, k, v, causal=False):
    return _attend(_masked(_scaled(q, k, q.shape[-1]), causal), v)


def _scale_dv(q, k, v, causal=False):
    return _attend(_masked(_scaled(q, k, np.sqrt(v.shape[-1])), causal), v)


def _k_not_transposed(q, k, v, causal=False):
    return _attend(_masked(q @ k / np.sqrt(q.shape[-1]), causal), v)


def _after_softmax(q, k, v, causal=False):
    weights = softmax(_scaled(q, k, np.sqrt(q.shape[-1])), axis=-1)
    if causal:
        weights = weights * np.tril(np.ones(weights.shape))
    return weights @ v, weights


def _mask_zero(q, k, v, causal=False):
    return _attend(_masked(_scaled(q, k, np.sqrt(q.shape[-1])), causal, fill=0.0), v)


def _mask_upper(q, k, v, causal=False):
    return _attend(_masked(_scaled(q, k, np.sqrt(q.shape[-1])), causal, lower=False), v)


def _no_diagonal(q, k, v, causal=False):
    return _attend(_masked(_scaled(q, k, np.sqrt(q.shape[-1])), causal, diagonal=False), v)


def _no_mask(q, k, v, causal=False):
    return reference(q, k, v)


def _scores_transposed(q, k, v, causal=False):
    return _attend(_masked(k @ q.T / np.sqrt(q.shape[-1]), causal), v)  # (m, n): K Q^T


def _columns(q, k, v, causal=False):
    scores = _masked(_scaled(q, k, np.sqrt(q.shape[-1])), causal)
    weights = softmax(scores, axis=0)
    return weights @ v, weights


def _swapped(q, k, v, causal=False):
    return reference(q, k, v, causal)[::-1]


EXERCISE = Exercise(
    id="attention",
    chapter=4,
    title="缩放点积注意力（可选因果掩码）",
    signature="attention(q, k, v, causal=False)",
    statement=(
        "写函数 attention(q, k, v, causal=False)，返回 (output, weights)："
        "weights = softmax(QKᵀ/√d_k)（每行的和为 1），output = weights V。causal=True 时"
        "每个查询只能看它自己和前面的键（第 8 节的因果掩码）。检查的内容：书中语义头的"
        "例子（有掩码和没有掩码）、查询和键个数不同、长度为 1、全相同的键、很大的分数、"
        "未来的键分数最高的因果用例，以及一批随机形状。"),
    starter=program("attention(q, k, v, causal=False)", DOC, "raise NotImplementedError"),
    solution=program("attention(q, k, v, causal=False)", DOC, SOLUTION),
    hints=(
        "先写形状：q @ k.T 是 (n, d_k) @ (d_k, m) = (n, m)，第 i 行是第 i 个查询对每个键的打分。",
        "因果掩码要在 softmax 之前加：把 j > i 的分数换成 -inf，exp(-inf) = 0，"
        "剩下的权重仍然加起来为 1。np.tril 给出允许看的下三角。",
        "除以的是 sqrt(d_k)（键的维数 q.shape[-1]），不是 d_k，也不是值的维数。",
    ),
    reference=reference,
    reference_name="pycore.attention.attention",
    outputs=("output", "weights"),
    fixed=[
        Case("书中的例子：语义头，9 个词", _book_head(),
             note="这是第 4 节的语义头：“它”那一行的权重应为 小猫 0.2101、马路 0.1397，"
                  "其余 0.0929。"),
        Case("一个查询、三个键，d_v ≠ d_k",
             {"q": A([[1.0, 0.0]]), "k": A([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
              "v": A([[1.0, 0.0, 0.0, 2.0], [0.0, 1.0, 0.0, 2.0], [0.0, 0.0, 1.0, 2.0]])}),
        Case("查询和键个数不同（交叉注意力）",
             {"q": A([[1.0, 2.0, 0.0], [0.0, -1.0, 1.0]]),
              "k": A([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]),
              "v": A([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])},
             note="查询有 2 个、键有 4 个：分数矩阵是 (2, 4)，q @ k.T 的转置不能少。"),
        Case("长度为 1", {"q": A([[0.5, -1.0]]), "k": A([[2.0, 1.0]]), "v": A([[3.0, 4.0]])},
             note="只有一个键时它的权重就是 1，输出就是那个值向量。"),
        Case("所有的键都一样：权重平均分", {"q": A([[1.0, 2.0], [-3.0, 0.5]]),
                                        "k": A([[1.0, 1.0]] * 3),
                                        "v": A([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])}),
        Case("书中的例子加上因果掩码", {**_book_head(), "causal": True},
             note="因果掩码下第 0 个词只能看它自己（权重为 1），矩阵的上三角全是 0。"),
        Case("很大的分数", {"q": A([[30.0, 40.0], [-50.0, 10.0]]),
                          "k": A([[40.0, 30.0], [-30.0, 40.0], [10.0, 10.0]]),
                          "v": A([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])},
             note="分数达到上千，softmax 要先减去每行的最大值才不会溢出。"),
        Case("因果掩码，长度为 1", {"q": A([[1.0, -1.0, 2.0]]), "k": A([[0.5, 0.5, 0.5]]),
                                  "v": A([[9.0, 8.0]]), "causal": True}),
        Case("因果：未来的键分数最高，必须被屏蔽", _future_favoured(np.random.default_rng(8)),
             hard=True,
             note="这里越靠后的键和查询越像。掩码漏掉一点，未来的键就会抢走几乎全部权重。"),
    ],
    random=_random,
    timing=_large,
    mistakes=[
        Mistake("swapped-outputs", _swapped,
                "两个返回值的顺序反了：题目要的是 (output, weights)。"),
        Mistake("mask-after-softmax", _after_softmax,
                "你在 softmax 之后才把未来的位置清零，每行的和就不再是 1 了。掩码要在 softmax "
                "之前加：把未来位置的分数设成 -inf。"),
        Mistake("mask-with-zero", _mask_zero,
                "你把未来位置的分数设成了 0，可 exp(0) = 1，它们仍然分到了权重。要设成 -inf"
                "（或者一个很负的数），exp 之后才是 0。"),
        Mistake("mask-upper", _mask_upper,
                "掩码方向反了：你让每个查询看它自己和后面的键。因果掩码保留的是下三角"
                "（j ≤ i），np.tril，或者屏蔽 np.triu(..., k=1)。"),
        Mistake("mask-without-diagonal", _no_diagonal,
                "你把对角线也屏蔽了：每个查询应该能看到它自己（j ≤ i，不是 j < i）。"
                "第 0 行一个键都不剩，就成了 nan。"),
        Mistake("ignores-causal", _no_mask,
                "causal=True 时你的结果和不加掩码一样：别忘了处理 causal 参数。"),
        Mistake("no-scale", _no_scale,
                "你没有除以 sqrt(d_k)。维数越大，点积的方差越大，softmax 就越容易饱和，"
                "所以分数要除以 sqrt(d_k)（第 4 节）。"),
        Mistake("scale-d", _scale_d, "你除以的是 d_k，应该除以 sqrt(d_k)。"),
        Mistake("scale-d-v", _scale_dv,
                "你除以的是 sqrt(d_v)（值的维数），应该是 sqrt(d_k)：键和查询的维数 q.shape[-1]。"),
        Mistake("k-not-transposed", _k_not_transposed,
                "分数应该是 q @ k.T：第 i 行第 j 列是第 i 个查询和第 j 个键的点积。你用的是 "
                "q @ k（没有转置），只在形状凑巧时不报错，数却是错的。"),
        Mistake("scores-transposed", _scores_transposed,
                "你的分数矩阵是 K Qᵀ，正好转置了：第 i 行应该是第 i 个查询对所有键的打分，"
                "也就是 Q Kᵀ（q @ k.T）。"),
        Mistake("softmax-over-columns", _columns,
                "你沿第 0 维（按列）做了 softmax。每个查询的权重是一行，要沿最后一维归一化。"),
    ],
)

EXERCISES = [EXERCISE]
