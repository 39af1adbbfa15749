"""Chapter 9: one decoding step with a KV cache (pycore/kvcache.py counts its cost; the step
itself is pycore.attention.attention on the cached keys and values plus the new row).

Run token by token from an empty cache, the steps give exactly the rows of causal attention
over the whole sequence: that is the "whole sentence" case.
"""
import numpy as np

from .. import example
from ..attention import attention
from . import draw
from .spec import Case, Exercise, Mistake, program

DOC = """
用 KV 缓存生成时的一步：新 token x 算出自己的 q、k、v，把 k、v 追加到缓存末尾，
再让 q 对缓存里的全部键（包括它自己的）做缩放点积注意力。

x: (d,) 新 token 的向量；w_q, w_k: (d, d_k)；w_v: (d, d_v)。
k_cache: (t, d_k)，v_cache: (t, d_v)：前面 t 个 token 的键和值（t 可以是 0）。
返回 (output, k_cache, v_cache)：(d_v,) 的注意力输出，以及追加后 (t+1, d_k)、(t+1, d_v) 的缓存。
"""

SOLUTION = """
q, k, v = x @ w_q, x @ w_k, x @ w_v  # (d_k,), (d_k,), (d_v,)
k_cache = np.vstack([k_cache, k])  # (t+1, d_k)：新的一行加在末尾
v_cache = np.vstack([v_cache, v])  # (t+1, d_v)
scores = k_cache @ q / np.sqrt(len(q))  # (t+1,)：对每个键的打分
e = np.exp(scores - np.max(scores))
weights = e / np.sum(e)
return weights @ v_cache, k_cache, v_cache
"""

SIGNATURE = "decode_step(x, w_q, w_k, w_v, k_cache, v_cache)"


def reference(x, w_q, w_k, w_v, k_cache, v_cache):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    keys, values = np.vstack([k_cache, k]), np.vstack([v_cache, v])  # (t+1, d_k), (t+1, d_v)
    _, out, _ = attention(q[None, :], keys, values)  # (1, d_v)
    return out[0], keys, values


def generate(step, X, w_q, w_k, w_v):
    """Feed the rows of X one at a time from empty caches: (n, d_v) outputs and the caches."""
    k_cache, v_cache = np.zeros((0, w_k.shape[1])), np.zeros((0, w_v.shape[1]))
    rows = []
    for token in X:
        out, k_cache, v_cache = step(token.copy(), w_q, w_k, w_v, k_cache, v_cache)
        rows.append(np.asarray(out, dtype=float))
    return np.array(rows), k_cache, v_cache


GENERATE_CALL = ("K, V = 空缓存; 对 X 的每一行 x[i]: out[i], K, V = decode_step(x[i], w_q, w_k, "
                 "w_v, K, V)；返回 (out, K, V)")


def _step_inputs(rng, d, d_k, d_v, t):
    return {"x": draw.values(rng, d), "w_q": rng.normal(size=(d, d_k)),
            "w_k": rng.normal(size=(d, d_k)), "w_v": rng.normal(size=(d, d_v)),
            "k_cache": rng.normal(size=(t, d_k)), "v_cache": rng.normal(size=(t, d_v))}


def _book_step():
    """The running example: 它 (position 5) after 小猫 没有 过 马路 因为, semantic head."""
    w_q, w_k, w_v = example.semantic_head()
    x = example.EMBEDDINGS
    return {"x": x[5].copy(), "w_q": w_q, "w_k": w_k, "w_v": w_v,
            "k_cache": x[:5] @ w_k, "v_cache": x[:5] @ w_v}


def _random(rng):
    cases = []
    for t in draw.sizes(rng, low=0, high=6):
        d, d_k, d_v = (int(rng.integers(1, 7)) for _ in range(3))
        cases.append(Case(f"缓存里有 {t} 个词，d={d}，d_k={d_k}，d_v={d_v}",
                          _step_inputs(rng, d, d_k, d_v, t)))
    return cases


def _large(rng):
    return Case("缓存里有 2048 个词，d=512，d_k=d_v=64", _step_inputs(rng, 512, 64, 64, 2048))


def _without_self(x, w_q, w_k, w_v, k_cache, v_cache):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    _, out, _ = attention(q[None, :], k_cache, v_cache)
    return out[0], np.vstack([k_cache, k]), np.vstack([v_cache, v])


