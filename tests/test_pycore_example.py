"""The reader's edited example (pycore/example.py) and the views that follow it, against
values worked by hand."""
import math

import numpy as np
import pytest

from pycore import example
from pycore.widgets import compute, plain
from tests.reference import softmax_row
from tests.page_state import asked, held_after, laid_over


def road_alive():
    x = example.default_example()["x"]
    x[3][1] = 1  # 马路 gets 有生命
    return {"x": x}


def test_the_default_is_the_books_table():
    ex = example.default_example()
    assert ex["x"][0] == [1, 1, 0, 0, 0, 0] and ex["x"][5] == [0, 0, 0, 0, 0, 1]
    assert ex["pronoun"] == [1, 1, 0, 0, 0, 0]
    assert example.checked_example(None) == ex
    ex["x"][0][0] = 9  # a fresh copy each time
    assert example.default_example()["x"][0][0] == 1


def test_entries_are_rounded_and_clamped_to_0_2():
    ex = example.checked_example({"pronoun": [-3, 0.4, 0.6, 1.5, 2.4, 99]})
    assert ex["pronoun"] == [0, 0, 1, 2, 2, 2]
    assert ex["x"] == example.default_example()["x"]  # the missing part is the book's


@pytest.mark.parametrize("junk, words", [
    ("text", "expected"), ([1, 2], "expected"), ({"y": 1}, "expected"),
    ({"x": [[0] * 6] * 8}, "9 rows"), ({"x": [[0] * 5] * 9}, "row 1 of x (小猫)"),
    ({"x": [[0, 0, 0, 0, 0, "1"]] * 9}, "'1'"), ({"pronoun": [True] * 6}, "True"),
    ({"pronoun": [float("nan")] * 6}, "nan"), ({"pronoun": [float("inf")] * 6}, "inf"),
])
def test_junk_gets_a_clear_error(junk, words):
    with pytest.raises(ValueError, match="example: ") as err:
        example.checked_example(junk)
    assert words in str(err.value)
    ex, problem = example.resolve_example(junk)
    assert ex == example.default_example() and problem == str(err.value)


def test_the_pronoun_row_goes_into_w_q():
    ex = example.checked_example({"pronoun": [0, 2, 0, 0, 0, 0]})
    w_q, w_k, w_v = example.semantic_head_of(ex)
    assert w_q[5].tolist() == [0, 2, 0, 0, 0, 0]
    assert np.array_equal(w_q[:5], np.eye(6)[:5]) and np.array_equal(w_k, np.eye(6))


def test_attention_follows_an_edited_feature():
    """马路 with 有生命: 它's query (1 1 0 0 0 0) scores 2 with 小猫 and 马路, 0 elsewhere."""
    row = compute("attention", {"query": "它", "example": road_alive()})["row"]
    e = math.exp(2 / math.sqrt(6))
    assert row[0] == pytest.approx(e / (2 * e + 7)) and row[3] == pytest.approx(row[0])
    assert row[1] == pytest.approx(1 / (2 * e + 7))


def test_attention_follows_the_pronoun_row():
    """Pronoun row 0 1 0 0 0 0: only 小猫 scores (1), every other key 0."""
    row = compute("attention", {"query": "它", "example": {"pronoun": [0, 1, 0, 0, 0, 0]}})["row"]
    e = math.exp(1 / math.sqrt(6))
    assert row[0] == pytest.approx(e / (e + 8)) and row[3] == pytest.approx(1 / (e + 8))


def test_embedding_follows_the_example():
    view = compute("embedding", {"a": "小猫", "b": "马路", "example": road_alive()})
    assert view["dot"] == 2 and view["cos"] == pytest.approx(1.0)
    assert view["dots"][0][3] == 2 and view["cosines"][0][3] == pytest.approx(1.0)
    # a page holding another example's parts gets the whole view; of the same one the pair's
    assert "dots" in asked("embedding", {"example": road_alive()}, held_after("embedding", {}))[0]
    held = held_after("embedding", {"example": road_alive()})
    part, sent = asked("embedding", {"a": "它", "example": road_alive()}, held)
    assert "dots" not in part and set(sent) == {"pair"}


def test_multi_head_a_follows_and_b_does_not():
    book = compute("multi-head", {"query": "它"})
    edited = compute("multi-head", {"query": "它", "example": road_alive()})
    assert edited["row_a"][3] == pytest.approx(edited["row_a"][0])
    assert edited["row_b"] == pytest.approx(book["row_b"])  # head B reads positions only
    view, _ = asked("multi-head", {"example": road_alive()},
                    held_after("multi-head", {"query": "它", "heads": "A+B"}))
    assert "weights_a" in view


