"""The notebook lesson of the widget param-count (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "数一数参数"
KEYS = ["preset", "d_model", "layers", "vocab", "d_ff", "estimate", "exact"]
MOVED = {"preset": "LLaMA-7B", "d_model": 0, "layers": 0, "vocab": 0, "d_ff": 0,
         "ff_4d": False}


def lesson(params, view, same):
    step("粗估：每层约 $12d^2$（注意力 $4d^2$，前馈按 $d_{ff}=4d$ 算是 "
         "$8d^2$），再加词嵌入 $\\lvert\\mathcal{V}\\rvert d$；与逐项精确数出的总数相比，误差通常不到几个百分点。")
    d, L, V = view["d_model"], view["layers"], view["vocab"]
    rough = 12 * L * d * d + V * d
    print(f"粗估 {rough:,}，精确 {view['exact']:,}")
    same(rough, view["estimate"])
