"""pycore/figure.py, the geometry of every widget's picture, against values worked by hand."""
import math

import pytest

from pycore import figure


def test_round_ticks():
    assert figure.nice_ticks(0, 0.21) == [0.0, 0.05, 0.1, 0.15, 0.2]
    assert figure.nice_ticks(-3, 7) == [-2.0, 0.0, 2.0, 4.0, 6.0]
    assert figure.nice_ticks(0, 100000) == [0.0, 20000.0, 40000.0, 60000.0, 80000.0, 100000.0]
    assert figure.nice_max(0.21) == 0.25 and figure.nice_max(0.9) == 1.0
    assert figure.tick_label(0.25, 0.05) == "0.25" and figure.tick_label(4000, 2000) == "4000"


def test_colour_classes():
    # nine classes over [0, 0.9]: 0.0-0.1 is class 0, ..., 0.8-0.9 class 8; clipped outside
    assert [figure.seq_class(v, 0, 0.9) for v in (0, 0.05, 0.1, 0.45, 0.89, 0.9, 2)] == \
        [0, 0, 1, 4, 8, 8, 8]
    assert figure.seq_class(-1, 0, 1) == 0
    assert [figure.div_class(v, 2) for v in (-2, -1, 0, 1, 2, 5)] == [0, 2, 4, 6, 8, 8]


def test_bars_on_a_fixed_unit_axis():
    """height 170, 16 above for value labels, 18 below for names: 0 at y = 152, 1 at y = 16,
    so a bar of 0.5 is 68 units tall; 3 bars share 330 units after the 30-unit axis."""
    b = figure.bars([0.5, 0.25, 0.25], ["a", "b", "c"], top=1.0)
    assert b["baseline"] == 152 and b["bars"][0]["h"] == 68 and b["bars"][0]["y"] == 84
    assert b["bars"][1]["h"] == 34
    assert [x["cx"] for x in b["bars"]] == [85, 195, 305]
    assert b["bars"][0]["text"] == "0.500" and b["bars"][0]["say"] == "a：0.5000"
    shown = [t for t in b["ticks"] if not t["hidden"]]
    assert [t["label"] for t in shown] == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
    assert len(b["ticks"]) == figure.TICKS  # always the same elements: a live view rebinds them


def test_negative_bars_hang_below_the_baseline():
    b = figure.bars([2, -1], ["up", "down"], digits=0)
    up, down = b["bars"]
    assert up["y"] + up["h"] == pytest.approx(b["baseline"])
    assert down["y"] == pytest.approx(b["baseline"]) and down["h"] > 0
    assert up["h"] == pytest.approx(2 * down["h"], abs=0.02)  # coordinates keep 2 decimals


def test_heatmap_cells_labels_bands_and_legend():
    h = figure.heatmap([[0.1, 0.9], [0.5, 0.5]], ["a", "b"], ["x", "y"], cell=10, label_w=20,
                       label_h=5, selected_row=1, selected_col=0, masked=[[False, True],
                                                                          [False, False]])
    c = h["cells"]
    assert [(x["x"], x["y"]) for x in c] == [(20, 5), (30, 5), (20, 15), (30, 15)]
    assert [x["c"] for x in c] == [0, 8, 4, 4]  # global [0.1, 0.9]: 0.5 is the middle class
    assert c[1]["masked"] and c[1]["say"] == "a → y：0.9000"
    assert h["row_band"] == {"x": 0, "y": 15, "w": 40, "h": 10}
    assert h["col_band"] == {"x": 20, "y": 0, "w": 10, "h": 25}
    assert h["legend"]["lo"] == "0.10" and h["legend"]["hi"] == "0.90"
    rows = figure.heatmap([[0.1, 0.9], [0.5, 0.6]], ["a", "b"], ["x", "y"], scaled="row")
    assert [x["c"] for x in rows["cells"]] == [0, 8, 0, 8]  # each row over its own range


def test_line_chart_maps_values_to_the_plot():
    ch = figure.line_chart([{"x": [0, 10], "y": [0, 5]}], width=120, height=70,
                           margin=(10, 10, 10, 10), probes=2, say=lambda x, y: f"{x}:{y}")
    assert ch["plot"] == {"x": 10, "y": 10, "w": 100, "h": 50}
    assert ch["paths"][0]["d"] == "M10.0,60.0 L110.0,10.0"
    assert [p["say"] for p in ch["probes"]] == ["0.0:0.0", "10.0:5.0"]
    assert ch["probes"][1]["x"] == 110 and ch["probes"][1]["y"] == 10


def test_svg_coords_map_many_values_at_once():
    assert figure.svg_coords([0, 5, 10], 0, 10, 10, 110) == [10.0, 60.0, 110.0]
    assert figure.svg_coords([0, 2.5, 5], 0, 5, 60, 10) == [60.0, 35.0, 10.0]  # y points down
    assert figure.svg_coords([1 / 3, 2 / 3], 0, 1, 0, 1) == [0.33, 0.67]  # 2 decimals
    assert figure.svg_coords([7, 8], 3, 3, 0, 100) == [50.0, 50.0]  # an empty domain: middle
    assert figure.svg_coords([], 0, 1, 0, 1) == []
    assert all(isinstance(v, float) for v in figure.svg_coords([1, 2], 0, 4, 0, 8))


