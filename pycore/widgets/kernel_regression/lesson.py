"""The notebook lesson of the widget kernel-regression (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "注意力汇聚：Nadaraya–Watson 核回归"
KEYS = ["query", "width", "prediction", "truth", "top_weight", "nearest"]
MOVED = {"width": 1.2, "query": 4.5}


def lesson(params, view, same):
    step(r"查询 $x$ 给每个训练点打分 $-(x-x_i)^2/2\ell^2$，softmax 成权重，再把训练点的 $y_i$ 按权重加起来，就是这一点的预测。")
    from pycore import kernel_regression as kr
    x, y = kr.training_points()  # 30 个训练点
    q, width = params["query"], params["width"]
    s = -(q - x) ** 2 / (2 * width ** 2)  # 距离越近，分数越高
    a = np.exp(s - s.max()); a = a / a.sum()  # softmax
    print(f"最大的权重 {a.max():.3f}，落在 x = {x[a.argmax()]:.2f}")
    same(a, view["weights"])
    same(a @ y, view["prediction"])
