"""The notebook lesson of the widget attention-cost (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "注意力的代价"
KEYS = ["n", "scores", "bytes", "rnn_steps", "attention_steps"]
MOVED = {"n": 4096}


def lesson(params, view, same):
    step("n 个位置两两打分，一个头就有 $n^2$ 个分数；每个按 fp16 存两个字节。RNN 要一步接一步走 n 步，注意力一步就能让所有位置同时看到彼此。")
    n = params["n"]
    same(n * n, view["scores"])
    same(2 * n * n, view["bytes"])
    same(n, view["rnn_steps"])
