"""The trained-model view's live parts: the page, which keeps every part it holds, shows after
any walk of moves what the whole view says (pycore/widgets/trained_model/__init__.py declares the
parts, pycore/view_parts.py sends only those whose inputs changed; of the stage's panels a
live view brings only the shown one: a hidden panel is left as it was, and is checked once
shown again)."""
import random

from pycore.widgets import compute, validate
from pycore.widgets import trained_model as W
from tests.page_state import asked, held_after, laid_over

NAME = "trained-model"
PANELS = ("attn", "norm", "ffn", "logits")


def live(params):
    return {**params, "live": True}


def test_a_walk_of_live_views_shows_the_whole_view():
    rng = random.Random(7)
    params = validate(NAME, {})
    page, held = compute(NAME, params), held_after(NAME, live(params))  # the build, 1st view
    for move in range(120):
        name = rng.choice(["adjective", "animal", "obstacle", "frame", "position", "stage",
                           "head", "section", "temperature", "top_k", "top_p", "seed"])
        spec = W.PARAMS[name]
        if spec["type"] == "choice":
            params[name] = rng.choice(spec["choices"])
        elif spec["type"] == "int":
            params[name] = rng.randint(spec["min"], min(spec["max"], 20))
        else:
            params[name] = round(rng.uniform(max(spec["min"], 0.2), spec["max"]), 2)
        part, sent = asked(NAME, live(params), held)
        assert "fixed" not in sent and "geometry" not in part, f"move {move}"
        page, held = laid_over(page, part), {**held, **sent}
        whole = compute(NAME, params)
        hidden = [p for p in PANELS if whole["hide"][p]]
        assert not set(hidden) & set(part), f"move {move}"
        assert {k: v for k, v in page.items() if k not in hidden} == \
            {k: v for k, v in whole.items() if k not in hidden}, f"move {move}"


def sent_for(change, params=None):
    params = params or validate(NAME, {})  # the attention stage of layer 1
    return asked(NAME, live({**params, **change}), held_after(NAME, live(params)))


def test_a_move_of_the_word_leaves_the_matrix_and_a_head_click_the_curves():
    moved, sent = sent_for({"position": 3})
    assert "heads" in moved["attn"] and "c" not in moved["attn"]["heat"]
    assert not {"ffn", "logits"} & set(moved)  # hidden: their parts came empty
    clicked, sent = sent_for({"head": 2})
    assert "heads" not in clicked["attn"] and "c" in clicked["attn"]["heat"]
    assert set(sent) == {"controls", "attn_matrix", "attn_frame"}


def test_a_hidden_panel_is_not_sent_and_a_panel_shown_again_is_sent_whole():
    assert set(sent_for({"seed": 3})[1]) == {"controls", "dist"}
    moved, _ = sent_for({"adjective": "宽"})
    assert "attn" in moved and not {"norm", "ffn", "logits"} & set(moved)
    shown = {**validate(NAME, {}), "adjective": "宽"}
    ffn, _ = asked(NAME, live({**shown, "stage": "l0-ffn"}), held_after(NAME, live(shown)))
    assert ffn["ffn"] == compute(NAME, {**shown, "stage": "l0-ffn"})["ffn"]


def test_the_frames_sit_on_the_picked_words_row_and_its_strongest_keys_column():
    """The bands come from the heatmap drawn once (geometry): row_y is the top of the cells of
    the picked word's row, col_x the left of the cells of the key its head weighs most."""
    import numpy as np
    for position, head in ((0, 0), (3, 1), (11, 2)):
        view = compute(NAME, validate(NAME, {"position": position, "head": head}))
        cells = view["geometry"]["heat"]["cells"]
        i, j = np.asarray(cells["i"]), np.asarray(cells["j"])
        strongest = int(np.argmax(view["attn"]["rows"][head]))
        band = view["attn"]["heat"]
        assert {float(y) for y in np.asarray(cells["y"])[i == position]} == {band["row_y"]}
        assert {float(x) for x in np.asarray(cells["x"])[j == strongest]} == {band["col_x"]}
