"""The notebook lesson of the widget model-map (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "整个模型的地图"
KEYS = ["family", "name", "kept"]
MOVED = {"family": "encoder-only"}


def lesson(params, view, same):
    step("地图上的每一块都标着它所在的一列；一种结构缺哪几列，哪几块就暗下去，数一数还剩几块。")
    from pycore.widgets import model_map as mm
    fig = mm.layout()
    lacks = {"encoder-decoder": set(), "decoder-only": {"encoder", "cross"},
             "encoder-only": {"decoder", "cross"}}[params["family"]]
    kept = [b["label"] for b in fig["boxes"] if b["part"] not in lacks]
    print(kept)
    same(len(kept), view["kept"])
