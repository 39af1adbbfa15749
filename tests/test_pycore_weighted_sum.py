"""Attention's third step (pycore/widgets/weighted_sum/__init__.py): weights × V → output, against
values worked out by hand for the running example, and the picture's geometry against its
definition (a cell spans 0..1; the output's parts lie end to end)."""
import math

import pytest

from pycore.widgets import weighted_sum as ws


def hand_row_of_it(scale):
    """它's row by hand: score 2 for 小猫 (entity + animate), 1 for 马路 (entity), 0 for the
    seven others, each divided by sqrt(6) and multiplied by the scale."""
    a = scale / math.sqrt(6)
    z = math.exp(2 * a) + math.exp(a) + 7
    return {"小猫": math.exp(2 * a) / z, "马路": math.exp(a) / z, "other": 1 / z}


@pytest.mark.parametrize("scale", [1.0, 6.0])
def test_output_of_it_by_hand(scale):
    w = hand_row_of_it(scale)
    v = ws.view("它", scale)
    # features: 实体 (小猫, 马路), 有生命 (小猫), 动作 (过), 功能词 (没有 因为 太 了), 状态 (累),
    # 代词 (它)
    expected = [w["小猫"] + w["马路"], w["小猫"], w["other"], 4 * w["other"], w["other"], w["other"]]
    assert v["output"] == pytest.approx(expected, abs=1e-12)


def test_book_numbers_at_scale_1():
    v = ws.view("它", 1.0)
    assert [round(x, 3) for x in v["output"]] == [0.350, 0.210, 0.093, 0.372, 0.093, 0.093]
    assert v["top"] == {"feature": "功能词", "value": pytest.approx(4 * hand_row_of_it(1.0)["other"])}
    assert ws.view("它", 6.0)["top"]["feature"] == "实体"


def test_contributions_are_weight_times_value_rows():
    v = ws.view("因为", 2.0)
    for j, row in enumerate(v["contrib"]):
        assert list(row) == pytest.approx([v["weights"][j] * x for x in v["v"][j]])


def test_picture_cells_and_output_parts():
    v = ws.view("它", 1.0)
    fig, full = v["fig"], ws.CELL_W - 2 * ws.PAD
    # 小猫's 实体 cell: the ghost spans the whole cell (v = 1), the filled part w × the cell
    cell = fig["rows"][0]["cells"][0]
    assert cell["ghost"] == pytest.approx(full)
    assert cell["w"] == pytest.approx(hand_row_of_it(1.0)["小猫"] * full, abs=0.01)
    # a zero entry draws nothing
    assert fig["rows"][1]["cells"][0]["w"] == 0
    # the output's 实体 cell: 小猫's part, then 马路's right after it, their sum the output
    segs = fig["out"]["cells"][0]["segs"]
    assert segs[3]["x"] == pytest.approx(segs[0]["x"] + segs[0]["w"], abs=0.01)
    assert sum(s["w"] for s in segs) == pytest.approx(v["output"][0] * full, abs=0.02)
    assert fig["out"]["cells"][3]["text"] == "0.372"
    # the query's row is marked, and only it
    assert [r["query"] for r in fig["rows"]] == [t == "它" for t in v["tokens"]]
