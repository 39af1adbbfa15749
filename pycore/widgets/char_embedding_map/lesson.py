"""The notebook lesson of the widget char-embedding-map (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "字向量的地图：主成分投影和最近的字"
KEYS = ["query", "k", "share", "neighbours"]
MOVED = {"k": 3}


def lesson(params, view, same):
    step("词嵌入是一张 2658 × 128 的表，每行是一个字的向量。减去每列的平均值，再做奇异值分解：奇异值的平方占总和的比例，就是每个主成分解释的方差。")
    from pycore.gpt import poem_run
    weights, cfg, record = poem_run.poem_model()
    E = weights["tok_emb"]
    centred = E - E.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    share = s ** 2 / (s ** 2).sum()
    print("前两个主成分占的方差：", np.round(share[:2], 3))
    same(share[:2], view["share"])

    step("最近的字按 128 维向量的余弦相似度算：两个向量各自除以长度，再做点积。")
    if view["found"]:
        unit = E / np.linalg.norm(E, axis=1, keepdims=True)
        i = record["vocab"].index(view["query"][0])
        cos = unit @ unit[i]
        cos[i] = -np.inf  # 不算它自己
        best = np.sort(cos)[::-1][:params["k"]]
        print(np.round(best, 3))
        same(best, [n["cos"] for n in view["neighbours"][:params["k"]]])
