"""Chapter 9: top-k and top-p (nucleus) filtering of a next-token distribution
(pycore/sampling.py). Both keep some tokens, set the rest to 0 and renormalise; ties go to
the token earlier in the vocabulary, as in pycore (a stable sort)."""
import numpy as np

from .. import example, sampling
from ..softmax import softmax
from . import draw
from .spec import Case, Exercise, Mistake, program

A = np.array
BOOK = softmax(example.NEXT_LOGITS)  # the chapter's distribution after "... 它 太 ___"

K_DOC = """
top-k 截断：只保留概率最大的 k 个词，其余置 0，再重新归一化（和为 1）。

probs: (V,) 概率分布；k: 保留的个数，k >= V 时全部保留。
概率相同时，词表里靠前的词优先（np.argsort(-probs, kind="stable") 给出这个顺序）。
"""

K_SOLUTION = """
order = np.argsort(-probs, kind="stable")  # 从大到小，并列时下标小的在前
keep = np.zeros(len(probs), dtype=bool)
keep[order[:k]] = True  # 前 k 名；k 大于 V 时切片自动只取到 V 个
p = np.where(keep, probs, 0.0)
return p / np.sum(p)
"""

P_DOC = """
top-p（nucleus）截断：按概率从大到小累加，保留累计概率首次达到 top_p 的那一批词
（最少的几个），其余置 0，再重新归一化。

probs: (V,) 概率分布；top_p: 0 < top_p <= 1。
概率相同时，词表里靠前的词优先（np.argsort(-probs, kind="stable")）。
"""

P_SOLUTION = """
order = np.argsort(-probs, kind="stable")  # 从大到小
mass = np.cumsum(probs[order])  # mass[j] = 前 j+1 名的累计概率
size = int(np.argmax(mass >= top_p)) + 1  # 第一个达到 top_p 的前缀有几个词
keep = np.zeros(len(probs), dtype=bool)
keep[order[:size]] = True
p = np.where(keep, probs, 0.0)
return p / np.sum(p)
"""


def top_k_reference(probs, k):
    return sampling.renormalise(probs, sampling.top_k_keep(probs, k))


def top_p_reference(probs, top_p):
    return sampling.renormalise(probs, sampling.top_p_keep(probs, top_p))


def _keep(probs, indices):
    keep = np.zeros(len(probs), dtype=bool)
    keep[indices] = True
    return keep


def _order(probs):
    return np.argsort(-probs, kind="stable")


def _k_plus_one(probs, k):
    return sampling.renormalise(probs, _keep(probs, _order(probs)[:k + 1]))


def _k_strict_threshold(probs, k):
    kth = np.sort(probs)[::-1][min(k, len(probs)) - 1]
    return sampling.renormalise(probs, probs > kth)


def _k_ties_all(probs, k):
    kth = np.sort(probs)[::-1][min(k, len(probs)) - 1]
    return sampling.renormalise(probs, probs >= kth)


def _k_ties_reversed(probs, k):
    return sampling.renormalise(probs, _keep(probs, np.argsort(probs)[::-1][:k]))


def _k_first(probs, k):
    return sampling.renormalise(probs, _keep(probs, np.arange(min(k, len(probs)))))


def _k_no_renorm(probs, k):
    return np.where(sampling.top_k_keep(probs, k), probs, 0.0)


def _p_too_few(probs, top_p):
    order = _order(probs)
    mass = np.cumsum(probs[order])
    return sampling.renormalise(probs, _keep(probs, order[mass < top_p]))


def _p_strict(probs, top_p):
    order = _order(probs)
    mass = np.cumsum(probs[order])
    size = min(int(np.searchsorted(mass, top_p, side="right")) + 1, len(probs))
    return sampling.renormalise(probs, _keep(probs, order[:size]))


def _p_unsorted(probs, top_p):
    mass = np.cumsum(probs)
    size = int(np.argmax(mass >= top_p)) + 1
    return sampling.renormalise(probs, _keep(probs, np.arange(size)))