def test_an_arrow_ends_in_its_head():
    a = figure.arrow(0, 0, 30, 40, head=10)  # length 50, direction (0.6, 0.8)
    assert (a["x2"], a["y2"]) == (24.0, 32.0)
    tip, left, right = [tuple(map(float, p.strip("MLZ ").split(","))) for p in a["head"].split(" L")]
    assert tip == (30.0, 40.0)
    mid = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
    assert mid == pytest.approx((24.0, 32.0))
    assert math.dist(left, right) == pytest.approx(2 * 0.45 * 10)


def test_attention_curves_are_as_thick_as_their_weight():
    c = figure.attention_curves(["a", "b", "c"], [0.2, 0.5, 0.3], 1, width=300, max_width=9.0)
    widths = [x["sw"] for x in c["curves"]]
    assert widths[1] == 9.0 and widths.index(max(widths)) == 1
    # linear in the weight: 0.6 + 8.4 * w / 0.5
    assert widths[0] == pytest.approx(0.6 + 8.4 * 0.4)
    assert all(x["d"].startswith(f"M{c['top'][1]['x']},") for x in c["curves"])
    assert c["curves"][2]["d"].endswith(f"{c['bottom'][2]['x']},{c['height'] - 20 - 16:.1f}")
    assert [t["query"] for t in c["top"]] == [False, True, False]


def test_an_angle_arc_spans_the_smaller_angle():
    # a right angle at the origin between "right" and "up" (y points down on screen): the arc
    # runs counter-clockwise on screen (sweep 0), its label on the 45° bisector
    a = figure.angle_arc(0, 0, 10, 0, 0, -10, radius=5, label_gap=5)
    assert a["d"] == "M5.0,0.0 A5.0,5.0 0 0,0 0.0,-5.0"
    half = 10 / math.sqrt(2)
    assert (a["tx"], a["ty"] - 4) == pytest.approx((half, -half), abs=0.01)
    # the same rays the other way round: the same arc, drawn clockwise
    back = figure.angle_arc(0, 0, 0, -10, 10, 0, radius=5)
    assert back["d"] == "M0.0,-5.0 A5.0,5.0 0 0,1 5.0,0.0"
    # opposite rays: half a turn, round the top of the first ray (right -> up -> left)
    o = figure.angle_arc(0, 0, 3, 0, -7, 0, radius=5, label_gap=5)
    assert o["d"] == "M5.0,0.0 A5.0,5.0 0 0,0 -5.0,0.0" and (o["tx"], o["ty"]) == (0.0, -6.0)
    # no angle without two rays
    assert figure.angle_arc(1, 2, 1, 2, 5, 5) == {"d": "M1.0,2.0", "tx": 1.0, "ty": 2.0}


def test_frames_go_round_a_heatmaps_rows_and_cells():
    h = figure.heatmap([[0, 1, 2], [3, 4, 5]], ["a", "b"], ["x", "y", "z"], cell=10,
                       label_w=20, label_h=5)  # 50 wide: 20 of labels and 3 cells of 10
    assert h["row_bands"][1] == {"x": 0, "y": 15, "w": 50, "h": 10}
    assert h["col_bands"][2] == {"x": 40, "y": 0, "w": 10, "h": 25}
    assert "frames" not in h  # none asked for
    framed = figure.heatmap([[0, 1, 2], [3, 4, 5]], ["a", "b"], ["x", "y", "z"], cell=10,
                            label_w=20, label_h=5, frames={"rows": [0], "cells": [(1, 2), (0, 0)]})
    assert framed["frames"] == [{"x": 0, "y": 5, "w": 50, "h": 10},
                                {"x": 40, "y": 15, "w": 10, "h": 10},
                                {"x": 20, "y": 5, "w": 10, "h": 10}]
    # each cell's frame is exactly where the heatmap drew that cell
    c = h["cells"][1 * 3 + 2]
    assert (c["x"], c["y"], c["w"], c["h"]) == (40, 15, 10, 10)
    # in slots, a band spans the used part: 2 of 4 columns, 20 + 2 * 10 = 40 wide, 25 tall
    s = figure.heatmap([[0.2, 0.8], [0.5, 0.1]], ["a", "b"], ["x", "y"], cell=10, label_w=20,
                       label_h=5, slots=4, selected_row=1, selected_col=0)
    assert s["row_band"] == {"x": 0, "y": 15, "w": 40, "h": 10}
    assert s["col_band"] == {"x": 20, "y": 0, "w": 10, "h": 25}


