"""Browser tests of the positional-encoding widget (pycore/widgets/positional_encoding.py,
assets/widgets/positional-encoding.js)."""
import math

from tests.browser.harness import assert_shows, params_of, pycore_view, updates

HREF = "06-positional-encoding.html"


def heat_cells(root):
    """(count, [(class, fill-opacity)]) of the heatmap's rects, row-major."""
    return root.evaluate("""root => [...root.querySelectorAll('[data-heat] rect')]
        .map(r => [r.getAttribute('class'), Number(r.getAttribute('fill-opacity'))])""")


def assert_heatmap(root, view):
    cells = heat_cells(root)
    pe = view["pe"]
    assert len(cells) == len(pe) * view["d_model"]
    for n, (cls, opacity) in enumerate(cells):
        x = pe[n // view["d_model"]][n % view["d_model"]]
        assert cls == ("pos" if x >= 0 else "neg") and abs(opacity - abs(x)) <= 0.0005, (n, cls, opacity, x)


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
