"""The notebook lesson of the widget panorama (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "整体结构与参数量"
KEYS = ["d_model", "layers", "vocab", "d_ff", "model_total", "layer_params_text"]
MOVED = {"d_model": 1024, "vocab": 32000, "layers": 24, "block": "ffn"}


def lesson(params, view, same):
    step(r"每层的注意力有 $W_Q, W_K, W_V, W_O$ 四个 $d\times d$ "
         r"矩阵，前馈网络有两个 $d\times d_{ff}$ 矩阵，两个 LayerNorm "
         r"各有 $2d$ 个参数；再加上词嵌入 $V\times d$ 和最后一个 LayerNorm，"
         "就是图中的总数（不含偏置和位置表）。")
    d, L = view["d_model"], view["layers"]
    V, d_ff = view["vocab"], view["d_ff"]
    per_layer = 4 * d * d + 2 * d * d_ff + 2 * (2 * d)
    total = L * per_layer + V * d + 2 * d
    print(f"每层 {per_layer:,}，全部 {total:,}")
    same(total, view["model_total"])