def test_a_heatmap_in_columns_has_its_bands_too():
    """cells of 26 after a 44-wide label column and a 22-tall label row: row 2's band starts
    at y = 22 + 2 * 26 = 74 and spans the figure (44 + 3 * 26 = 122); column 1's at x = 70."""
    h = figure.heatmap([[0.1, 0.2, 0.7]] * 3, ["a", "b", "c"], ["x", "y", "z"], form="columns",
                       cell_w=26.0, cell_h=26.0, label_w=44.0, label_h=22.0, weights=True,
                       selected_row=2, selected_col=1)
    assert h["row_band"] == {"x": 0, "y": 74, "w": 122, "h": 26}
    assert h["col_band"] == {"x": 70, "y": 0, "w": 26, "h": 100}
    with pytest.raises(TypeError, match="selected_row"):
        figure.heatmap([[1.0]], form="grid", selected_row=0)


def test_a_histogram_stands_its_bins_side_by_side():
    # 4 bins of width 1 over [-2, 2], drawn 100 wide from x = 10: 25 units a bin; the plot
    # is 50 tall from y = 10, so with top = 10 a count of 4 is 20 units tall
    h = figure.histogram([1, 4, 10, 0], [-2, -1, 0, 1, 2], width=120, height=90, top=10,
                         margin=(10, 10, 30, 10), rules=[0.5, -3])
    bars = h["bars"]
    assert list(bars["x"]) == [10, 35, 60, 85] and list(bars["w"]) == [25] * 4
    assert list(bars["h"]) == [5, 20, 50, 0]
    assert all(y + hh == h["baseline"] == 60 for y, hh in zip(bars["y"], bars["h"]))
    assert bars["say"][1] == "[-1, 0)：4 个"
    assert h["rules"] == [{"x": 72.5, "hidden": False}, {"x": 10, "hidden": True}]
    shown = [t["label"] for t in h["y_ticks"] if not t["hidden"]]
    assert shown == ["0", "2", "4", "6", "8", "10"]
    # the count axis autoscales to a round top, and a count above a given top is cut there
    assert figure.histogram([3, 7], [0, 1, 2])["top"] == 8
    assert figure.histogram([30, 7], [0, 1, 2], top=10)["bars"]["y"][0] == 8


def test_a_log_log_chart_draws_power_laws_as_straight_lines():
    # x over 10^0 .. 10^4 on 100 units from x = 10, y over 10^0 .. 10^8 on 80 units up from
    # y = 90: a decade of x is 25 units, a decade of y 10 units
    ch = figure.log_line_chart([{"x": [1, 100, 10_000], "y": [1, 10_000, 10 ** 8]},
                                {"x": [1, 10_000], "y": [1, 10_000]}],
                               x_decades=(0, 4), y_decades=(0, 8), y_every=4, width=120,
                               height=100, margin=(10, 10, 10, 10), mark=(1000, [10 ** 6, 1000]))
    assert ch["paths"][0]["d"] == "M10.0,90.0 L60.0,50.0 L110.0,10.0"  # n^2: slope 2
    assert ch["paths"][1]["d"] == "M10.0,90.0 L110.0,50.0"             # n: slope 1
    labels = [t["label"] for t in ch["x_ticks"] if not t["hidden"]]
    assert labels == ["1", "10", "10²", "10³", "10⁴"]
    assert [(t["at"], t["label"]) for t in ch["y_ticks"] if not t["hidden"]] == \
        [(90.0, "1"), (50.0, "10⁴"), (10.0, "10⁸")]
    assert ch["mark"] == {"x": 85.0, "points": [{"y": 30.0}, {"y": 60.0}]}
    assert figure.decade_label(12) == "10¹²"


def test_a_mark_on_a_log_chart_drawn_earlier():
    ch = figure.log_line_chart([{"x": [1, 10_000], "y": [1, 10 ** 8]}], x_decades=(0, 4),
                               y_decades=(0, 8), width=120, height=100, margin=(10, 10, 10, 10))
    # 10^3 is three quarters along x; 10^6 three quarters up, 10^2 a quarter up
    assert figure.log_mark(ch, 1000, [10 ** 6, 100]) == {"x": 85.0,
                                                         "points": [{"y": 30.0}, {"y": 70.0}]}


def test_a_point_and_crosshair_on_a_linear_chart():
    # x over 0..100 on 100 units from x = 10; y over 0..50 on 80 units up from y = 90
    ch = figure.line_chart([{"x": [0, 100], "y": [0, 50]}], x_domain=(0, 100),
                           y_domain=(0, 50), width=120, height=100, margin=(10, 10, 10, 10))
    dom = {"x_domain": (0, 100), "y_domain": (0, 50)}
    assert figure.chart_point(ch, 25, 10, **dom) == (35.0, 74.0)
    probes = figure.crosshair(ch, [(0, 50), (20, 25), (100, 0)], ["a", "b", "c"], **dom)
    # strips meet halfway between neighbours (x = 20 and 70) and stop at the plot's edges
    assert [(p["x0"], p["w"]) for p in probes] == [(10, 10.0), (20.0, 50.0), (70.0, 40.0)]
    assert [(p["x"], p["y"], p["say"]) for p in probes] == \
        [(10.0, 10.0, "a"), (30.0, 50.0, "b"), (110.0, 90.0, "c")]


