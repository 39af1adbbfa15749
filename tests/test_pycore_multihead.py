"""The two heads of the multi-head widget, checked with loops and the book's numbers."""
import math

import numpy as np
import pytest

from pycore import example, multihead as M
from tests.page_state import asked, held_after
from tests.reference import pe, softmax_row


@pytest.fixture(scope="module")
def mh():
    return M.two_heads()


def test_head_a_is_the_semantic_head(mh):
    a = mh["heads"][0]
    # row of 它: scores 2/sqrt(6) for 小猫, 1/sqrt(6) for 马路, 0 elsewhere
    e2, e1 = math.exp(2 / math.sqrt(6)), math.exp(1 / math.sqrt(6))
    z = e2 + e1 + 7
    row = a["weights"][5]
    assert row[0] == pytest.approx(e2 / z) and row[0] == pytest.approx(0.2101, abs=5e-5)
    assert row[3] == pytest.approx(e1 / z) and row[3] == pytest.approx(0.1397, abs=5e-5)
    assert row[1] == pytest.approx(1 / z)


def test_head_b_looks_at_previous_token(mh):
    w = mh["heads"][1]["weights"]
    for i in range(1, 9):
        assert np.argmax(w[i]) == i - 1
        others = np.delete(w[i], i - 1)
        assert w[i, i - 1] > others.max() + 0.3  # a clear peak, not a near tie
        assert 0.79 < w[i, i - 1] < 0.89
    assert np.argmax(w[0]) == 0


def test_head_b_by_loops(mh):
    b = mh["heads"][1]
    x = example.EMBEDDINGS
    for i in range(9):
        s = [16 * float(pe(i - 1) @ pe(j)) / 4 for j in range(9)]  # 16 * q.k / sqrt(16)
        p = softmax_row(s)
        assert np.allclose(b["weights"][i], p)
        assert np.allclose(b["output"][i], sum(p[j] * x[j] for j in range(9)))


def test_head_b_ignores_the_words():
    other = np.random.default_rng(2).normal(size=(9, 6))
    assert np.allclose(M.two_heads(other)["heads"][1]["weights"],
                       M.two_heads()["heads"][1]["weights"])


def test_concat_and_output(mh):
    a, b = mh["heads"]
    assert mh["concat"].shape == (9, 12)
    assert np.array_equal(mh["concat"][:, :6], a["output"])
    assert np.array_equal(mh["concat"][:, 6:], b["output"])
    assert mh["w_o"].shape == (12, 6)
    for i in range(9):  # W_O = [I; I] / 2: the mean of the two heads, feature by feature
        for f in range(6):
            assert mh["output"][i, f] == pytest.approx((a["output"][i, f] + b["output"][i, f]) / 2)
    shapes = dict(mh["shapes"])
    assert shapes["Q_B"] == (9, 16) and shapes["K_A"] == (9, 6) and shapes["W_O"] == (12, 6)
    assert shapes["concat"] == (9, 12) and shapes["output"] == (9, 6)


# --- the widget over the reader's sentence (pycore/widgets/multi_head/__init__.py) ---------------

SHORT = ["小狗", "它", "很", "饿"]  # palette tokens around 它: four rows of the page's twelve
LONG = ["小猫", "没有", "过", "马路", "小狗", "因为", "它", "太", "累", "了", "很", "饿"]


def mh_view(query="它", heads="A+B", **inputs):
    from pycore.widgets import compute
    return compute("multi-head", {"query": query, "heads": heads, **inputs})


def test_four_tokens_by_hand():
    """小狗 [1 1 0 0 0 0], 它 [0 0 0 0 0 1], 很 [0 0 0 1 0 0], 饿 [0 0 0 0 1 0] (the palette's).
    它 asks for 实体 + 有生命 (the pronoun row of W_Q): score 2/sqrt(6) on 小狗, 0 on the rest.
    Head B's row of 它 (i = 1): softmax over j of 16 PE(0).PE(j) / 4, values the rows of X."""
    view = mh_view(example={"tokens": SHORT})
    assert view["tokens"] == SHORT and view["n"] == 4 and view["index"] == 1
    e = math.exp(2 / math.sqrt(6))
    assert view["row_a"][:4] == pytest.approx([e / (e + 3), 1 / (e + 3), 1 / (e + 3),
                                               1 / (e + 3)])
    assert view["row_a"][4:] == [0.0] * 8 and view["row_b"][4:] == [0.0] * 8
    x = [[1, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0]]
    p = softmax_row([4 * float(pe(0) @ pe(j)) for j in range(4)])
    assert view["row_b"][:4] == pytest.approx(p)
    assert view["top_a"] == {"token": "小狗", "weight": pytest.approx(e / (e + 3))}
    assert view["top_b"]["token"] == "小狗"  # the previous word
    # the output of 它: the mean of the two heads' weighted sums of the rows of x (V = X)
    out_a = [sum(view["row_a"][j] * x[j][f] for j in range(4)) for f in range(6)]
    out_b = [sum(p[j] * x[j][f] for j in range(4)) for f in range(6)]
    assert view["output_row"] == pytest.approx([(a + b) / 2 for a, b in zip(out_a, out_b)])
    assert view["concat"][1][:12] == pytest.approx(out_a + out_b)
    assert view["shape_concat"] == "4 × 12" and view["shape_output"] == "4 × 6"
    assert view["blocks"]["concat"]["text"] == "拼接 4 × 12"