def test_an_all_zero_row_has_no_spread_after_layernorm():
    """它 without 代词 is the zero vector: LN(0) = 0 / sqrt(0 + eps) = 0, sigma 0."""
    x = example.default_example()["x"]
    x[5][5] = 0
    view = compute("encoder-layer", {"step": 2, "layout": "pre", "example": {"x": x}})
    assert view["key"] == "ln1" and view["row_std"][5] == 0 and view["row_mean"][5] == 0
    assert view["grid"][5][:6] == [0.0] * 6


def test_permutation_stays_equivariant_for_any_example():
    view = compute("permutation", {"seed": 3, "example": road_alive()})
    assert view["max_abs_diff"] < 1e-12
    moved = compute("permutation", {"seed": 3, "positions": True, "example": road_alive()})
    assert moved["max_abs_diff"] > 0.1


def test_the_editor_reports_what_changed():
    view = compute("example-editor", {"example": {**road_alive(), "pronoun": [1, 1, 0, 0, 0, 1]}})
    assert view["n_changed"] == 2
    assert view["changes"] == "马路「有生命」 0 → 1；W_Q 代词行「代词」 0 → 1"
    assert view["canonical"] == {**road_alive(), "pronoun": [1, 1, 0, 0, 0, 1]}
    assert view["cells"][3][1] == {"v": 1, "on": "true", "changed": True,
                                   "say": "马路「有生命」 = 1（书中是 0）", "at": "3"}
    book = compute("example-editor", {"example": example.default_example()})
    assert book["canonical"] is None and book["n_changed"] == 0
    assert compute("example-editor", {"example": "junk"})["problem_text"]


# An edit session in the editor: each step's example and query, and which of the view's parts
# only the example decides (the page keeps them from the view it shows).
EDITS = [({"x": road_alive()["x"]}, "它"),                          # a cell of the grid
         ({"x": road_alive()["x"]}, "小猫"),                        # a new query only
         ({"x": road_alive()["x"], "pronoun": [1, 1, 0, 0, 0, 1]}, "小猫"),  # the W_Q row
         ({"x": road_alive()["x"], "pronoun": [1, 1, 0, 0, 0, 1],
           "tokens": ["小狗", "没有", "过", "马路", "因为", "它", "饿"]}, "小狗"),  # the sentence
         (None, "它")]                                               # 重置
ALL = example.ALL_TOKENS
BY_EXAMPLE = {"slots", "positions", "cells", "book_at", "sentence_x", "palette",
              "pronoun_cells"}


def test_the_editor_sends_what_an_edit_changes():
    """Each view, laid over the one the page shows, gives the whole view; an edit brings the
    example's part (and the preview that reads it), a new query alone only the preview."""
    page, held = compute("example-editor", {}), held_after("example-editor", {})
    came = []
    for ex, query in EDITS:
        params = {"query": query, **({"example": ex} if ex else {})}
        part, sent = asked("example-editor", params, held)
        held = {**held, **sent}
        page = laid_over(page, part)
        assert page == compute("example-editor", params)
        assert ("cells" in part) == ("checked" in sent) and "tokens" not in part
        came.append(sorted(sent))
    edit, query_only = ["checked", "query_row"], ["query_row"]
    assert came[0] == edit and came.count(query_only) >= 1
    assert all(c in (edit, query_only) for c in came)
    # a junk example shows the book's, and says so: its parts are sent anew
    junk, sent = asked("example-editor", {"example": "junk"}, held_after("example-editor", {}))
    assert sorted(sent) == edit and junk["problem_text"] and junk["cells"] == \
        compute("example-editor", {})["cells"]


# --- the sentence: tokens removed, and added from the palette ------------------------------

def test_the_palette_gives_each_token_six_features_and_a_reason():
    assert set(example.PALETTE).isdisjoint(example.TOKENS)
    for token, (features, reason) in example.PALETTE.items():
        assert len(features) == 6 and set(features) <= {0, 1} and reason
    assert example.PALETTE["小狗"][0] == [1, 1, 0, 0, 0, 0]  # animate entity, as 小猫