def test_step_points_keep_only_the_corners():
    xs, ys = figure.step_points([0, 1, 2, 3, 4, 5], [9, 9, 7, 7, 7, 4])
    assert (xs, ys) == ([0, 2, 2, 5, 5], [9, 9, 7, 7, 4])
    assert figure.step_points([0, 1, 2], [3, 3, 3]) == ([0, 2], [3, 3])


def test_cross_curves_join_two_sentences_of_different_lengths():
    # 2 tokens on top over 100 units (centres 25, 75), 4 below (12.5, 37.5, 62.5, 87.5)
    c = figure.attention_curves(["a", "b"], [0.1, 0.6, 0.2, 0.1], 1,
                                width=100, height=100, top_prefix="t", bottom_prefix="s",
                                dim=[False, True], keys=["w", "x", "y", "z"])
    assert [t["x"] for t in c["top"]] == [25, 75] and [t["x"] for t in c["bottom"]] == \
        [12.5, 37.5, 62.5, 87.5]
    assert c["curves"][1]["d"] == "M75.0,24.0 C75.0,44.0 37.5,44.0 37.5,64.0"
    widths = [x["sw"] for x in c["curves"]]
    assert widths.index(max(widths)) == 1 and widths[1] == 9.0  # the largest weight: max_width
    assert c["curves"][0]["sw"] == pytest.approx(0.6 + 8.4 / 6, abs=0.01)
    assert c["curves"][2]["tokens"] == "t1 s2" and c["top"][0]["tokens"] == "t0"
    assert c["top"][1]["query"] and c["top"][1]["dim"] and not c["top"][0]["dim"]
    assert c["curves"][1]["say"] == "b → x：0.6000"
def test_a_dense_heatmap_colours_each_cell_as_the_scalar_rules_do():
    m = [[-2.0, -0.5, 0.0], [0.3, 1.0, 2.0]]
    h = figure.heatmap(m, ["a", "b"], ["x", "y", "z"], form="columns", cell_w=10, cell_h=5,
                       label_w=20, label_h=3, digits=2)
    c = h["cells"]
    # row-major: cell k = i * 3 + j, at label_w + j * cell_w, label_h + i * cell_h
    assert list(c["x"]) == [20, 30, 40] * 2 and list(c["y"]) == [3] * 3 + [8] * 3
    # the diverging class of each value, by hand: 4 + round(4 * v / 2), limit = max |v| = 2
    assert list(c["c"]) == [0, 3, 4, 5, 6, 8]
    assert list(c["c"]) == [figure.div_class(v, 2.0) for row in m for v in row]
    assert c["say"][1] == "a · y：-0.50" and c["say"][5] == "b · z：2.00"
    assert (h["width"], h["height"]) == (50, 13)
    assert [row["y"] for row in h["rows"]] == [5.5, 10.5] and h["rows"][1]["top"] == 8
    assert [col["x"] for col in h["cols"]] == [25, 35, 45]
    assert list(c["i"]) == [0, 0, 0, 1, 1, 1] and list(c["j"]) == [0, 1, 2] * 2
    assert (h["legend"]["lo"], h["legend"]["hi"]) == ("-2.00", "2.00")
    # sequential, on a given range: floor(9 * (v - lo) / (hi - lo)), the top clipped to 8
    s = figure.heatmap([[0.0, 0.5, 1.0]], ["a"], ["x", "y", "z"], form="columns", diverging=False,
                       lo=0.0, hi=1.0)
    assert list(s["cells"]["c"]) == [0, 4, 8] == [figure.seq_class(v, 0, 1) for v in (0, .5, 1)]
    assert "say" not in figure.heatmap(m, ["a", "b"], ["x", "y", "z"], form="columns",
                                       readout=False)["cells"]


def test_probe_slots_follow_a_growing_series_and_hide_what_is_not_there_yet():
    # x over [0, 100] on 100 units from x = 10; y over [0, 1] on 50 units up from y = 60
    ch = figure.line_chart([{"x": [0, 50], "y": [0.2, 0.6]}], width=120, height=80,
                           margin=(10, 10, 20, 10), x_domain=(0, 100), y_domain=(0, 1))
    slots = figure.probe_slots(ch, [0, 50, 100], {0: 0.2, 50: 0.6}, x_domain=(0, 100),
                               y_domain=(0, 1), say=lambda x, y: f"{x}: {y}")
    assert [s["x"] for s in slots] == [10, 60, 110]
    assert [s["y"] for s in slots[:2]] == [50, 30]  # 60 - 50 * y
    assert [s["hidden"] for s in slots] == [False, False, True]
    assert slots[1]["say"] == "50: 0.6" and slots[2]["say"] == ""
    assert slots[1]["x0"] == 35 and slots[1]["w"] == 50  # strips meet half way between slots