def _prepend(x, w_q, w_k, w_v, k_cache, v_cache):
    out, keys, values = reference(x, w_q, w_k, w_v, k_cache, v_cache)
    return out, np.roll(keys, 1, axis=0), np.roll(values, 1, axis=0)


def _no_scale(x, w_q, w_k, w_v, k_cache, v_cache):
    d_k = w_q.shape[1]
    out, _, _ = reference(x, w_q * np.sqrt(d_k), w_k, w_v, k_cache, v_cache)  # q.k unscaled
    _, keys, values = reference(x, w_q, w_k, w_v, k_cache, v_cache)
    return out, keys, values


def _queries_cached(x, w_q, w_k, w_v, k_cache, v_cache):
    out, _, values = reference(x, w_q, w_k, w_v, k_cache, v_cache)
    return out, np.vstack([k_cache, x @ w_q]), values


def _old_cache(x, w_q, w_k, w_v, k_cache, v_cache):
    return reference(x, w_q, w_k, w_v, k_cache, v_cache)[0], k_cache, v_cache


EXERCISE = Exercise(
    id="kv-cache-step",
    chapter=9,
    title="KV 缓存的一步解码",
    signature=SIGNATURE,
    statement=(
        "写函数 decode_step(x, w_q, w_k, w_v, k_cache, v_cache)：新 token 算出 q、k、v，"
        "把 k、v 追加到缓存末尾，再让 q 对全部缓存（包括它自己）做缩放点积注意力，返回 "
        "(output, k_cache, v_cache)。检查的内容：空缓存（第一个词）、已有两个词的缓存、"
        "书中“它”的那一步、d_v ≠ d_k，以及从空缓存开始逐词生成整句，结果必须和整句的因果"
        "注意力一模一样；还有一批随机形状。"),
    starter=program(SIGNATURE, DOC, "raise NotImplementedError"),
    solution=program(SIGNATURE, DOC, SOLUTION),
    hints=(
        "新 token 的键和值要先追加进缓存，它的查询才能看到它自己：np.vstack([k_cache, k])。",
        "只有一个查询，打分就是 k_cache @ q，形状 (t+1,)；除以 sqrt(d_k) 后做 softmax。",
        "逐词生成时，第 i 步的缓存里正好是第 0..i 个词：这就是因果掩码，不用再另外屏蔽。",
    ),
    reference=reference,
    reference_name="pycore.attention.attention on the cache plus the new row",
    outputs=("output", "k_cache", "v_cache"),
    fixed=[
        Case("空缓存：生成第一个词", _step_inputs(np.random.default_rng(1), 3, 2, 2, 0),
             note="缓存是空的（形状 (0, d_k)）：新 token 只能看它自己，权重是 1，输出就是它的 v。"),
        Case("缓存里已有两个词", _step_inputs(np.random.default_rng(2), 4, 3, 3, 2)),
        Case("书中的例子：“它”看前面五个词", _book_step(),
             note="这一步的输出应该和第 8 节因果注意力里“它”那一行的输出一样。"),
        Case("d_v 和 d_k 不同", _step_inputs(np.random.default_rng(3), 5, 2, 4, 3)),
        Case("逐词生成整句 = 整句的因果注意力",
             {"X": example.EMBEDDINGS.copy(), **dict(zip(("w_q", "w_k", "w_v"),
                                                         example.semantic_head()))},
             run=generate, call=GENERATE_CALL, hard=True,
             note="从空缓存开始一个词一个词地调用 decode_step，得到的 9 行输出必须和整句做一次"
                  "因果注意力的结果相同，最后的缓存就是整句的 K 和 V。"),
    ],
    random=_random,
    timing=_large,
    mistakes=[
        Mistake("without-self", _without_self,
                "你的查询只看了旧的缓存，没有看到新 token 自己。先把新的 k、v 追加进缓存，"
                "再做注意力。"),
        Mistake("prepended", _prepend,
                "新的一行被放在了缓存的开头。要追加在末尾：np.vstack([k_cache, k])，"
                "缓存的第 i 行才是第 i 个 token。"),
        Mistake("old-cache-returned", _old_cache,
                "你返回的还是旧的缓存：要返回追加了新一行之后的 k_cache 和 v_cache。"),
        Mistake("queries-cached", _queries_cached,
                "你把查询 q 存进了键的缓存。缓存里存的是键 k = x @ w_k 和值 v = x @ w_v。"),
        Mistake("no-scale", _no_scale, "打分忘了除以 sqrt(d_k)。"),
    ],
)

EXERCISES = [EXERCISE]