def test_a_sentence_takes_palette_tokens_with_their_features():
    ex = example.checked_example({"tokens": ["小狗", "没有", "过", "路口", "因为", "它", "饿"]})
    x = example.sentence_embeddings(ex)
    assert x.shape == (7, 6)
    assert x[0].tolist() == [1, 1, 0, 0, 0, 0] and x[3].tolist() == [1, 0, 0, 0, 0, 0]
    assert x[5].tolist() == [0, 0, 0, 0, 0, 1] and x[6].tolist() == [0, 0, 0, 0, 1, 0]
    assert len(ex["x"]) == 9 and all(len(row) == 6 for row in ex["x"])  # the book's rows stay


def test_a_book_token_keeps_its_edited_features_in_a_new_sentence():
    x = example.default_example()["x"]
    x[3][1] = 1  # 马路 gets 有生命
    ex = example.checked_example({"x": x, "tokens": ["它", "小狗", "马路", "了"]})
    assert example.sentence_embeddings(ex)[2].tolist() == [1, 1, 0, 0, 0, 0]


@pytest.mark.parametrize("tokens, words", [
    ("小猫", "list of 4 to 12"), (["它", "了", "累"], "list of 4 to 12"),
    (["它"] + list(example.PALETTE) + ["累", "了", "太", "小猫"], "list of 4 to 12"),
    (["它", "了", "累", "狮子"], "'狮子'"), (["它", "了", "累", 3], "3"),
    (["它", "了", "累", "累"], "twice"), (["小猫", "了", "累", "太"], "keep 它"),
])
def test_a_junk_sentence_gets_a_clear_error(tokens, words):
    with pytest.raises(ValueError, match="example: ") as err:
        example.checked_example({"tokens": tokens})
    assert words in str(err.value)
    assert example.resolve_example({"tokens": tokens})[0] == example.default_example()


def test_attention_over_a_sentence_with_a_palette_token():
    """小狗 小猫 它 了 累: 它's query (1 1 0 0 0 0) scores 2 with 小狗 and 小猫, 0 with the
    other three keys (it, 了 and 累 share no feature with the query)."""
    tokens = ["小狗", "小猫", "它", "了", "累"]
    view = compute("attention", {"query": "它", "example": {"tokens": tokens}})
    e = math.exp(2 / math.sqrt(6))
    assert view["tokens"] == tokens and view["index"] == 2 and view["n"] == 5
    assert view["row"][:5] == pytest.approx([e / (2 * e + 3)] * 2 + [1 / (2 * e + 3)] * 3)
    # a query that is not in the sentence falls back to 它
    assert compute("attention", {"query": "马路", "example": {"tokens": tokens}})["query"] == "它"
    assert compute("attention", {"query": "小狗", "example": {"tokens": tokens}})["index"] == 0


# --- the views over the reader's sentence, in parts -----------------------------------------

SENTENCES = [None, {"tokens": ["小狗", "小猫", "它", "了", "累"]},
             {"tokens": example.TOKENS + ["小狗", "跑", "它们"]},
             {"x": [[2, 0, 1, 0, 2, 0]] * 9, "pronoun": [0, 2, 0, 0, 1, 0],
              "tokens": ["马路", "它", "饿", "汽车"]}]


@pytest.mark.parametrize("ex", SENTENCES)
@pytest.mark.parametrize("query,scale,causal", [("它", 1.0, False), ("小猫", 6.0, True),
                                                ("累", 0.25, True)])
def test_attention_draws_what_the_figure_helpers_draw(ex, query, scale, causal):
    """The attention view builds its curves and heatmap from cached parts: together they
    equal figure.attention_curves and figure.heatmap (in slots) over the same weights."""
    from pycore import figure
    from pycore.attention import attention, causal_mask
    view = compute("attention", {"query": query, "scale": scale, "causal": causal,
                                 **({"example": ex} if ex else {})})
    ex_checked = example.checked_example(ex)
    x = example.sentence_embeddings(ex_checked)
    w_q, w_k, w_v = example.semantic_head_of(ex_checked)
    weights, _, _ = attention(x @ w_q, x @ w_k, x @ w_v, causal=causal, scale=scale)
    n, i = len(x), view["index"]
    hidden = ~causal_mask(n) if causal else np.zeros((n, n), dtype=bool)
    strongest = int(np.argmax(weights[i]))
    curves = figure.attention_curves(ex_checked["tokens"], weights[i], i, slots=12,
                                     masked=hidden[i])
    heat = figure.heatmap(weights, ex_checked["tokens"], ex_checked["tokens"], slots=12,
                          weights=True, selected_row=i, selected_col=strongest, masked=hidden,
                          row_name="查询", col_name="键")
    # the view keeps the cells' places apart (the sentence's part): laid back into the cells
    drawn = {k: v for k, v in view["heat"].items() if k != "places"}
    drawn["cells"] = [{**p, **c} for p, c in zip(view["heat"]["places"], drawn["cells"])]
    heat["cells"] = [{k: v for k, v in c.items() if k not in ("v", "text")}  # not drawn
                     for c in heat["cells"]]
    assert view["curves"] == plain(curves) and drawn == plain(heat)
    assert view["top"] == {"token": ex_checked["tokens"][strongest],
                           "weight": weights[i, strongest]}


