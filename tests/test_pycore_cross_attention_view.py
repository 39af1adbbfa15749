"""The cross-attention widget's view (pycore/widgets/cross_attention/) against the rows of
"cat" and "not" worked by hand (a = scale / sqrt 10: a score of 1 becomes the logit a) and the
alignment an aligner would draw."""
import math

import pytest

from pycore.widgets import compute

A = 6 / math.sqrt(10)


def test_writing_cat_looks_at_the_kitten():
    v = compute("cross-attention", {"step": 2})
    assert v["writes"] == "cat" and v["self_keys"] == "<bos> the" and v["n_self"] == 2
    assert v["n_cross"] == 9
    total = math.exp(2 * A) + math.exp(A) + 7  # 小猫 2, 马路 1, seven zeros
    assert v["weights"] == pytest.approx([math.exp(2 * A) / total, 1 / total, 1 / total,
                                          math.exp(A) / total] + [1 / total] * 5)
    assert (v["attended"], round(v["attended_weight"], 3)) == ("小猫", 0.765)
    assert (v["second"], round(v["second_weight"], 3)) == ("马路", 0.115)
    assert v["progress"] == "第 2 / 13 步：已写出 1 个词，正在写 cat"


def test_writing_not_looks_at_the_negation():
    v = compute("cross-attention", {"step": 4})
    total = math.exp(2 * A) + 3 * math.exp(A) + 5  # 没有 2; 因为, 太, 了 1 (功能词)
    assert v["attended_weight"] == pytest.approx(math.exp(2 * A) / total)
    assert round(v["attended_weight"], 3) == 0.640 and v["attended"] == "没有"
    assert [round(v["weights"][j], 3) for j in (4, 6, 8)] == [0.096] * 3
    assert list(v["scores"]) == [0, 2, 0, 0, 1, 0, 1, 0, 1]


def test_the_alignment_and_the_rows_not_written_yet():
    v = compute("cross-attention", {"step": 5})
    assert v["aligned"] == ["小猫", "小猫", "没有", "没有", "过", "马路", "马路", "因为", "它",
                            "了", "太", "累", "了"]
    masked = {c["i"] for c in v["heat"]["cells"] if c["masked"]}
    assert masked == set(range(5, 13))  # rows 6 .. 13 are still to come
    assert v["heat"]["row_band"]["y"] == v["heat"]["label_h"] + 4 * 30
    assert v["curves"]["query"] == 4 and v["curves"]["top"][4]["label"] == "cross"
    assert [t["dim"] for t in v["curves"]["top"]] == [False] * 5 + [True] * 8
    widths = [c["sw"] for c in v["curves"]["curves"]]
    assert widths.index(max(widths)) == 2  # cross -> 过
    assert v["curves"]["curves"][2]["tokens"] == "t4 s2"
    assert v["shape"] == "Q：13 × 10，K、V：9 × 10，权重：13 × 9"


def test_a_smaller_scale_flattens_the_row_but_keeps_its_peak():
    flat = compute("cross-attention", {"step": 2, "scale": 1.0})
    a = 1 / math.sqrt(10)
    total = math.exp(2 * a) + math.exp(a) + 7
    assert flat["attended_weight"] == pytest.approx(math.exp(2 * a) / total)
    assert round(flat["attended_weight"], 3) == 0.184 and flat["attended"] == "小猫"
    sharp = compute("cross-attention", {"step": 2, "scale": 10.0})
    assert sharp["attended_weight"] > 0.9 and sharp["aligned"] == flat["aligned"]


def test_the_last_step_ends_on_le():
    v = compute("cross-attention", {"step": 13})
    assert v["writes"] == "<eos>" and v["attended"] == "了"
    assert v["n_self"] == 13 and not any(c["masked"] for c in v["heat"]["cells"])


def test_a_step_at_the_scale_on_the_page_sends_the_step_alone():
    from tests.page_state import asked, held_after
    whole = compute("cross-attention", {"step": 4, "scale": 6.0})
    part, sent = asked("cross-attention", {"step": 4, "scale": 6.0},
                       held_after("cross-attention", {"step": 3, "scale": 6.0}))
    assert set(sent) == {"writing"}
    assert "matrix" not in part and "features" not in part and "legend" not in part["heat"]
    assert part["heat"]["paths"] == whole["heat"]["paths"]
    assert part["heat"]["row_band"]["y"] == whole["heat"]["label_h"] + 3 * whole["heat"]["cell"]
    assert {k: v for k, v in part.items() if k != "heat"} == \
        {k: v for k, v in whole.items() if k not in ("heat", "matrix", "aligned", "features",
                                                     "scale", "n_steps")}
    # the page holds another scale's matrix: the whole view
    part, sent = asked("cross-attention", {"step": 4, "scale": 6.0},
                       held_after("cross-attention", {"step": 4, "scale": 1.0}))
    assert part == whole and set(sent) == {"matrix", "writing"}
