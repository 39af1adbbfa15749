"""Browser tests of the positional-encoding widget (pycore/widgets/positional_encoding/:
view, widget.js)."""
import math
import re

from tests import reference
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)
from tests.page_state import asked, held_after

HREF = "06-positional-encoding.html"


def heat_cells(root):
    """{(dimension, position): colour class} read from the heatmap's paths: each path is one
    class of the diverging map (data-div) and a list of unit rectangles M c r h1 v n h-1 z,
    n cells down column c from position r."""
    paths = root.evaluate("""root => [...root.querySelectorAll('.raster-cells path')].map(p =>
        [Number(p.getAttribute('data-div')), p.getAttribute('d')])""")
    assert sorted(c for c, _ in paths) == list(range(9))  # one path per class, always
    cells = {}
    for c, d in paths:
        assert re.fullmatch(r"(M\d+ \d+h1v\d+h-1z)*", d), d[:80]
        for col, r, n in re.findall(r"M(\d+) (\d+)h1v(\d+)h-1z", d):
            for y in range(int(r), int(r) + int(n)):
                assert (int(col), y) not in cells  # every cell in one path only
                cells[int(col), y] = c
    return cells


def hand_class(x):
    """The diverging class of a value in [-1, 1] (9 classes, 4 = zero), worked out here."""
    return 4 + round(max(-1.0, min(1.0, x)) * 4)


def assert_heatmap(root, view):
    """One unit square per (dimension, position), scaled to 320 x 200 right of the row labels;
    its class is the diverging class of PE (worked out here, pair by pair), on [-1, 1]."""
    d = view["d_model"]
    cells = heat_cells(root)
    transform = root.locator(".raster-cells").get_attribute("transform")
    move, size = transform.split(" scale(")
    assert move == "translate(40 26)"
    sx, sy = map(float, size.removesuffix(")").split())
    assert abs(sx - 320 / d) < 1e-4 and sy == 5
    assert set(cells) == {(c, r) for c in range(d) for r in range(40)}
    by_hand = [reference.pe(r, d) for r in range(40)]
    for r in range(40):
        for c in range(d):
            x = by_hand[r][c]
            near_edge = abs((abs(x) * 4) % 1 - 0.5) < 1e-9  # a value on a class boundary
            assert near_edge or cells[c, r] == hand_class(x), (c, r, cells[c, r], x)
    legend = root.locator(".raster .legend text").all_text_contents()
    assert legend == ["-1.00", "1.00"]
    # the chosen pair's two columns are framed
    band = root.locator(".raster .band")
    assert float(band.get_attribute("x")) == round(40 + 2 * view["pair"] * 320 / d, 2)
    assert float(band.get_attribute("width")) == round(2 * 320 / d, 2)


def path_points(root, selector, k):
    d = root.locator(selector).nth(k).get_attribute("d")
    return [tuple(map(float, p.split(","))) for p in re.findall(r"[ML]([-\d.]+,[-\d.]+)", d)]


def to_plot(chart, x, y, x0, x1, y0, y1):
    plot = chart["plot"]
    return (plot["x"] + (x - x0) / (x1 - x0) * plot["w"],
            plot["y"] + plot["h"] - (y - y0) / (y1 - y0) * plot["h"])