def leaves(view, path=""):
    """{path: value} of every number, string and boolean of a view."""
    if isinstance(view, dict):
        return {k: v for key, sub in view.items() for k, v in leaves(sub, f"{path}{key}.").items()}
    if isinstance(view, list):
        return {k: v for j, sub in enumerate(view) for k, v in leaves(sub, f"{path}{j}.").items()}
    return {path[:-1]: view}


@pytest.mark.parametrize("ex", SENTENCES)
def test_attention_sends_the_page_only_what_the_controls_change(ex):
    """A page that holds the parts of this example at another scale gets the weights and the
    query's row: every value sent is the whole view's at the same path, and what only the
    sentence decides stays out (the labels, the slots, Q, K, V, the places of the picture)."""
    params = {"query": "了", "scale": 2.5, "causal": True, **({"example": ex} if ex else {})}
    whole = leaves(compute("attention", params))
    view, sent = asked("attention", params, held_after("attention", {**params, "scale": 1.0}))
    part = leaves(view)
    assert set(sent) == {"weights", "row"}
    assert part and all(whole[k] == v for k, v in part.items())
    for left_out in ("tokens.0", "slots.0.label", "q.0.0", "v.0.0", "curves.bottom.0.x",
                     "heat.rows.0.label", "heat.viewbox"):
        assert left_out in whole and left_out not in part
    for sent_path in ("weights.0.0", "row.0", "curves.curves.0.d", "curves.top.0.query",
                      "heat.cells.0.c", "heat.cells.0.say", "heat.row_band.y", "top.weight"):
        assert sent_path in part
    # a page that holds another example: the whole view
    other = {"tokens": ["它", "了", "累", "太"]}
    view, sent = asked("attention", params, held_after("attention", {**params, "example": other}))
    assert leaves(view).keys() == whole.keys()


@pytest.mark.parametrize("ex", SENTENCES)
def test_attention_sends_only_the_query_part_when_only_the_query_moved(ex):
    """A page that shows this example at this scale and mask, asking for another query, gets
    the query's row, curves and bands (each equal to the whole view's), not the weights, their
    tables or the heatmap's cells; another scale or mask brings those again."""
    params = {"query": "了", "scale": 2.5, "causal": True, **({"example": ex} if ex else {})}
    held = held_after("attention", {**params, "query": "它"})
    whole = leaves(compute("attention", params))
    view, sent = asked("attention", params, held)
    part = leaves(view)
    assert set(sent) == {"row"}
    assert part and all(whole[k] == v for k, v in part.items())
    for sent_path in ("row.0", "output.0", "top.weight", "curves.curves.0.d",
                      "curves.top.0.query", "heat.row_band.y", "heat.col_band.x"):
        assert sent_path in part
    for left_out in ("weights.0.0", "scores.0.0", "heat.cells.0.c", "heat.legend.hi"):
        assert left_out in whole and left_out not in part
    for moved in ({"scale": 2.25}, {"causal": False}):
        again, sent = asked("attention", {**params, **moved}, held)
        assert set(sent) == {"weights", "row"}
        assert {"weights.0.0", "heat.cells.0.c", "heat.legend.hi"} <= leaves(again).keys()


