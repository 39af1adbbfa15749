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
    rows = figure.heat_frames(h, rows=[1])
    assert rows == [{"x": 0, "y": 15, "w": 50, "h": 10}]
    both = figure.heat_frames(h, rows=[0], cells=[(1, 2), (0, 0)])
    assert both[1:] == [{"x": 40, "y": 15, "w": 10, "h": 10}, {"x": 20, "y": 5, "w": 10, "h": 10}]
    # each cell's frame is exactly where the heatmap drew that cell
    c = h["cells"][1 * 3 + 2]
    assert (c["x"], c["y"], c["w"], c["h"]) == (40, 15, 10, 10)


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


def test_a_dense_heatmap_colours_each_cell_as_the_scalar_rules_do():
    m = [[-2.0, -0.5, 0.0], [0.3, 1.0, 2.0]]
    h = figure.dense_heatmap(m, ["a", "b"], ["x", "y", "z"], cell_w=10, cell_h=5, label_w=20,
                             label_h=3, digits=2)
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
    s = figure.dense_heatmap([[0.0, 0.5, 1.0]], ["a"], ["x", "y", "z"], diverging=False,
                             lo=0.0, hi=1.0)
    assert list(s["cells"]["c"]) == [0, 4, 8] == [figure.seq_class(v, 0, 1) for v in (0, .5, 1)]
    assert "say" not in figure.dense_heatmap(m, ["a", "b"], ["x", "y", "z"], readout=False)["cells"]


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
    cols = figure.attention_curve_columns(tokens, row, 4, width=300, height=120,
                                          masked=[False, False, False, True, False])
    for name in ("d", "sw", "op", "text", "say", "masked"):
        assert [c[name] for c in whole["curves"]] == list(cols[name]), name
    # by hand: 5 slots of 60 units, the query 它 at x = 270; 小猫 (0.5, the largest) is
    # drawn 9 units wide and opaque, 马路 (0.2) 0.6 + 8.4 * 0.4 wide
    assert cols["d"][0] == "M270.0,24.0 C270.0,54.0 30.0,54.0 30.0,84.0"
    assert (cols["sw"][0], cols["op"][0], cols["sw"][3]) == (9.0, 1.0, 3.96)
