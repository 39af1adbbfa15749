"""The notebook lesson of the widget lr-schedule (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "学习率：预热与衰减"
KEYS = ["warmup", "total", "decay", "min_ratio", "step", "lr_value", "peak_value"]
MOVED = {"warmup": 500, "peak": 0.001, "total": 20000, "decay": "cosine",
         "min_ratio": 0.0, "step": 7000}


def lesson(params, view, same):
    step("预热阶段学习率线性升到峰值；之后按所选方式降到 min_ratio × 峰值。余弦衰减可以直接写出来。")
    from pycore.schedule import learning_rate
    peak, w, total = params["peak"], params["warmup"], params["total"]
    t = view["step"]
    lo = params["min_ratio"] * peak
    lr = learning_rate(t, w, peak, total, params["decay"], lo)
    print(f"第 {t} 步：{lr:.3g}")
    same(lr, view["lr_value"])
    if params["decay"] == "cosine" and w <= t <= total:
        progress = (t - w) / max(total - w, 1)
        cosine = lo + (peak - lo) * 0.5 * (1 + np.cos(np.pi * progress))
        same(cosine, view["lr_value"])