def _p_no_renorm(probs, top_p):
    return np.where(sampling.top_p_keep(probs, top_p), probs, 0.0)


def _random_k(rng):
    cases = []
    for v in draw.sizes(rng, high=12):
        k = int(rng.integers(1, v + 3))
        cases.append(Case(f"V={v}，k={k}", {"probs": draw.probabilities(rng, v), "k": k}))
    return cases


def _random_p(rng):
    cases = []
    for v in draw.sizes(rng, high=12):
        top_p = float(rng.uniform(0.05, 0.999))  # not 1.0: a sum of 1 - 1e-16 would not reach it
        cases.append(Case(f"V={v}，top_p={top_p:.3g}",
                          {"probs": draw.probabilities(rng, v), "top_p": top_p}))
    return cases


def _gpt2_vocab(rng):
    """A peaked distribution over GPT-2's 50,257 tokens."""
    return softmax(rng.normal(0.0, 2.5, size=50257))


TOP_K = Exercise(
    id="top-k",
    chapter=9,
    title="top-k 截断",
    signature="top_k_filter(probs, k)",
    statement=(
        "写函数 top_k_filter(probs, k)：只保留概率最大的 k 个词，其余置 0，重新归一化；"
        "并列时靠前的词优先。检查的内容：第 9 节的分布取 k=3、k=1、k 等于和大于词表大小、"
        "有并列的概率、没有排好序的分布，以及一批随机分布。"),
    starter=program("top_k_filter(probs, k)", K_DOC, "raise NotImplementedError"),
    solution=program("top_k_filter(probs, k)", K_DOC, K_SOLUTION),
    hints=(
        "np.argsort(-probs, kind=\"stable\") 给出从大到小的下标，前 k 个就是要保留的词。",
        "保留的位置留下原概率、其余置 0，再除以它们的和。",
    ),
    reference=top_k_reference,
    reference_name="pycore.sampling.top_k_keep + renormalise",
    atol=1e-15,
    fixed=[
        Case("第 9 节的分布，k=3", {"probs": BOOK, "k": 3}),
        Case("k=1：只剩第一名", {"probs": A([0.1, 0.5, 0.3, 0.1]), "k": 1},
             note="k=1 就是贪心：概率最大的词变成 1，其余为 0。"),
        Case("k 等于词表大小：不截断", {"probs": A([0.2, 0.3, 0.5]), "k": 3}),
        Case("k 大于词表大小", {"probs": A([0.6, 0.4]), "k": 5},
             note="k 比词表还大时全部保留，不应该报错。"),
        Case("没有排好序的分布", {"probs": A([0.1, 0.4, 0.05, 0.3, 0.15]), "k": 2},
             note="分布不是按大小排列的：要保留的是最大的两个（下标 1 和 3），不是前两个。"),
        Case("有并列的概率", {"probs": A([0.3, 0.2, 0.2, 0.2, 0.1]), "k": 2}, hard=True,
             note="第 2、3、4 个词并列。题目要求恰好保留 k 个，并列时靠前的词优先："
                  "保留下标 0 和 1。"),
    ],
    random=_random_k,
    timing=lambda rng: Case("GPT-2 的词表（50257 个词），k=50",
                            {"probs": _gpt2_vocab(rng), "k": 50}),
    mistakes=[
        Mistake("k-plus-one", _k_plus_one,
                "你保留了 k+1 个词（多了一个）。前 k 名是 order[:k]，不是 order[:k+1]。"),
        Mistake("strict-threshold", _k_strict_threshold,
                "你用 probs > 第 k 大的概率 来选词，第 k 名自己被排除了，只剩 k-1 个。"),
        Mistake("ties-kept", _k_ties_all,
                "你用 probs >= 第 k 大的概率 来选词，和第 k 名并列的词也全被保留了，超过了 k 个。"
                "按排好的下标取前 k 个：order[:k]。"),
        Mistake("ties-reversed", _k_ties_reversed,
                "np.argsort(probs)[::-1] 把并列的词倒过来了（靠后的排在前面）。用 "
                "np.argsort(-probs, kind=\"stable\")，并列时下标小的在前。"),
        Mistake("first-k", _k_first,
                "你保留的是词表里的前 k 个词，而不是概率最大的 k 个。先按概率排序。"),
        Mistake("no-renormalise", _k_no_renorm,
                "截断后还要重新归一化：除以保留下来的概率之和，让它们加起来为 1。"),
    ],
)

