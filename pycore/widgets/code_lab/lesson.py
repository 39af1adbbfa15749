"""The notebook lesson of the widget code-lab (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "代码实验室：一个完整的 Pre-LN 块"
KEYS = ["seed", "causal", "output_shape", "error", "weights"]
MOVED = {"seed": 7, "causal": False, "time_limit": 10}


def lesson(params, view, same):
    step("实验室的脚本调用 pycore.block.lab_report：随机初始化一个块，跑一遍前向，返回每一步的形状和头 0 的前几行注意力权重。")
    from pycore.block import lab_report
    trace, head0 = lab_report(seed=params["seed"], causal=params["causal"])
    for name, shape in trace:
        print(f"{name:<34} {shape}")
    same(head0, view["weights"])
    if params["causal"]:  # 只看自己和前面的位置：前几列就是一行的全部权重
        same(head0.sum(axis=1), np.ones(len(head0)))