def test_the_slots_frame_the_used_part():
    """Four tokens in twelve slots: the spare ones hidden, the heatmaps' viewBox 44 + 4 * 32
    by 22 + 4 * 32, the query's band as wide as that, the tables padded with zeros."""
    view = mh_view(example={"tokens": SHORT})
    assert [s["label"] for s in view["slots"]] == SHORT + [""] * 8
    assert [s["hidden"] for s in view["slots"]] == [False] * 4 + [True] * 8
    heat = view["heat_b"]
    assert heat["viewbox"] == "0 0 172 150" and heat["vw"] == 172
    assert heat["row_band"] == {"x": 0, "y": 22 + 32, "w": 172, "h": 32}
    assert heat["col_band"] == {"x": 44 + 0 * 32, "y": 0, "w": 32, "h": 150}  # 小狗's column
    assert sum(not c["hidden"] for c in heat["cells"]) == 16 and len(heat["cells"]) == 144
    curves = view["curves_a"]
    assert [c["hidden"] for c in curves["curves"]] == [False] * 4 + [True] * 8
    assert [t["label"] for t in curves["bottom"] if not t["hidden"]] == SHORT
    assert [t["x"] for t in curves["bottom"][:4]] == [45, 135, 225, 315]  # 360 / 4 apart
    assert len(view["weights_a"]) == 12 and view["weights_a"][5] == [0.0] * 12
    assert view["peak_b_tokens"] == ["小狗", "小狗", "它", "很"] + [""] * 8
    # the shape diagram: the heads' blocks are 4 rows of 7 units, × and = beside their middle
    blocks = view["blocks"]
    assert blocks["A"]["h"] == blocks["out"]["h"] == 28 and blocks["w_o"]["h"] == 84
    assert blocks["times"]["y"] == blocks["equals"]["y"] == 4 + 14 + 5
    assert blocks["height"] == 4 + 84 + 18  # the frame fits the tallest, whatever n is


def test_one_head_uses_six_of_the_twelve_columns():
    view = mh_view(heads="B", example={"tokens": SHORT})
    assert view["n_concat"] == 6 and view["concat_cols"] == [f"B{j}" for j in range(6)] + [""] * 6
    assert view["w_o"][:6] == np.eye(6).tolist() and view["w_o"][6:] == [[0.0] * 6] * 6
    assert all(row[6:] == [0.0] * 6 for row in view["concat"])
    assert np.allclose(view["output"][:4], view["head_b"])  # W_O = I
    assert view["shape_w_o"] == "6 × 6"


def test_twelve_tokens_head_b_still_looks_back():
    view = mh_view(example={"tokens": LONG})
    w = np.array(view["weights_b"])
    assert w.shape == (12, 12) and np.allclose(w.sum(axis=1), 1)
    for i in range(1, 12):
        assert np.argmax(w[i]) == i - 1 and w[i, i - 1] > 0.75
    assert view["peak_b_tokens"][1:] == LONG[:-1]
    # head A: 它 splits between the two animate entities 小猫 and 小狗 (score 2 each)
    e2, e1 = math.exp(2 / math.sqrt(6)), math.exp(1 / math.sqrt(6))
    z = 2 * e2 + e1 + 9
    assert view["index"] == 6
    assert view["row_a"][0] == view["row_a"][4] == pytest.approx(e2 / z)
    assert view["row_a"][3] == pytest.approx(e1 / z)  # 马路, an entity
    assert view["heat_a"]["viewbox"] == "0 0 428 406"


def test_a_query_the_sentence_lacks_falls_back_to_it():
    view = mh_view(query="马路", example={"tokens": SHORT})
    assert view["query"] == "它" and view["index"] == 1
    assert view["row_a"] == mh_view(example={"tokens": SHORT})["row_a"]


def test_a_page_gets_only_the_parts_a_move_changed():
    ex = {"tokens": SHORT}
    held = held_after("multi-head", {"query": "它", "heads": "A+B", "example": ex})
    part, sent = asked("multi-head", {"query": "小狗", "heads": "A+B", "example": ex}, held)
    assert set(sent) == {"row", "output"}
    assert "weights_a" not in part and "concat" not in part and part["index"] == 0
    assert [t["query"] for t in part["curves_a"]["top"]] == [True] + [False] * 11
    whole = mh_view(query="小狗", example=ex)
    assert part["output_row"] == whole["output_row"] and part["curves_b"] == whole["curves_b"]
    part, sent = asked("multi-head", {"query": "它", "heads": "A", "example": ex}, held)
    assert set(sent) == {"layer", "output"}
    assert "row_a" not in part and part["shape_concat"] == "4 × 6"
    # the page holds another example's sentence: every part again, equal to the whole view
    part, sent = asked("multi-head", {"query": "它", "heads": "A+B", "example": ex},
                       held_after("multi-head", {"query": "它", "heads": "A+B"}))
    assert set(sent) == {"sentence", "row", "layer", "output"}
    assert part == mh_view(example=ex)