TOP_P = Exercise(
    id="top-p",
    chapter=9,
    title="top-p（nucleus）截断",
    signature="top_p_filter(probs, top_p)",
    statement=(
        "写函数 top_p_filter(probs, top_p)：按概率从大到小累加，保留累计概率首次达到 top_p "
        "的最少的一批词，其余置 0，重新归一化。检查的内容：第 9 节的例子（p=0.9，保留 5 个"
        "词）、很小的 p、p=1、累计概率正好等于 p、没有排好序的分布、并列的概率，以及一批随机"
        "分布。"),
    starter=program("top_p_filter(probs, top_p)", P_DOC, "raise NotImplementedError"),
    solution=program("top_p_filter(probs, top_p)", P_DOC, P_SOLUTION),
    hints=(
        "先排序：order = np.argsort(-probs, kind=\"stable\")，再对 probs[order] 做 np.cumsum。",
        "要保留的个数是第一个累计概率 >= top_p 的位置再加 1：越过阈值的那个词也要留下。",
        "np.argmax(布尔数组) 返回第一个 True 的下标。",
    ),
    reference=top_p_reference,
    reference_name="pycore.sampling.top_p_keep + renormalise",
    atol=1e-15,
    fixed=[
        Case("第 9 节的例子，p=0.9", {"probs": BOOK, "top_p": 0.9},
             note="前四个词累计 0.886，还不到 0.9；加上第五个达到 0.925，所以保留 5 个词。"),
        Case("p 很小：只剩第一名", {"probs": A([0.2, 0.5, 0.3]), "top_p": 0.01},
             note="第一名一个词就已经超过 p：至少要保留它，不能一个都不留。"),
        Case("p=1：全部保留", {"probs": A([0.25, 0.5, 0.125, 0.125]), "top_p": 1.0}),
        Case("累计概率正好等于 p", {"probs": A([0.5, 0.25, 0.125, 0.125]), "top_p": 0.75},
             hard=True,
             note="前两个词累计正好 0.75（这几个数在二进制里是精确的），已经“达到”p，"
                  "保留 2 个，不是 3 个。"),
        Case("没有排好序的分布", {"probs": A([0.1, 0.6, 0.3]), "top_p": 0.7},
             note="要按概率从大到小累加：0.6，再加 0.3。"),
        Case("并列的概率", {"probs": A([0.25, 0.25, 0.25, 0.25]), "top_p": 0.5},
             note="四个词并列：靠前的两个优先。"),
    ],
    random=_random_p,
    timing=lambda rng: Case("GPT-2 的词表（50257 个词），p=0.9",
                            {"probs": _gpt2_vocab(rng), "top_p": 0.9}),
    nonfinite_hint="一个词都没保留时，除以保留概率之和就是 0/0 = nan。越过阈值的那个词也要保留。",
    mistakes=[
        Mistake("one-too-few", _p_too_few,
                "你只保留了累计概率还小于 p 的词，越过阈值的那个词被丢掉了，少了一个。"
                "保留的是首次达到 p 的前缀：个数 = 第一个 cumsum >= p 的位置 + 1。"),
        Mistake("strict-greater", _p_strict,
                "累计概率正好等于 p 时你还多留了一个词：条件是“达到”p（>=），不是“超过”p（>）。"),
        Mistake("unsorted", _p_unsorted,
                "你按词表顺序累加概率。要先按概率从大到小排序再累加。"),
        Mistake("no-renormalise", _p_no_renorm,
                "截断后还要重新归一化：除以保留下来的概率之和。"),
    ],
)

EXERCISES = [TOP_K, TOP_P]
