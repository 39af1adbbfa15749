"""The notebook lesson of the widget rope (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "旋转位置编码 RoPE"
KEYS = ["q", "k", "m", "n", "theta", "q_rot", "k_rot", "score", "score_unrotated"]
MOVED = {"q": [0.3, -1.2], "k": [1.5, 0.4], "m": 11, "n": 4, "theta": 0.2}


def lesson(params, view, same):
    step(r"查询在第 $i$ 个位置（参数 m），键在第 $j$ 个位置（参数 n）：把 q 转 $i\theta$、k 转 $j\theta$，它们的点积只取决于 $i-j$。")
    def rotate(v, angle):
        c, s = np.cos(angle), np.sin(angle)
        return np.array([[c, -s], [s, c]]) @ v

    q_rot = rotate(np.array(params["q"]), params["m"] * params["theta"])
    k_rot = rotate(np.array(params["k"]), params["n"] * params["theta"])
    same(q_rot, view["q_rot"])
    same(k_rot, view["k_rot"])
    same(q_rot @ k_rot, view["score"])
    # 同样的 q、k 转过 (i - j)θ 的夹角：
    offset = (params["m"] - params["n"]) * params["theta"]
    q, k = np.array(params["q"]), np.array(params["k"])
    same(rotate(q, offset) @ k, view["score"])
