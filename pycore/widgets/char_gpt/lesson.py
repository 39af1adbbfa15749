"""The notebook lesson of the widget char-gpt (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "读古诗的字级模型：下一个字的分布"
KEYS = ["n_read", "n_unknown", "temperature", "top_k", "top_p"]
MOVED = {"temperature": 0.7, "top_k": 5, "top_p": 0.9, "seed": 2}


def lesson(params, view, same):
    step("模型读的是文本的最后 64 个字，每个字换成词表里的编号，词表外的字都读作编号 0（未知字）。")
    from pycore.gpt import poem_run
    weights, cfg, record = poem_run.poem_model()
    text = view["text"][-cfg["n_positions"]:]
    index = {c: i for i, c in enumerate(record["vocab"])}
    ids = [index.get(c, 0) for c in text]
    print(len(ids), "个字，其中", sum(i == 0 for i in ids), "个不在词表里")
    same(len(ids), view["n_read"])

    step("整个模型前向一遍，取最后一个位置的 logits，softmax 得到模型自己的分布。")
    from pycore.gpt import model
    h, _ = model.forward(weights, cfg, np.array([ids]))  # (1, T, D)
    z = model.logits(weights, h[0, -1])                   # (V,)
    p = np.exp(z - z.max()); p = p / p.sum()

    step("再除以温度、留 top-k、留累计到 top-p 的最前几个字，剩下的重新归一化：这就是条形图画的分布。")
    q = np.exp((z - z.max()) / params["temperature"]); q = q / q.sum()
    order = np.argsort(-q, kind="stable")  # most probable first
    kept = order[:params["top_k"] or len(q)]  # top-k (0: all)
    mass = np.cumsum(q[kept]) / q[kept].sum()  # top-p on what top-k left, renormalised
    kept = kept[:int(np.argmax(mass >= params["top_p"] - 1e-12)) + 1]
    keep = np.zeros(len(q), bool); keep[kept] = True
    final = np.where(keep, q, 0.0); final = final / final.sum()
    top = np.argsort(-final, kind="stable")[:len(view["top"])]
    same(p[top], [row["p"] for row in view["top"]])
    same(final[top], [row["final"] for row in view["top"]])
