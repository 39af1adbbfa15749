"""The notebook lesson of the widget sampling (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "温度、top-k 与 top-p"
KEYS = ["temperature", "top_k", "top_p", "tokens", "p_temp", "p_final", "n_final"]
MOVED = {"temperature": 0.7, "top_k": 5, "top_p": 0.8, "seed": 3, "draws": 500}


def lesson(params, view, same):
    step("下一个词的分数先除以温度再 softmax。")
    from pycore import example
    T = round(params["temperature"], 2)
    z = example.NEXT_LOGITS / T
    p = np.exp(z - z.max()); p = p / p.sum()
    same(p, view["p_temp"])

    step("top-k 只留概率最大的 k 个词，top-p 只留累计概率刚到 p 的最前几个词，留下的再归一化；pycore.sampling.pipeline 依次做这几步。")
    from pycore.sampling import pipeline
    s = pipeline(temperature=T, top_k=params["top_k"] or None,
                 top_p=params["top_p"])  # top_k = 0：不截断
    print(dict(zip(s["tokens"], np.round(s["final"], 3))))
    same(s["final"], view["p_final"])
    same(np.sum(s["final"] > 0), view["n_final"])