def assert_curves(root, view):
    """The pair's sine and cosine, and the two dot-product curves, are drawn where the values
    worked out here fall in each chart's plot box."""
    d, i, p = view["d_model"], view["pair"], view["p"]
    w = [10000 ** (-2 * j / d) for j in range(d // 2)]
    hand = {"sin": lambda x: math.sin(w[i] * x), "cos": lambda x: math.cos(w[i] * x)}
    dots = [sum(math.cos(wj * k) for wj in w) for k in range(40)]
    for k, name in enumerate(["sin", "cos"]):
        pts = path_points(root, ".pe-curves .series", k)
        assert len(pts) == len(view["curve_x"])
        for (px, py), x in zip(pts, view["curve_x"]):
            ex, ey = to_plot(view["curves"], x, hand[name](x), 0, 39, -1, 1)
            assert abs(px - ex) <= 0.006 and abs(py - ey) <= 0.006, (name, x)
    y0 = min(0.0, min(dots))
    for k, start in enumerate([0, p]):
        pts = path_points(root, ".pe-dots .series", k)
        assert len(pts) == 40
        for (px, py), kk in zip(pts, range(40)):
            ex, ey = to_plot(view["dots_chart"], kk, dots[kk], 0, 39, y0, d / 2)
            assert abs(px - ex) <= 0.006 and abs(py - ey) <= 0.01, (start, kk)


def assert_tiny(root, view):
    """The e-notation check numbers: as tiny as pycore's (their last digits follow the platform's
    sin/cos, so CPython and Pyodide may differ by a few units of 1e-16 there)."""
    for path in ("dot_diff", "rot_error"):
        shown = float(root.locator(f'[data-sci="{path}"]').inner_text())
        assert shown <= 1e-12 and view[path] <= 1e-12, (path, shown, view[path])


def assert_identities(root):
    """The page's own check numbers: dot products independent of p, rotation exact."""
    dot_diff = float(root.locator('[data-sci="dot_diff"]').inner_text())
    rot_err = float(root.locator('[data-sci="rot_error"]').inner_text())
    assert 0 <= dot_diff <= 1e-9 and 0 <= rot_err <= 1e-9
    rows = root.locator('table[data-matrix="dots"] tbody tr')  # in the 数值 fold
    first, second = (rows.nth(k).locator("td").all_text_contents() for k in (0, 1))
    assert first == second
    d = int(root.locator('[data-bind="d_model"]').inner_text())
    assert float(rows.nth(0).locator("td").first.text_content()) == d / 2  # k = 0: d/2


def test_positional_encoding_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + HREF)
    root = page.locator('[data-widget="positional-encoding"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("positional-encoding", **params_of(root))
    assert_shows(root, view, min_count=8 * 6 + 2 * 8 + 4 + 10)
    assert_drawn(root, view, min_count=9 + 40 * 2 + 2 * 40 * 6)
    assert_heatmap(root, view)
    assert_curves(root, view)
    assert_identities(root)
    # the offset is chapter 06's δ (k is top-k's count), a position t (p is a probability)
    assert "偏移 δ" in root.locator(".ctl-range .ctl-name").all_inner_texts()
    assert "点积 PE(t)·PE(t+δ) 只看距离 δ" in root.inner_text()
    assert "第二条曲线的起点 t" in root.locator(".ctl-range .ctl-name").all_inner_texts()
    page.close()


def test_the_block_states_the_chapter_numbers(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    view = pycore_view("positional-encoding", **params_of(root))
    assert_shows(root, view)
    assert root.locator('[data-bind="d_model"]').inner_text() == "16"
    assert root.locator('table[data-matrix="dots"] tbody td').first.text_content() == "8.000"  # d/2
    # the block of pair i as the chapter writes it: [[cos wk, sin wk], [-sin wk, cos wk]]
    w = 10000 ** (-2 * view["pair"] / view["d_model"])
    c, s = math.cos(w * view["k"]), math.sin(w * view["k"])
    block = root.locator('table[data-matrix="rot_block"] td')
    cells = [float(t) for t in block.all_text_contents()]
    assert all(abs(a - b) <= 5e-5 for a, b in zip(cells, [c, s, -s, c]))


def test_d_model_slider_rebuilds_the_heatmap(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    slider = root.locator("[data-control=d_model]")
    before = updates(root)
    slider.fill("64")
    assert updates(root) > before
    view = pycore_view("positional-encoding", **{**params, "d_model": 64})
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heatmap(root, view)
    assert_curves(root, view)
    assert_identities(root)
    assert root.locator("[data-control=pair]").get_attribute("max") == "31"
    slider.focus()
    root.page.keyboard.press("ArrowLeft")  # one step of 4
    view = pycore_view("positional-encoding", **{**params, "d_model": 60})
    assert_shows(root, view)
    assert_heatmap(root, view)


def test_pair_slider_by_keyboard_slows_the_hand(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    root.locator("[data-control=pair]").focus()
    turns = [float(root.locator('[data-bind="turns"]').first.inner_text())]
    for pair in range(1, 8):
        root.page.keyboard.press("ArrowRight")
        view = pycore_view("positional-encoding", **{**params, "pair": pair})
        assert_shows(root, view)
        assert_drawn(root, view)
        assert_curves(root, view)
        turns.append(float(root.locator('[data-bind="turns"]').inner_text()))
    assert turns == sorted(turns, reverse=True) and turns[0] > 6 > 0.01 > turns[-1]  # second hand .. hour hand
    root.page.keyboard.press("ArrowRight")  # already at d/2 - 1 = 7
    assert root.locator('[data-bind="pair"]').first.inner_text() == "7"


def test_shrinking_d_model_clamps_the_pair(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    root.locator("[data-control=pair]").fill("7")
    root.locator("[data-control=d_model]").fill("8")
    view = pycore_view("positional-encoding", **{**params, "d_model": 8, "pair": 3})
    assert view["pair"] == 3
    assert_shows(root, view)
    assert_heatmap(root, view)


def test_start_position_and_offset_sliders(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    for changes in [{"p": 200}, {"p": 200, "k": 64}, {"p": 137, "k": 1, "d_model": 128}]:
        for name, value in changes.items():
            root.locator(f"[data-control={name}]").fill(str(value))
        view = pycore_view("positional-encoding", **{**params, **changes})
        assert_shows(root, view)
        assert_curves(root, view)
        assert_identities(root)
        assert view["dot_diff"] <= 1e-9 and view["rot_error"] <= 1e-9
    root.locator("[data-control=k]").focus()
    root.page.keyboard.press("ArrowRight")
    assert_shows(root, pycore_view("positional-encoding", **{**params, "p": 137, "k": 2, "d_model": 128}))


def test_reset_restores_the_block(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    root.locator("[data-control=d_model]").fill("100")
    root.locator("[data-control=k]").fill("20")
    root.locator("[data-action=reset]").click()
    view = pycore_view("positional-encoding", **params)
    assert_shows(root, view)
    assert_heatmap(root, view)
    assert root.locator("[data-control=d_model]").input_value() == str(params["d_model"])
    assert root.locator("[data-control=pair]").get_attribute("max") == str(params["d_model"] // 2 - 1)


# -- the view in parts: the page holds the parts' keys and gets only what changed --

def test_parts_bring_the_page_to_the_whole_view():
    """For any move from one set of parameters to another, the whole view of the old ones
    updated with the parts the page receives is the whole view of the new ones, and a slider
    that leaves d_model alone brings no heatmap back."""
    moves = [({"d_model": 16, "pair": 0, "p": 10, "k": 3}, {"k": 4}),
             ({"d_model": 16, "pair": 0, "p": 10, "k": 3}, {"p": 200}),
             ({"d_model": 16, "pair": 0, "p": 10, "k": 3}, {"pair": 7}),
             ({"d_model": 16, "pair": 7, "p": 10, "k": 3}, {"d_model": 8, "pair": 3}),
             ({"d_model": 8, "pair": 3, "p": 1, "k": 64}, {"d_model": 128, "p": 500}),
             ({"d_model": 128, "pair": 63, "p": 2, "k": 1}, {"d_model": 4, "pair": 63})]
    for before, change in moves:
        after = {**before, **change}
        old = pycore_view("positional-encoding", **before)
        held = held_after("positional-encoding", before)
        part, sent = asked("positional-encoding", after, held)
        assert {**old, **part} == pycore_view("positional-encoding", **after), change
        assert ("heat" in part) == ("d_model" in change), change
        assert asked("positional-encoding", after, {**held, **sent}) == ({}, {})  # all held
    k_only, sent = asked("positional-encoding", {"d_model": 16, "pair": 0, "p": 10, "k": 4},
                         held_after("positional-encoding",
                                    {"d_model": 16, "pair": 0, "p": 10, "k": 3}))
    assert set(k_only) == {"k", "rot_error", "rot_block"} and set(sent) == {"offset", "block"}


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    assert parts_came(root, lambda: root.locator("[data-control=k]").fill("5")) == \
        [["block", "offset"]]
    assert parts_came(root, lambda: root.locator("[data-control=p]").fill("20")) == [["start"]]
    root.locator("[data-action=reset]").click()


def test_sliders_touch_only_their_parts_of_the_page(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    root.evaluate("""root => {
        const label = (m) => m.target.closest('.raster-cells') ? 'heat'
            : m.target.closest('.pe-curves .series') ? 'sin'
            : m.target.closest('.pe-dots .series') ? 'dots_p' : m.target.tagName;
        root._changes = [];
        root._watch = new MutationObserver((records) => root._changes.push(...records.map(label)));
        root._watch.observe(root, { attributes: true, childList: true, subtree: true, characterData: true });
        root._changed = () => {
            const got = [...root._changes, ...root._watch.takeRecords().map(label)];
            root._changes = [];
            return got;
        };
    }""")

    def changed():
        return set(root.evaluate("root => root._changed()"))

    root.locator("[data-control=k]").fill("9")
    assert "heat" not in changed()
    assert_shows(root, pycore_view("positional-encoding", **{**params, "k": 9}))
    root.locator("[data-control=p]").fill("77")
    got = changed()
    assert "heat" not in got and "sin" not in got
    root.locator("[data-control=pair]").fill("5")
    got = changed()
    assert "heat" not in got and "dots_p" not in got and "sin" in got
    view = pycore_view("positional-encoding", **{**params, "k": 9, "p": 77, "pair": 5})
    assert_shows(root, view)
    assert_curves(root, view)
    pair = 5
    for d in (128, 4, 40, 16):  # the heatmap grows, shrinks, grows again from kept cells
        root.locator("[data-control=d_model]").fill(str(d))
        assert "heat" in changed()
        pair = min(pair, d // 2 - 1)  # the slider keeps the clamped pair
        view = pycore_view("positional-encoding", **{**params, "k": 9, "p": 77, "d_model": d, "pair": pair})
        assert_shows(root, view)
        assert_heatmap(root, view)
        assert_curves(root, view)
    root.evaluate("root => root._watch.disconnect()")


def test_pointing_reads_the_heatmap_rows_and_the_curves(book_pages):
    """A heatmap row says the chosen pair's values at that position; the dot-product chart's
    crosshair says the dot product at k (the chapter's 5.5431 at k = 3), and k = 0 is its top."""
    root = book_pages("positional-encoding").widget("positional-encoding")
    view = pycore_view("positional-encoding", **params_of(root))
    root.locator(".raster .strip").nth(3).hover()
    assert root.locator(".raster [data-readout]").inner_text() == \
        f"位置 3：维 0 = {math.sin(3):.3f}，维 1 = {math.cos(3):.3f}"
    probes = root.locator(".pe-dots .probe")
    probes.first.focus()
    for _ in range(3):
        root.page.keyboard.press("ArrowRight")
    assert root.locator(".pe-dots [data-readout]").inner_text() == "δ = 3：点积 5.5431（与起点无关）"
    top = float(probes.first.locator(".dot").get_attribute("cy"))
    assert top == view["dots_chart"]["plot"]["y"]  # d/2 at k = 0, the largest dot product
    assert all(float(c) > top for c in probes.locator(".dot").evaluate_all(
        "els => els.slice(1).map(e => e.getAttribute('cy'))"))


def test_curves_are_sampled_as_finely_as_their_frequency_needs():
    """At least 24 samples per period, in steps of 1/4, 1/2 or 1 position; the crosshair's
    probes sit on every third whole position whatever the step."""
    steps = {}
    for pair in (0, 1, 7):
        v = pycore_view("positional-encoding", d_model=16, pair=pair)
        xs = v["curve_x"]
        steps[pair] = xs[1] - xs[0]
        assert xs[-1] == 39 and len(xs) == 39 / steps[pair] + 1
        assert 2 * math.pi / v["omega"] / steps[pair] >= 24
        assert [p["say"].split("：")[0] for p in v["curves"]["probes"]] == \
            [f"位置 {x}" for x in range(0, 40, 3)]
    assert steps == {0: 0.25, 1: 0.5, 7: 1.0}  # omega 1, 10^-0.5, 10^-3.5
