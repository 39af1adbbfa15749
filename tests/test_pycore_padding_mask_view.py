"""The padding-mask widget's view (pycore/widgets/padding_mask/) against the short sentence
「小猫 太 累 了」 worked by hand: 小猫 scores 2 with itself and 0 with every other word and
every pad (a pad's key is the zero vector), so its weights are ratios of e^(2/sqrt 6) and 1."""
import math

import numpy as np
import pytest

from pycore.widgets import compute
from tests.page_state import asked, held_after

E2 = math.exp(2 / math.sqrt(6))  # 小猫 with itself
E1 = math.exp(1 / math.sqrt(6))  # 太 with a function word (太 and 了 share that feature)


def test_with_the_padding_mask_the_short_sentence_is_as_if_alone():
    v = compute("padding-mask", {})
    assert v["tokens"] == ["小猫", "太", "累", "了"] + ["<pad>"] * 5
    assert v["shape"] == "(B, n, d) = (2, 9, 6)"
    assert v["row"][:4] == pytest.approx([E2 / (E2 + 3)] + [1 / (E2 + 3)] * 3)
    assert v["row"][4:] == [0.0] * 5
    assert round(v["self_weight"], 3) == 0.430 and v["pad_share"] == 0.0
    assert v["change"] < 1e-12 and v["verdict"] == "和单独算这句话完全一样"
    # 太's function-word feature: 太 and 了 score 1, 小猫 and 累 0
    assert v["outputs"][1][3] == pytest.approx(2 * E1 / (2 * E1 + 2))
    assert round(v["outputs"][1][3], 3) == 0.601


def test_without_it_the_pads_take_a_share():
    v = compute("padding-mask", {"mask": False})
    assert v["self_weight"] == pytest.approx(E2 / (E2 + 8)) and round(v["self_weight"], 3) == 0.220
    assert v["pad_share"] == pytest.approx(5 / (E2 + 8)) and round(v["pad_share"], 3) == 0.487
    assert v["outputs"][1][3] == pytest.approx(2 * E1 / (2 * E1 + 7))
    assert v["change"] == pytest.approx(2 * E1 / (2 * E1 + 2) - 2 * E1 / (2 * E1 + 7))
    assert round(v["change"], 3) == 0.300
    # per real query: 小猫 5 / (e^2a + 8); 太 and 了 5 / (2 e^a + 7); 累 (its state
    # feature, 1 with itself) 5 / (e^a + 8)
    assert v["pad_weight"] == pytest.approx([5 / (E2 + 8), 5 / (2 * E1 + 7), 5 / (E1 + 8),
                                             5 / (2 * E1 + 7)])
    assert [round(x, 3) for x in v["pad_weight"]] == [0.487, 0.500, 0.526, 0.500]


def test_the_masks_drawn():
    v = compute("padding-mask", {"causal": True})

    def squares(m):
        """(row, column, path) of every square of mask m, read back from its two paths: 17
        units wide every 18 after the 16 of the labels; path 1 holds the masked squares."""
        out = []
        for k, path in enumerate(v[m]["paths"]):
            for sq in path["d"].split("M")[1:]:
                x, rest = sq.split(" ")
                y, side = rest.split("h")[0], rest.split("h")[1].split("v")[0]
                assert side == "17" and (float(x) - 16) % 18 == 0 == (float(y) - 16) % 18
                out.append(((int(float(y)) - 16) // 18, (int(float(x)) - 16) // 18, k))
        return out

    def hidden(m):
        return {(i, j) for i, j, k in squares(m) if k == 1}

    pad = hidden("pad_mask")
    assert pad == {(i, j) for i in range(9) for j in range(4, 9)}  # the pads' columns
    causal = hidden("causal_mask")
    assert causal == {(i, j) for i in range(9) for j in range(9) if j > i}
    both = hidden("combined")
    assert both == pad | causal and v["in_force"] == "padding 掩码 ∧ 因果掩码"
    assert v["combined"]["n_allowed"] == 4 * 5 // 2 + 5 * 4  # 10 in the triangle, pads' rows
    assert v["pad_mask"]["labels"] == ["小", "太", "累", "了"] + ["·"] * 5
    # every one of the 81 squares drawn once, in one of the two paths
    for m in ("pad_mask", "causal_mask", "combined"):
        assert sorted((i, j) for i, j, _ in squares(m)) == [(i, j) for i in range(9)
                                                             for j in range(9)]
    assert v["pad_mask"]["n_allowed"] == 36 and v["causal_mask"]["n_allowed"] == 45
    # the weights heatmap hides what the mask hides and frames the query's row
    assert [c["masked"] for c in v["heat"]["cells"]] == [(i, j) in both for i in range(9)
                                                         for j in range(9)]
    assert v["heat"]["row_band"]["y"] == v["heat"]["label_h"]  # 小猫 is row 0


def test_right_pads_are_behind_a_causal_decoder_left_pads_are_not():
    right = compute("padding-mask", {"mask": False, "causal": True})
    assert right["pad_share"] == 0.0 and right["change"] < 1e-12
    left = compute("padding-mask", {"mask": False, "causal": True, "side": "left"})
    assert left["tokens"] == ["<pad>"] * 5 + ["小猫", "太", "累", "了"]
    # 小猫 at column 5 sees the 5 pads and itself
    assert left["pad_share"] == pytest.approx(5 / (E2 + 5)) and round(left["pad_share"], 3) == 0.688
    assert left["curves"]["query"] == 5 and left["heat"]["row_band"]["y"] == 22 + 5 * 34
    fixed = compute("padding-mask", {"causal": True, "side": "left"})
    assert fixed["pad_share"] == 0.0 and fixed["self_weight"] == 1.0  # 小猫 alone, causal
    # a left pad under both masks has no key at all: its row is zeros, not 0/0
    assert np.all(np.array(fixed["weights"])[:5] == 0.0)


def test_the_batch_grid_and_the_curves():
    v = compute("padding-mask", {"side": "left", "query": "累"})
    cells = v["batch"]["cells"]
    assert len(cells) == 18 and [c["label"] for c in cells[:9]][:2] == ["小猫", "没有"]
    assert [c["pad"] for c in cells[9:]] == [True] * 5 + [False] * 4
    assert v["curves"]["query"] == 7 and v["curves"]["top"][7]["label"] == "累"
    widths = [c["sw"] for c in v["curves"]["curves"]]
    assert widths.index(max(widths)) == 7  # 累 looks most at itself (its state feature)
    assert all(c["masked"] for c in v["curves"]["curves"][:5])


def test_a_new_query_on_the_same_masks_sends_its_part_alone():
    params = {"query": "太", "side": "left", "causal": True}
    whole = compute("padding-mask", params)
    part, sent = asked("padding-mask", params,
                       held_after("padding-mask", {**params, "query": "小猫"}))
    assert set(sent) == {"chosen"}
    assert "batch" not in part and "weights" not in part and "paths" not in part["heat"]
    assert part["heat"]["row_band"] == whole["heat"]["row_band"]
    assert part["heat"]["row_band"]["y"] == whole["heat"]["label_h"] + 6 * 34  # 太: 5 pads, 小猫
    for key in ("curves", "row", "pad_share", "self_weight", "query"):
        assert part[key] == whole[key]
    # the pads on the other side than the page holds: every part
    other, sent = asked("padding-mask", params,
                        held_after("padding-mask", {**params, "side": "right"}))
    assert set(sent) == {"batch", "figures", "chosen"} and other == whole
