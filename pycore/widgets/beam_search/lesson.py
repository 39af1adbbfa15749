"""The notebook lesson of the widget beam-search (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "束搜索与采样"
KEYS = ["width", "alpha", "max_new", "best", "n_finished", "sample_per_token"]
MOVED = {"width": 2, "alpha": 0.3, "max_new": 7, "temperature": 0.6, "seed": 9}


def lesson(params, view, same):
    step(r"模型是一张二元表：下一个词的 logit 只看上一个词。束搜索找到的句子，$\log p$ "
         r"是每一步 $\log p(w_t\mid w_{t-1})$ 之和；排名用的分数再除以长度的 $\alpha$ 次方。")
    from pycore import beam as B
    table = B.logit_table()  # (V, V)：行是上一个词，列是下一个词；-inf 表示不可能
    logp_table = np.full(table.shape, -np.inf)
    for r in range(len(table)):
        if np.isfinite(table[r]).any():  # “。”那一行什么也接不了
            z = table[r] - table[r][np.isfinite(table[r])].max()
            logp_table[r] = z - np.log(np.exp(z).sum())  # 对数 softmax
    words = view["best"]["sentence"].split()
    prev = [B.PROMPT[-1]] + words[:-1]  # 每个词前面的那个词
    logp = sum(logp_table[B.VOCAB.index(a), B.VOCAB.index(b)]
               for a, b in zip(prev, words))
    alpha = round(params["alpha"], 1)
    print(f"{' '.join(words)}：log p = {logp:.3f}")
    same(logp, view["best"]["logp"])
    same(logp / len(words) ** alpha, view["best"]["score"])

    step(r"采样的句子也用同一张表打分（温度只改变抽签，不改变这里的 $\log p$）；四句各自每词平均的 $\log p$ 再取平均，就是小部件里和束比较的那个数。")
    per_token = []
    for sample in view["samples"]:
        w = sample["sentence"].split()
        p = [B.PROMPT[-1]] + w[:-1]
        lp = sum(logp_table[B.VOCAB.index(a), B.VOCAB.index(b)] for a, b in zip(p, w))
        same(lp, sample["logp"])
        per_token.append(lp / len(w))
    same(np.mean(per_token), view["sample_per_token"])
