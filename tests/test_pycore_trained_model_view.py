"""The trained-model view's live parts: the page, which keeps every number it was not sent
again, shows after any walk of moves what the whole view says (pycore/widgets/trained_model.py
sends only the parts whose parameters changed, and of the stage's panels only the shown one:
a hidden panel is left as it was and is checked once shown again)."""
import random

from pycore.widgets import trained_model as W
from pycore.widgets import validate

BUILT_ONLY = ("geometry", "stage_labels", "frame_labels", "vocab", "shapes")  # never resent


def merged(page, view):
    """What the page holds after binding `view` (a key it lacks keeps its old value)."""
    out = dict(page)
    for key, value in view.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and \
            isinstance(out.get(key), dict) else value
    return out


def same(a, b, path="view"):
    if isinstance(b, dict):
        assert isinstance(a, dict) and set(b) <= set(a), path
        for k in b:
            same(a[k], b[k], f"{path}.{k}")
    elif hasattr(b, "tolist"):
        assert a.tolist() == b.tolist(), path
    else:
        assert a == b, path


def test_a_walk_of_live_views_shows_the_whole_view():
    rng = random.Random(7)
    params = validate("trained-model", {})
    page = W.view(**params)  # the build
    shown = {}  # the page's first live request knows of nothing on screen
    for move in range(120):
        name = rng.choice(["adjective", "animal", "obstacle", "frame", "position", "stage",
                           "head", "temperature", "top_k", "top_p", "seed"])
        spec = W.PARAMS[name]
        if spec["type"] == "choice":
            params[name] = rng.choice(spec["choices"])
        elif spec["type"] == "int":
            params[name] = rng.randint(spec["min"], min(spec["max"], 20))
        else:
            params[name] = round(rng.uniform(max(spec["min"], 0.2), spec["max"]), 2)
        page = merged(page, W.view(**params, shown=shown))
        shown = dict(params)
        whole = W.view(**params)
        hidden = [p for p, h in whole["hide"].items() if h]  # panels named as their keys
        same(page, {k: v for k, v in whole.items() if k not in BUILT_ONLY + tuple(hidden)},
             f"move {move}")


def test_a_move_of_the_word_leaves_the_matrix_and_a_head_click_the_curves():
    params = validate("trained-model", {})
    moved = W.view(**{**params, "position": 3}, shown=params)
    assert "heads" in moved["attn"] and "c" not in moved["attn"]["heat"]
    clicked = W.view(**{**params, "head": 2}, shown=params)
    assert "heads" not in clicked["attn"] and "c" in clicked["attn"]["heat"]


def test_a_hidden_panel_is_not_sent_and_a_panel_shown_again_is_sent_whole():
    params = validate("trained-model", {})  # the attention stage
    moved = W.view(**{**params, "adjective": "宽"}, shown=params)
    assert "attn" in moved and not {"norm", "ffn", "logits"} & set(moved)
    shown = {**params, "adjective": "宽"}
    ffn = W.view(**{**shown, "stage": "l0-ffn"}, shown=shown)
    same(ffn["ffn"], W.view(**{**shown, "stage": "l0-ffn"})["ffn"], "ffn")
    assert "attn" not in ffn
