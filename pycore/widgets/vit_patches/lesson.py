"""The notebook lesson of the widget vit-patches (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "把图片切成块"
KEYS = ["P", "index", "temperature", "grid_h", "n_patches", "n_tokens", "patch_dim", "self_weight",
        "top_index"]
MOVED = {"P": 32, "index": 20, "temperature": 1.2}


def lesson(params, view, same):
    step(r"224×224 的图按 P×P 切块：每边 224/P 块，每块拉平成 $P^2\cdot 3$ 维，再加一个 [CLS]。")
    P = params["P"]
    same((224 // P) ** 2, view["n_patches"])
    same((224 // P) ** 2 + 1, view["n_tokens"])
    same(P * P * 3, view["patch_dim"])

    step("这个手工的头用每块的颜色特征：分数是负的欧氏距离，再 softmax。")
    from importlib import resources
    from pycore import vit
    data = resources.files("pycore").joinpath("photo224.rgb").read_bytes()
    img = np.frombuffer(data, dtype=np.uint8).reshape(224, 224, 3)  # (H, W, C)
    f = vit.patch_features(img, P)  # (块数, 4)
    dist = np.sqrt(((f - f[params["index"]]) ** 2).sum(axis=1))
    z = -dist / params["temperature"]
    w = np.exp(z - z.max()); w = w / w.sum()
    same(w[params["index"]], view["self_weight"])
    top = np.argsort(-w, kind="stable")[:len(view["top_index"])]  # 权重最大的几块
    same(top, view["top_index"])
