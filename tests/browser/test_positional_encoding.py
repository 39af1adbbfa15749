"""Browser tests of the positional-encoding widget (pycore/widgets/positional_encoding.py,
assets/widgets/positional-encoding.js)."""
import math
import re

from tests import reference
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

HREF = "06-positional-encoding.html"


def heat_cells(root, levels):
    """{(dimension, position): shade} read from the heatmap's paths: each path is one shade
    (class pos/neg, fill-opacity |h| / levels) and a list of unit rectangles M c r h1 v n h-1 z,
    n cells down column c from position r."""
    paths = root.evaluate("""root => [...root.querySelectorAll('[data-heat] path')].map(p =>
        [p.getAttribute('class'), Number(p.getAttribute('fill-opacity')), p.getAttribute('d')])""")
    cells = {}
    for cls, opacity, d in paths:
        h = round(opacity * levels) * (1 if cls == "pos" else -1)
        assert cls in ("pos", "neg") and abs(opacity - abs(h) / levels) < 1e-9
        assert re.fullmatch(r"(M\d+ \d+h1v\d+h-1z)*", d), d[:80]
        for c, r, n in re.findall(r"M(\d+) (\d+)h1v(\d+)h-1z", d):
            for y in range(int(r), int(r) + int(n)):
                assert (int(c), y) not in cells  # every cell in one path only
                cells[int(c), y] = h
    return cells


def assert_heatmap(root, view):
    """One unit square per (dimension, position) that is not blank, scaled to 320 x 200; its
    colour is the sign and its opacity the size of PE (worked out here, pair by pair) to the
    nearest 1/50."""
    d, levels = view["d_model"], view["heat_levels"]
    assert levels == 50
    cells = heat_cells(root, levels)
    transform = root.locator("[data-heat]").get_attribute("transform")
    sx, sy = map(float, transform.removeprefix("scale(").removesuffix(")").split())
    assert abs(sx - 320 / d) < 1e-9 and sy == 5
    assert len(view["heat"]) == 40 and len(view["heat"][0]) == d
    by_hand = [reference.pe(r, d) for r in range(40)]
    for r in range(40):
        for c in range(d):
            h = view["heat"][r][c]
            assert cells.get((c, r), 0) == h, (c, r)
            assert abs(h / levels - by_hand[r][c]) <= 0.5 / levels + 1e-12, (c, r, h, by_hand[r][c])
    assert all(c < d and r < 40 for c, r in cells)


def polyline(root, name):
    pts = root.locator(f'[data-curve="{name}"]').get_attribute("points").split()
    return [tuple(map(float, p.split(","))) for p in pts]


def assert_curves(root, view):
    for name, xs, ys, sx, sy in [("sin", view["curve_x"], view["curve_sin"], 8, -40),
                                 ("cos", view["curve_x"], view["curve_cos"], 8, -40),
                                 ("dots_0", view["ks"], view["dots_0"], 8, -80 / view["half_d"]),
                                 ("dots_p", view["ks"], view["dots_p"], 8, -80 / view["half_d"])]:
        pts = polyline(root, name)
        assert len(pts) == len(xs)
        assert all(abs(px - x * sx) <= 0.006 and abs(py - y * sy) <= 0.006
                   for (px, py), x, y in zip(pts, xs, ys)), name


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
    rows = root.locator('table[data-matrix="dots"] tbody tr')
    assert rows.nth(0).locator("td").all_inner_texts() == rows.nth(1).locator("td").all_inner_texts()
    d = int(root.locator('[data-bind="d_model"]').inner_text())
    assert float(rows.nth(0).locator("td").first.inner_text()) == d / 2  # k = 0: d/2


def test_positional_encoding_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + HREF)
    root = page.locator('[data-widget="positional-encoding"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("positional-encoding", **params_of(root))
    assert_shows(root, view, min_count=8 * 6 + 2 * 8 + 4 + 10)
    assert_heatmap(root, view)
    assert_curves(root, view)
    assert_identities(root)
    page.close()


def test_the_block_states_the_chapter_numbers(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    view = pycore_view("positional-encoding", **params_of(root))
    assert_shows(root, view)
    assert root.locator('[data-bind="d_model"]').inner_text() == "16"
    assert root.locator('table[data-matrix="dots"] tbody td').first.inner_text() == "8.000"  # d/2
    # the block of pair i as the chapter writes it: [[cos wk, sin wk], [-sin wk, cos wk]]
    w = 10000 ** (-2 * view["pair"] / view["d_model"])
    c, s = math.cos(w * view["k"]), math.sin(w * view["k"])
    cells = [float(t) for t in root.locator('table[data-matrix="rot_block"] td').all_inner_texts()]
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


# -- the view in parts: the page sends what it shows and gets only what changed --

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
        shown = {name: old[name] for name in ("d_model", "pair", "p", "k")}
        part = pycore_view("positional-encoding", **after, shown=shown)
        assert {**old, **part} == pycore_view("positional-encoding", **after), change
        assert ("heat" in part) == ("d_model" in change), change
        assert pycore_view("positional-encoding", **after, shown={
            name: part.get(name, old[name]) for name in shown}) == {}  # nothing left to send
    k_only = pycore_view("positional-encoding", d_model=16, pair=0, p=10, k=4,
                         shown={"d_model": 16, "pair": 0, "p": 10, "k": 3})
    assert set(k_only) == {"k", "rot_error", "rot_block"}


def test_sliders_touch_only_their_parts_of_the_page(book_pages):
    root = book_pages("positional-encoding").widget("positional-encoding")
    params = params_of(root)
    root.evaluate("""root => {
        const label = (m) => m.target.closest('[data-heat]') ? 'heat' : m.target.dataset.curve || m.target.tagName;
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