def test_embedding_draws_the_readers_sentence():
    """小狗 has 小猫's features (1 1 0 0 0 0), 汽车 马路's (1 0 0 0 0 0): in the sentence
    小狗 汽车 它 累 the first two have dot 1 and cosine 1/sqrt(2), the rest 0."""
    tokens = ["小狗", "汽车", "它", "累"]
    view = compute("embedding", {"a": "小狗", "b": "汽车", "example": {"tokens": tokens}})
    assert view["tokens"] == tokens and view["n"] == 4 and (view["ia"], view["ib"]) == (0, 1)
    assert view["dot"] == 1 and view["cos"] == pytest.approx(1 / math.sqrt(2))
    assert view["embeddings"][:4] == [[1, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0],
                                      [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0]]
    assert view["embeddings"][4:] == [[0] * 6] * 8  # the spare slots
    assert [row[:4] for row in view["dots"][:4]] == [[2, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0],
                                                    [0, 0, 0, 1]]
    assert view["cosines"][0][:4] == pytest.approx([1, 1 / math.sqrt(2), 0, 0])
    # the heatmaps: 12 x 12 slots (12 x 6 for the table), the used ones framed by the viewBox
    cells = view["dot_heat"]["cells"]
    assert len(cells) == 144 and sum(not c["hidden"] for c in cells) == 16
    assert cells[0]["say"] == "小狗 · 小狗 = 2" and cells[4]["hidden"] and not cells[4]["say"]
    assert view["dot_heat"]["viewbox"] == f"0 0 {44 + 4 * 30} {22 + 4 * 30}"
    table = view["table"]
    assert len(table["cells"]) == 72 and sum(not c["hidden"] for c in table["cells"]) == 24
    assert table["cells"][6]["say"] == "汽车 的「实体」 = 1"
    assert table["viewbox"] == f"0 0 {44 + 6 * 36} {26 + 4 * 36}"
    # the frames: A's and B's rows of the table, the pair's two cells of each matrix
    assert [f["y"] for f in table["frames"]] == [26, 26 + 36]
    assert [(f["x"], f["y"]) for f in view["dot_heat"]["frames"]] == [(44 + 30, 22),
                                                                      (44, 22 + 30)]
    # a pick the sentence lacks falls back: A to its first token, B to its last
    view = compute("embedding", {"a": "小猫", "b": "马路", "example": {"tokens": tokens}})
    assert (view["a"], view["b"]) == ("小狗", "累")


# --- the editor's preview over the reader's sentence ----------------------------------------

def test_the_editor_previews_a_four_token_sentence():
    """小狗 汽车 它 饿: 它's query is W_Q's pronoun row (1 1 0 0 0 0); it scores 2 with 小狗
    (实体 + 有生命), 1 with 汽车 (实体), 0 with 它 and 饿. The bars keep 12 slots of 34
    units after a 30-unit axis; the plot runs from y 132 (0) up to y 16 (1)."""
    tokens = ["小狗", "汽车", "它", "饿"]
    view = compute("example-editor", {"query": "它", "example": {"tokens": tokens}})
    e2, e1 = math.exp(2 / math.sqrt(6)), math.exp(1 / math.sqrt(6))
    total = e2 + e1 + 2
    weights = [e2 / total, e1 / total, 1 / total, 1 / total]
    assert view["query"] == "它" and view["index"] == 2 and view["n"] == 4
    assert view["sentence"] == tokens
    assert view["row"][:4] == pytest.approx(weights) and view["row"][4:] == [0.0] * 8
    scores = [2 / math.sqrt(6), 1 / math.sqrt(6), 0, 0]
    assert [s for s, _ in view["row_table"]] == pytest.approx(scores + [0] * 8)
    assert [w for _, w in view["row_table"]] == pytest.approx(weights + [0] * 8)
    assert view["top"]["token"] == "小狗" and view["top"]["weight"] == pytest.approx(e2 / total)
    assert view["sentence_x"][:4] == [[1, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0],
                                      [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0]]
    assert view["sentence_x"][4:] == [[0] * 6] * 8
    # the picker: one button per token, its value the token as JSON; the spare ones hidden
    assert [(s["label"], s["value"], s["hidden"]) for s in view["slots"][:5]] == \
        [("小狗", '"小狗"', False), ("汽车", '"汽车"', False), ("它", '"它"', False),
         ("饿", '"饿"', False), ("", False, True)]
    bars = view["bars"]
    assert (bars["vw"], bars["viewbox"]) == (30 + 4 * 34, "0 0 166 150")
    assert len(bars["bars"]) == 12 and [b["hidden"] for b in bars["bars"]] == [False] * 4 + \
        [True] * 8
    for k, (b, w) in enumerate(zip(bars["bars"], weights)):
        assert (b["x"], b["w"]) == (round(30 + 34 * k + 34 * 0.125, 2), 25.5)
        assert b["h"] == pytest.approx(w * 116, abs=0.006)
        assert b["y"] == pytest.approx(132 - w * 116, abs=0.006)
        assert b["label"] == tokens[k] and b["text"] == f"{w:.3f}"
        assert b["say"] == f"它 → {tokens[k]}：{w:.4f}"
    assert all(b["label"] == b["text"] == b["say"] == "" and b["h"] == 0
               for b in bars["bars"][4:])
    shown_ticks = [(t["y"], t["label"]) for t in bars["ticks"] if not t["hidden"]]
    assert bars["baseline"] == 132 and shown_ticks[-1] == (16, "1.0")  # the axis ends at 1
    # the grid's book tokens link to their places in the sentence (none of the nine is in it
    # but 它, the sixth book token and the sentence's third)
    assert view["book_at"] == [""] * 5 + ["2"] + [""] * 3
    assert view["cells"][5][0]["at"] == "2" and view["cells"][0][0]["at"] == ""


