"""Chapter 4's section on attention pooling (Nadaraya-Watson kernel regression): every number
it quotes is what the kernel-regression widget's view computes, each looked up in the prose."""
import numpy as np

from pycore import kernel_regression as kr
from pycore.widgets import compute, module
from tests.prose import sayer

says = sayer("04-attention.md")


def test_the_default_query():
    v = compute("kernel-regression", {})
    assert (v["query"], v["width"]) == (2.5, 0.4)
    top6 = np.sort(v["weights"])[::-1][:6].sum()
    says(f"默认 $x={v['query']}$、$\\ell={v['width']}$ 时",
         f"最大的一份只有 {v['top_weight']:.3f}，权重最大的 6 个点合起来占 {top6:.3f}",
         f"预测值是 {v['prediction']:.3f}，真实值是 {v['truth']:.3f}",
         f"图里是 {kr.N_POINTS} 个带噪声的训练点")


def test_the_narrowest_and_the_widest_kernel():
    spec = module("kernel-regression").PARAMS["width"]
    narrow = compute("kernel-regression", {"width": spec["min"]})
    wide = compute("kernel-regression", {"width": spec["max"]})
    x, y = kr.training_points()
    nearest = int(np.argmin(abs(x - 2.5)))
    assert narrow["top_weight"] > 0.9999 and narrow["nearest"] == x[nearest]
    says(f"把宽度拉到最小（{spec['min']}），几乎全部权重（超过 0.9999）",
         f"（$x\\approx {x[nearest]:.2f}$）", f"那个点自己的 $y$（{y[nearest]:.3f}）")
    assert abs(narrow["prediction"] - y[nearest]) < 1e-3
    says(f"拉到最大（{spec['max']:.1f}），{kr.N_POINTS} 个点的权重都差不多（最大的也只有 "
         f"{wide['top_weight']:.3f}），预测值 {wide['prediction']:.3f} 已经接近所有 $y_i$ 的平均值 "
         f"{y.mean():.3f}")