def test_curve_columns_are_attention_curves_by_columns():
    tokens = ["小猫", "没有", "过", "马路", "它"]
    row = [0.5, 0.1, 0.1, 0.2, 0.1]
    whole = figure.attention_curves(tokens, row, 4, width=300, height=120,
                                    masked=[False, False, False, True, False])
    cols = figure.attention_curves(tokens, row, 4, columns=True, width=300, height=120,
                                   masked=[False, False, False, True, False])
    for name in ("d", "sw", "op", "text", "say", "masked"):
        assert [c[name] for c in whole["curves"]] == list(cols[name]), name
    # by hand: 5 slots of 60 units, the query 它 at x = 270; 小猫 (0.5, the largest) is
    # drawn 9 units wide and opaque, 马路 (0.2) 0.6 + 8.4 * 0.4 wide
    assert cols["d"][0] == "M270.0,24.0 C270.0,54.0 30.0,54.0 30.0,84.0"
    assert (cols["sw"][0], cols["op"][0], cols["sw"][3]) == (9.0, 1.0, 3.96)


def test_horizontal_bars_on_a_fixed_unit_axis():
    """width 260: 44 units of labels, 46 of values, so the plot is 170 units from x = 44;
    rows 22 apart, bars 70 % of a row (15.4) centred in it."""
    b = figure.bars([0.5, 0.25, 1.0], ["a", "b", "c"], form="horizontal", top=1.0)
    assert b["plot"] == {"x": 44, "w": 170} and b["zero"] == 44
    first, second, third = b["rows"]
    assert (first["x"], first["w"]) == (44, 85) and second["w"] == 42.5 and third["w"] == 170
    assert (second["y"], second["ty"], b["bar_h"]) == (22, 22 + 11 + 4, 15.4)
    assert second["by"] == pytest.approx(22 + 3.3)
    assert first["text"] == "0.500" and first["say"] == "a：0.500"
    assert b["axis_y"] == 66 and b["height"] == 66 + 18
    shown = [t for t in b["ticks"] if not t["hidden"]]
    assert [t["label"] for t in shown] == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
    assert shown[-1]["x"] == 214 and len(b["ticks"]) == figure.TICKS


def test_horizontal_bars_autoscale_and_go_left_of_zero():
    b = figure.bars([-1.0, 3.0], ["down", "up"], form="horizontal", width=100, label_w=0,
                    value_w=0, texts=["−1", "+3"])
    assert (b["bottom"], b["top"]) == (-1.0, 3.0)  # round ends around the values
    down, up = b["rows"]
    assert b["zero"] == 25 and (down["x"], down["w"]) == (0, 25)
    assert (up["x"], up["w"]) == (25, 75)
    assert down["text"] == "−1" and up["say"] == "up：+3"


def test_a_stacked_bar_splits_its_width_by_share():
    s = figure.bars([1, 0, 3], ["a", "b", "c"], form="stacked", width=200)
    a, b, c = s["segments"]
    assert (a["x"], a["w"]) == (0, 50) and (b["x"], b["w"]) == (50, 0)
    assert (c["x"], c["w"]) == (50, 150) and [x["k"] for x in s["segments"]] == [0, 1, 2]
    assert c["text"] == "75.0 %" and c["say"] == "c：75.0 %"
    assert s["total"] == 4

def test_seq_classes_is_seq_class_on_every_entry():
    values = [-1.0, 0.0, 0.05, 0.111, 0.5, 0.999, 1.0, 3.0]
    assert figure.seq_classes(values, 0.0, 1.0).tolist() == \
        [figure.seq_class(v, 0.0, 1.0) for v in values] == [0, 0, 0, 0, 4, 8, 8, 8]
    assert figure.seq_classes([[0.2, 0.4]], 0.2, 0.4).tolist() == [[0, 8]]
    assert figure.seq_classes([1.0, 2.0], 2.0, 2.0).tolist() == [0, 8]  # an empty range


def test_class_paths_merge_runs_and_cover_every_cell_once():
    classes = [[0, 0, 2],
               [2, -1, 2]]
    paths = figure.class_paths(classes, 10, n=3, x0=5)
    assert [p["c"] for p in paths] == [0, 1, 2]
    assert paths[0]["d"] == "M5 0h20v10h-20z"  # the run of two 0s: one rectangle
    assert paths[1]["d"] == ""
    assert paths[2]["d"] == "M25 0h10v10h-10zM5 10h10v10h-10zM25 10h10v10h-10z"
    assert figure.class_paths([[1]], 2.5, n=2, y0=0.25)[1]["d"] == "M0 0.25h2.5v2.5h-2.5z"
    # a bigger grid: the rectangles of all paths tile the drawn cells exactly once
    import numpy as np
    grid = np.random.default_rng(0).integers(0, 4, size=(6, 7))
    covered = np.zeros((6, 7), dtype=int)
    for p in figure.class_paths(grid, 2.0, n=4):
        for rect in p["d"].split("M")[1:]:
            x, rest = rect.split(" ")
            y, w = rest.split("h")[0], rest.split("h")[1].split("v")[0]
            i, j, k = int(float(y) / 2), int(float(x) / 2), int(float(w) / 2)
            assert (grid[i, j:j + k] == p["c"]).all()
            covered[i, j:j + k] += 1
    assert (covered == 1).all()