def hand_row(ex, query):
    """The semantic head's row of `query` over the sentence, with loops: q = x W_Q (W_Q the
    identity with the pronoun row in place of its last row), scores q . x_j / sqrt(6)."""
    features = {t: row for t, row in zip(example.TOKENS, ex["x"])}
    features.update({t: f for t, (f, _) in example.PALETTE.items()})
    w_q = [[1.0 if r == c else 0.0 for c in range(6)] for r in range(6)]
    w_q[5] = list(ex["pronoun"])
    x_i = features[query]
    q = [sum(x_i[r] * w_q[r][c] for r in range(6)) for c in range(6)]
    scores = [sum(a * b for a, b in zip(q, features[t])) / math.sqrt(6) for t in ex["tokens"]]
    return scores, softmax_row(scores)


@pytest.mark.parametrize("query", ["它", "小猫", "它们", "饿", "马路"])
def test_the_editor_previews_an_edited_twelve_token_sentence(query):
    """Edited features and pronoun row, and a sentence of 12 with palette tokens: every
    query's row is the one worked with loops; one the sentence lacks (马路) gives 它's."""
    x = example.default_example()["x"]
    x[0][4] = 2  # 小猫 gets a doubled 状态
    tokens = ["小猫", "没有", "过", "因为", "它", "太", "累", "了", "小狗", "它们", "饿", "汽车"]
    raw = {"x": x, "pronoun": [1, 0, 0, 0, 1, 1], "tokens": tokens}
    ex = example.checked_example(raw)
    view = compute("example-editor", {"query": query, "example": raw})
    used = query if query in tokens else "它"
    scores, weights = hand_row(ex, used)
    assert view["query"] == used and view["index"] == tokens.index(used) and view["n"] == 12
    assert view["row"] == pytest.approx(weights)
    assert np.allclose(view["row_table"], [[s, w] for s, w in zip(scores, weights)])
    best = max(range(12), key=lambda j: (weights[j], -j))
    assert view["top"] == {"token": tokens[best], "weight": pytest.approx(weights[best])}
    bars = view["bars"]
    assert bars["vw"] == 30 + 12 * 34 and not any(b["hidden"] for b in bars["bars"])
    assert [b["label"] for b in bars["bars"]] == tokens
    assert [b["h"] for b in bars["bars"]] == pytest.approx([w * 116 for w in weights],
                                                           abs=0.006)
    assert view["book_at"] == ["0", "1", "2", "", "3", "4", "5", "6", "7"]  # 马路 is out


def test_bars_slots_keep_their_places_for_any_length():
    """A slot keeps its x whatever the number of values; the frame grows by one slot each."""
    from pycore import figure
    three = figure.bars([0.5, 0.25, 1.0], "abc", slots=5, top=1.0, slot=40, axis_space=20)
    five = figure.bars([0.1] * 5, "abcde", slots=5, top=1.0, slot=40, axis_space=20)
    assert [b["x"] for b in three["bars"]] == [b["x"] for b in five["bars"]] == \
        [20 + 40 * k + 5 for k in range(5)]
    assert (three["vw"], five["vw"], three["viewbox"]) == (140, 220, "0 0 140 170")
    assert [b["hidden"] for b in three["bars"]] == [False, False, False, True, True]
    assert [b["label"] for b in three["bars"]] == ["a", "b", "c", "", ""]
    # heights on the 0..1 axis: from y 152 (0) up to y 16 (1), 136 units
    assert [b["h"] for b in three["bars"][:3]] == [68.0, 34.0, 136.0]
