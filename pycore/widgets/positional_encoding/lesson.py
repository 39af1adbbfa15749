"""The notebook lesson of the widget positional-encoding (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "正弦位置编码"
KEYS = ["d_model", "pair", "omega", "wavelength", "p", "dots_p", "k", "rot_error"]
MOVED = {"d_model": 32, "pair": 5, "p": 40, "k": 9}


def lesson(params, view, same):
    step(r"第 i 对维度的角频率是 $\omega_i = 10000^{-2i/d}$，波长 $2\pi/\omega_i$。")
    d = params["d_model"]
    omega = 10000.0 ** (-2 * np.arange(d // 2) / d)
    same(omega[view["pair"]], view["omega"])
    same(2 * np.pi / omega[view["pair"]], view["wavelength"])

    step(r"$PE(t)\cdot PE(t+\delta) = \sum_i \cos(\omega_i \delta)$：只取决于相隔 $\delta$（参数 k），"
         r"与起点 $t$（参数 p）无关。")
    from pycore.positional import encode
    ks = np.array(view["ks"])
    closed_form = np.cos(np.outer(ks, omega)).sum(axis=1)  # (len(ks),)
    same(closed_form, view["dots_p"])
    # 再从编码本身算一遍：PE(p) 与 PE(p + k) 逐维相乘后相加
    a = encode(np.full(len(ks), params["p"]), d)  # (len(ks), d)
    b = encode(params["p"] + ks, d)
    same((a * b).sum(axis=1), view["dots_p"])