def test_heatmap_slots_hide_what_a_smaller_matrix_does_not_use():
    fig = figure.heatmap([[1.0, 0.0], [0.25, 0.75]], ["a", "b"], ["a", "b"], slots=3,
                         lo=0.0, hi=1.0, cell=10, label_w=20, label_h=5)
    assert len(fig["cells"]) == 9 and len(fig["rows"]) == len(fig["cols"]) == 3
    shown = [(c["i"], c["j"]) for c in fig["cells"] if not c["hidden"]]
    assert shown == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # the used cells are where a 2 x 2 heatmap puts them, coloured on the fixed 0..1 range
    alone = figure.heatmap([[1.0, 0.0], [0.25, 0.75]], ["a", "b"], ["a", "b"], cell=10,
                           lo=0.0, hi=1.0, label_w=20, label_h=5)
    used = [c for c in fig["cells"] if not c["hidden"]]
    assert [(c["x"], c["y"], c["c"], c["say"]) for c in used] == \
        [(c["x"], c["y"], c["c"], c["say"]) for c in alone["cells"]]
    assert [c["say"] for c in fig["cells"] if c["hidden"]] == [""] * 5
    assert [r["hidden"] for r in fig["rows"]] == [False, False, True]
    assert (fig["vw"], fig["vh"], fig["viewbox"]) == (40, 25, "0 0 40 25")
    assert (fig["legend"]["lo"], fig["legend"]["hi"]) == ("0.00", "1.00")
    masked = figure.heatmap([[1.0, 0.0]], ["a"], ["a", "b"], slots=2, lo=0.0, hi=1.0,
                            masked=[[False, True]])
    assert [c["masked"] for c in masked["cells"]] == [False, True, False, False]
    empty = figure.heatmap([], [], [], slots=2, lo=0.0, hi=1.0)
    assert empty["empty"] and all(c["hidden"] for c in empty["cells"])
def test_a_raster_heatmap_is_one_path_per_class():
    """2 rows x 3 columns on [-1, 1]: class 4 + round(4 v); column 0 holds two equal cells, so
    it is one rectangle two cells tall; columns 1 and 2 are a cell each per class."""
    h = figure.heatmap([[1.0, -1.0, 0.1], [1.0, 0.5, -0.3]], form="raster", limit=1.0, width=30,
                       height=20, label_w=10, label_h=5, right=0, bottom=0)
    d = {p["c"]: p["d"] for p in h["paths"]}
    assert len(h["paths"]) == figure.DIV  # every class has its path, used or not
    assert d[8] == "M0 0h1v2h-1z" and d[0] == "M1 0h1v1h-1z" and d[6] == "M1 1h1v1h-1z"
    assert d[4] == "M2 0h1v1h-1z" and d[3] == "M2 1h1v1h-1z"  # 0.1 -> 4.4 -> 4; -0.3 -> 2.8 -> 3
    assert d[1] == d[2] == d[5] == d[7] == ""
    assert [figure.div_class(v, 1.0) for v in (1.0, -1.0, 0.1, 0.5, -0.3)] == [8, 0, 4, 6, 3]
    assert h["transform"] == "translate(10 5) scale(10.0 10.0)"
    assert (h["width"], h["height"]) == (40, 25)
    assert [t["at"] for t in h["x_ticks"] if not t["hidden"]] == [15, 25, 35]  # cell centres
    assert [r["y"] for r in h["rows"]] == [5, 15]
    assert h["legend"]["lo"] == "-1.00" and h["legend"]["kind"] == "div"
    seq = figure.heatmap([[0.0, 0.5, 1.0]], form="raster", diverging=False, lo=0.0, hi=1.0)
    assert {p["c"]: p["d"] for p in seq["paths"] if p["d"]} == \
        {0: "M0 0h1v1h-1z", 4: "M1 0h1v1h-1z", 8: "M2 0h1v1h-1z"}


def test_row_links_leave_and_arrive_horizontally():
    links = figure.row_links([(0, 1), (1, 0)], [10, 30], [15, 35], x0=100, x1=160)
    assert links[0] == {"i": 0, "j": 1, "d": "M100.0,10.0 C130.0,10.0 130.0,35.0 160.0,35.0"}
    assert links[1]["d"] == "M100.0,30.0 C130.0,30.0 130.0,15.0 160.0,15.0"


