"""The notebook lesson of the widget rope-scaling (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "把 RoPE 拉长：三种做法改了哪些频率"
KEYS = ["s", "train_len", "slow_pairs", "ntk_base", "yarn_kept", "yarn_interpolated"]
MOVED = {"s": 32, "train_len": 2048}


def lesson(params, view, same):
    step("d_h = 128 的 64 个旋转对，频率 θ_i = 10000^(−2i/128)，波长 2π/θ_i；"
         r"波长超过训练长度 $n_{\text{训}}$ 的对，训练时连一圈都没转完。")
    s, L = params["s"], params["train_len"]
    theta = 10000.0 ** (-np.arange(0, 128, 2) / 128)  # (64,)
    same(int((2 * np.pi / theta > L).sum()), view["slow_pairs"])

    step(r"位置插值把每个 $\theta_i$ 除以 $\kappa$；NTK 把底数换成 $10000\cdot\kappa^{128/126}$。")
    same(2 * np.pi / (theta[0] / s), view["fastest"][1])
    base = 10000.0 * s ** (128 / 126)
    same(base, view["ntk_base"])

    step(r"YaRN 数每一对在 $n_{\text{训}}$ 个 token 里转几圈 r：r > 32 的不动，r < 1 的除以 $\kappa$，中间线性过渡。")
    r = L * theta / (2 * np.pi)
    same(int((r > 32).sum()), view["yarn_kept"])
    same(int((r < 1).sum()), view["yarn_interpolated"])
