"""The notebook lesson of the widget chinchilla (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "Chinchilla：算力怎么分"
KEYS = ["given", "params", "tokens", "flops", "ratio"]
MOVED = {"params": 7e10, "tokens": 1.4e12, "flops": 1e24, "given": "ND"}


def lesson(params, view, same):
    step("训练算力约为 $C = 6ND$；算力最优时每个参数约配 20 个 token。")
    N, D = view["params"], view["tokens"]
    same(6 * N * D / view["flops"], 1.0)
    same(D / N, view["ratio"])
    if params["given"] == "N":
        same(D / N, 20.0)