def test_a_heat_grid_colours_and_says_as_the_heatmap_does():
    m = [[0.3, -1.2, 0.0], [2.0, -0.45, 1.1]]
    g = figure.heatmap(m, ["a", "b"], ["x", "y", "z"], form="grid", cell=10, label_w=5, label_h=20)
    h = figure.heatmap(m, ["a", "b"], ["x", "y", "z"], diverging=True)
    assert g["c"].tolist() == [[c["c"] for c in h["cells"][:3]], [c["c"] for c in h["cells"][3:]]]
    # 4 + round(4 v / 2): 4 + round of 0.6, -2.4, 0, 4, -0.9, 2.2
    assert g["c"].tolist() == [[5, 2, 4], [8, 3, 6]]
    assert [s for row in g["say"] for s in row] == [c["say"] for c in h["cells"]]
    assert g["xs"] == [5, 15, 25] and g["ys"] == [20, 30] and (g["width"], g["height"]) == (35, 40)
    assert g["legend"]["lo"] == "-2.00" and g["legend"]["kind"] == "div"
    s = figure.heatmap([[0.0, 0.5, 1.0]], ["r"], ["p", "q", "s"], form="grid", diverging=False,
                       lo=0, hi=1)
    assert s["c"].tolist() == [[figure.seq_class(v, 0, 1) for v in (0.0, 0.5, 1.0)]]


def test_a_turn_arc_goes_counter_clockwise_and_keeps_what_is_left_of_whole_turns():
    quarter = figure.turn_arc(0, 0, 10, 0.0, math.pi / 2, label_gap=5)
    assert quarter["d"] == "M10.0,0.0 A10.0,10.0 0 0 0 0.0,-10.0"  # up the screen: y < 0
    label = (round(15 / math.sqrt(2), 2), round(-15 / math.sqrt(2) + 4, 2))
    assert (quarter["tx"], quarter["ty"]) == label
    assert figure.turn_arc(0, 0, 10, 0.0, 2 * math.pi + math.pi / 2, label_gap=5) == quarter
    big = figure.turn_arc(0, 0, 10, math.pi / 2, 3 * math.pi / 2)  # from the top, to the right
    assert big["d"] == "M0.0,-10.0 A10.0,10.0 0 1 0 10.0,0.0"
    assert figure.turn_arc(0, 0, 10, 1.0, 4 * math.pi)["d"] == ""


def test_bars_beside_rows_start_at_zero_and_are_clipped_to_their_axis():
    """[-1, 1] over 80 units from x = 100: 0 at 140; 0.5 reaches 160, -0.25 starts at 130;
    2 is clipped to 180. A [0, 2] axis with a reference at 1: the line at x = 40."""
    b = figure.bars([0.5, -0.25, 2.0], ["a", "b", "c"], form="beside", ys=[10, 30, 50], x=100,
                    width=80, height=12, bottom=-1, top=1, name="μ")
    assert [(x["x"], x["w"]) for x in b["bars"]] == [(140, 20), (130, 10), (140, 40)]
    assert [(x["y"], x["h"]) for x in b["bars"]] == [(10, 12), (30, 12), (50, 12)]
    assert b["zero"] == 140 and b["ref"] is None and b["bars"][1]["say"] == "b μ = -0.250"
    assert [(t["at"], t["label"]) for t in b["ticks"]] == [(100, "-1"), (140, "0"), (180, "1")]
    s = figure.bars([1.0, 0.5], [], form="beside", ys=[0, 20], x=0, width=80, height=12,
                    bottom=0, top=2, ref=1)
    assert s["ref"] == 40 and s["bars"][0]["w"] == 40 and s["bars"][1]["w"] == 20
    assert [t["label"] for t in s["ticks"]] == ["0", "1", "2"]


def test_attention_curves_in_slots_keep_the_used_curves_and_hide_the_rest():
    """Three tokens in five slots: the used ones are attention_curves()' (the heaviest
    weight gets the widest curve), the spare two are hidden and empty."""
    fig = figure.attention_curves(["a", "b", "c"], [0.5, 0.25, 0.25], 1, slots=5)
    assert len(fig["top"]) == len(fig["bottom"]) == len(fig["curves"]) == 5
    assert [c["hidden"] for c in fig["curves"]] == [False] * 3 + [True] * 2
    assert fig["curves"][0]["sw"] == 9.0 and fig["curves"][3]["sw"] == 0
    assert fig["top"][1]["x"] == 200 and fig["top"][1]["query"]  # 400 / 3 * 1.5
    assert fig["bottom"][4] == {"x": 0, "label": "", "hidden": True, "i": 4, "tokens": "4",
                                "y": fig["bottom"][0]["y"], "wy": 166}


def test_a_heatmap_in_slots_frames_the_selected_row_and_column_of_the_used_part():
    fig = figure.heatmap([[0.5, 0.5], [0.25, 0.75]], ["a", "b"], ["a", "b"], slots=4,
                         selected_row=1, selected_col=0, lo=0.0, hi=0.75)
    assert fig["vw"] == 44 + 2 * 32 and fig["vh"] == 22 + 2 * 32
    assert fig["row_band"] == {"x": 0, "y": 22 + 32, "w": 108, "h": 32}
    assert fig["col_band"] == {"x": 44, "y": 0, "w": 32, "h": 86}
    assert sum(not c["hidden"] for c in fig["cells"]) == 4 and len(fig["cells"]) == 16


