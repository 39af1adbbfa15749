"""The notebook lesson of the widget swin-windows (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "Swin 的窗口注意力"
KEYS = ["image_size", "P", "M", "layer", "n_patches", "n_windows", "window_tokens", "global",
        "windowed", "ratio"]
MOVED = {"image_size": 384, "P": 8, "M": 5, "layer": "shifted"}


def lesson(params, view, same):
    step("全局注意力要 $n^2$ 个分数；切成每窗 $w^2$ 个块后，每个窗口只在内部算 $w^4$ 个。")
    N = view["n_patches"]
    same(N * N, view["global"])
    same(view["n_windows"] * view["window_tokens"] ** 2, view["windowed"])
    print(f"省下 {view['global'] / view['windowed']:.1f} 倍")
