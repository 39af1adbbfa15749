"""Browser tests of the alibi-rope widget (pycore/widgets/alibi_rope/:
view, widget.js)."""
import math

from pycore import alibi_rope as R
from tests.browser.harness import (assert_drawn, assert_heat, assert_shows, params_of, parts_came,
                                   pycore_view, updates)

HEATS = {"penalty": ".alibi-heats .panel:nth-child(1) svg.heat",
         "weights": ".alibi-heats .panel:nth-child(2) svg.heat"}


def assert_heats(root, view):
    """Both heatmaps' colours and masked cells are pycore's; [(tokens, class)] of each."""
    return [assert_heat(root, view[k], svg=svg) for k, svg in HEATS.items()]

TOKENS = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]


def slider(root, name):
    return root.locator(f"[data-control={name}]")


def column(root, name):
    return [float(t) for t in root.locator(f'[data-bind^="{name}."]').all_text_contents()]


def bar_heights(root, k):
    return root.locator(".alibi-rows .panel").nth(k).locator(".mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('height')))")


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "06-positional-encoding.html")
    root = page.locator('[data-widget="alibi-rope"]').first
    view = pycore_view("alibi-rope", **params_of(root))
    assert_shows(root, view, min_count=9 * 9)
    assert_drawn(root, view, min_count=2 * 72)
    assert_heats(root, view)
    # chapter 6: the row of 它 without positions, with head 3, with RoPE
    assert [column(root, "w_before")[j] for j in (0, 3, 1)] == [0.2101, 0.1397, 0.0929]
    assert round(column(root, "w_alibi")[0], 3) == 0.153
    assert round(column(root, "w_alibi")[3], 3) == 0.148
    assert [round(column(root, "w_rope")[j], 3) for j in (0, 3, 1)] == [0.143, 0.066, 0.113]
    page.close()


def test_heads_move_the_penalty_and_the_row(book_pages):
    root = book_pages("alibi-rope").widget("alibi-rope")
    before = updates(root)
    slider(root, "head").fill("1")
    assert updates(root) > before
    view = pycore_view("alibi-rope", head=1)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heats(root, view)
    # the penalty is -m |i - j| with m = 1/2, the query 它 at position 5
    assert column(root, "bias") == [-0.5 * abs(5 - j) for j in range(9)]
    assert root.locator('[data-bind="best.alibi.token"]').inner_text() == "它"
    assert root.locator('[data-bind="best.alibi.w"]').inner_text() == "0.256"
    heights = bar_heights(root, 1)
    assert heights.index(max(heights)) == 5  # the picture: 它's own bar is the tallest
    band = root.locator(".alibi-heats .heatmap").first.locator(".band").first
    heat = view["penalty"]
    assert float(band.get_attribute("y")) == heat["label_h"]  # the framed row is head 1
    slider(root, "head").focus()
    root.page.keyboard.press("End")  # head 8
    view = pycore_view("alibi-rope", head=8)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heats(root, view)
    assert float(band.get_attribute("y")) == heat["label_h"] + 7 * heat["cell"]
    assert root.locator('[data-bind="best.alibi.w"]').inner_text() == "0.208"
    assert root.locator('[data-bind="slope_text"]').inner_text() == "1/256"
    assert root.locator('[data-bind="half_weight"]').inner_text() == "177.4"  # ln 2 * 256


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """theta brings RoPE's row and the bars, the head its frame and the bars; the heatmaps'
    cells (the query's and the mask's part) come again only with those."""
    root = book_pages("alibi-rope").widget("alibi-rope")
    assert parts_came(root, lambda: slider(root, "theta").fill("0.5")) == [["charts", "rope"]]
    assert parts_came(root, lambda: slider(root, "head").fill("5")) == [["charts", "frame"]]
    assert parts_came(root, lambda: root.locator(
        """[data-control=query] [data-value='"累"']""").click()) == \
        [["charts", "frame", "heads", "rope"]]
    assert_shows(root, pycore_view("alibi-rope", theta=0.5, head=5, query="累"))
    root.locator("[data-action=reset]").click()


def test_rope_frequency_and_bar_heights(book_pages):
    root = book_pages("alibi-rope").widget("alibi-rope")
    slider(root, "theta").fill("0.1")
    view = pycore_view("alibi-rope", theta=0.1)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heats(root, view)
    w = column(root, "w_rope")
    assert round(w[0], 3) == 0.196  # chapter 6
    # the bars are the weights on one axis: height / plot height = weight / top
    chart = view["charts"][2]
    plot_h = chart["baseline"] - 16  # figure.bars' value space above the plot
    top = chart["top"]
    for h, x in zip(bar_heights(root, 2), w):
        assert abs(h - x / top * plot_h) < 0.05
    # RoPE's score, by hand: pair 0 of q (1, 1) against pair 0 of the key turned by theta*(j-i)
    scores = column(root, "scores_rope")
    assert abs(scores[0] - 2 * math.cos(0.1 * 5) / math.sqrt(6)) < 5e-4
    slider(root, "theta").focus()
    root.page.keyboard.press("ArrowRight")  # 0.15
    assert root.locator('[data-bind="theta"]').inner_text() == "0.15"
    assert_shows(root, pycore_view("alibi-rope", theta=0.15))


def test_query_and_causal_mask(book_pages):
    root = book_pages("alibi-rope").widget("alibi-rope")
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    view = pycore_view("alibi-rope", query="累")
    assert_shows(root, view)
    assert column(root, "distances") == [abs(7 - j) for j in range(9)]
    root.page.keyboard.press("ArrowLeft")  # 太
    assert_shows(root, pycore_view("alibi-rope", query="太"))
    root.locator("""[data-control=query] [data-value='"它"']""").click()
    switch = root.locator("[data-control=causal]")
    switch.click()
    assert switch.get_attribute("aria-checked") == "true"
    view = pycore_view("alibi-rope", causal=True)
    assert_shows(root, view)
    assert_drawn(root, view)
    # the three keys after 它 are masked in both heatmaps and get no weight
    heats = assert_heats(root, view)
    assert sum(cls == "masked" for heat in heats for _, cls in heat) == 2 * 8 * 3
    assert column(root, "w_alibi")[6:] == [0.0] * 3
    assert [round(column(root, "w_alibi")[j], 3) for j in (0, 3)] == [0.218, 0.211]  # chapter 6
    for k in range(3):
        assert bar_heights(root, k)[6:] == [0, 0, 0]
    row = R.alibi_row(head=3, causal=True)["weights_after"]  # computed here, in CPython
    assert all(abs(a - b) < 5e-5 for a, b in zip(column(root, "w_alibi"), row))
    # the same query and mask: the page keeps its heatmaps (pycore sends only their frame)
    slider(root, "head").fill("5")
    view = pycore_view("alibi-rope", causal=True, head=5)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert sum(cls == "masked" for heat in assert_heats(root, view) for _, cls in heat) == 2 * 8 * 3


def test_reset_restores_the_block(book_pages):
    root = book_pages("alibi-rope").widget("alibi-rope")
    params = params_of(root)
    slider(root, "head").fill("6")
    root.locator("[data-control=causal]").click()
    root.locator("[data-action=reset]").click()
    view = pycore_view("alibi-rope", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heats(root, view)
    assert slider(root, "head").input_value() == "3"