def test_cell_paths_draw_every_cell_as_its_own_square():
    classes = [[0, 0, 2],
               [2, -1, 2]]
    paths = figure.cell_paths(classes, 10, gap=1, n=3, x0=5, y0=1)
    assert [p["c"] for p in paths] == [0, 1, 2]
    assert paths[0]["d"] == "M5 1h9v9h-9zM15 1h9v9h-9z"  # two squares, not one run
    assert paths[1]["d"] == ""
    assert paths[2]["d"] == "M25 1h9v9h-9zM5 11h9v9h-9zM25 11h9v9h-9z"
    assert figure.cell_paths([[1]], 2.5, n=2)[1]["d"] == "M0 0h2.5v2.5h-2.5z"
    # cells wider than tall: 7 x 18, the second row 18 lower
    assert figure.cell_paths([[0], [0]], 7, 18, n=1, x0=44, y0=4)[0]["d"] == \
        "M44 4h7v18h-7zM44 22h7v18h-7z"


def test_heatmap_paths_hold_each_cell_of_its_class_and_the_masked_apart():
    w = [[0.1, 0.9], [0.5, 0.5]]
    masked = [[False, True], [False, False]]
    out = figure.heatmap(w, ["a", "b"], ["x", "y"], cell=30, lo=0.0, hi=1.0, masked=masked,
                         label_w=40, label_h=20, paths=True)
    assert len(out["paths"]) == figure.SEQ
    # the class of 0.1 over [0, 1] is floor(0.9) = 0, of 0.5 floor(4.5) = 4; 0.9 is masked
    assert out["paths"][0]["d"] == "M40 20h30v30h-30z"
    assert out["paths"][4]["d"] == "M40 50h30v30h-30zM70 50h30v30h-30z"
    assert out["masked_d"] == "M70 20h30v30h-30z"
    assert all(p["d"] == "" for p in out["paths"] if p["c"] not in (0, 4))
    # a diverging map has its DIV classes
    div = figure.heatmap([[-1.0, 1.0]], ["a"], ["x", "y"], diverging=True, paths=True)
    assert [p["c"] for p in div["paths"]] == list(range(figure.DIV))


def test_class_paths_of_cells_taller_than_wide_and_the_grid_over_them():
    paths = figure.class_paths([[1, 1, 0], [0, 0, 0]], 7, cell_h=18, n=2, x0=44, y0=4)
    assert paths[1]["d"] == "M44 4h14v18h-14z"
    assert paths[0]["d"] == "M58 4h7v18h-7zM44 22h21v18h-21z"
    # 2 x 3 cells: 3 lines across (y 4, 22, 40), 4 down (x 44, 51, 58, 65)
    assert figure.grid_path(2, 3, 7, 18, x0=44, y0=4) == \
        "M44 4H65M44 22H65M44 40H65M44 4V40M51 4V40M58 4V40M65 4V40"


def test_one_mark_per_kind_with_options_and_no_variants():
    """The marks are options of heatmap, attention_curves and bars, not functions of their
    own: the old variants are gone, and an option a form does not have is an error."""
    gone = ("dense_heatmap", "heatmap_slots", "heat_raster", "heat_grid", "heatmap_sized",
            "heatmap_paths", "cross_curves", "attention_curve_columns", "attention_curves_slots",
            "hbars", "stack", "bars_slots", "row_bars", "heat_frames")
    assert [name for name in gone if hasattr(figure, name)] == []
    with pytest.raises(TypeError, match="left"):
        figure.heatmap([[1.0]], form="raster", left=3)
    with pytest.raises(TypeError, match="slots"):
        figure.heatmap([[1.0]], form="grid", slots=4)
    with pytest.raises(TypeError):
        figure.bars([1.0], ["a"], form="horizontal", height=3)


def test_the_templates_draw_each_mark_with_the_macro_of_its_name():
    """_marks.html has one macro per mark (bars, heatmap, attention_curves; options, not
    variants), and no template calls a variant's old macro."""
    import pathlib
    import re
    widgets = pathlib.Path(__file__).parent.parent / "templates" / "widgets"
    marks = re.findall(r"{% macro (\w+)\(", (widgets / "_marks.html").read_text())
    assert {"bars", "heatmap", "attention_curves"} <= set(marks)
    old = {"bar_chart", "bar_chart_slots", "column_bars", "hbar_chart", "stack_bar",
           "heat_paths", "live_heatmap", "heatmap_slots", "heatmap_sized",
           "heatmap_slots_framed", "column_heatmap", "raster", "curves", "curves_slots",
           "pair_curves", "sentence_curves"}
    assert old & set(marks) == set()
    root = widgets.parent.parent
    templates = [*widgets.glob("*.html"), *(root / "pycore" / "widgets").glob("*/template.html")]
    assert len(templates) > 40
    calls = {m for p in templates for m in re.findall(r"mk\.(\w+)\(", p.read_text())}
    assert {"bars", "heatmap", "attention_curves"} <= calls
    assert calls & old == set()
