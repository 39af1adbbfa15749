"""Tests of the swin-windows widget (pycore/widgets/swin_windows/: view, widget.js):
the counts by hand, the drawn windows against pycore.swin's ids, and the widget moved in Chromium."""

import numpy as np

from pycore import swin
from pycore.widgets import compute, swin_windows
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

NAME = "swin-windows"


def whole(**params):
    return compute(NAME, params)


def defaults(**changes):
    params = {k: spec["default"] for k, spec in swin_windows.PARAMS.items()}
    params.update(changes)
    return params


def painted(pieces, h, w):
    """Fill an (h, w) grid from [r0, c0, rows, cols, id, colour] rectangles; -1 = unpainted."""
    grid = np.full((h, w), -1)
    for r0, c0, rows, cols, k, _ in pieces:
        assert np.all(grid[r0:r0 + rows, c0:c0 + cols] == -1), "pieces overlap"
        grid[r0:r0 + rows, c0:c0 + cols] = k
    return grid


# -- the view by hand --

def test_counts_of_swin_t_first_stage_by_hand():
    v = whole(**defaults())
    assert (v["grid_h"], v["grid_w"], v["n_patches"]) == (56, 56, 3136)  # 224 / 4
    assert (v["M_used"], v["shift"]) == (7, 3)
    assert v["n_windows"] == 64 and v["window_tokens"] == 49 and v["window_scores"] == 2401
    assert v["global"] == 9_834_496 and v["windowed"] == 153_664  # 3136^2, 64 * 49^2
    assert v["ratio"] == 64 == v["n_over_m2"]
    assert v["n_shifted_groups"] == 81 and v["n_cyclic_windows"] == 64  # 9 x 9 pieces, 8 x 8 windows
    # shifted layer: along each axis the pieces are 3, then seven of 7, then 4 patches long
    # (3 + 49 + 4 = 56); a piece a x b allows (a b)^2 pairs, so the total is (sum of a^2)^2
    axis = [3] + [7] * 7 + [4]
    assert v["shifted_pairs"] == sum(a * a for a in axis) ** 2
    # the chapter: with M = 14 the ratio is 3136 / 196 = 16
    assert whole(**defaults(M=14))["ratio"] == 16


def test_small_grid_and_padding_notes():
    v = whole(**defaults(P=32, M=12))  # 7 x 7 grid: one window, no shift
    assert (v["M_used"], v["shift"], v["n_windows"], v["ratio"]) == (7, 0, 1, 1)
    assert "7×7" in v["note"] and v["shrunk"]
    v = whole(**defaults(P=16, M=8))  # 14 x 14 padded to 16 x 16
    assert (v["padded_h"], v["padded_w"], v["n_windows"]) == (16, 16, 4)
    assert v["windowed"] == 4 * 64 ** 2 and "16×16" in v["note"]
    assert whole(**defaults())["note"] == ""


def cuts_of(d, h, w):
    """The row and column cuts (0 and the ends included) of a path of cut lines, each
    'M0 yHw' (a row cut) or 'Mx 0Vh' (a column cut)."""
    rows, cols = {0, h}, {0, w}
    for line in d.split("M")[1:]:
        x, rest = line.split(" ", 1)
        if "H" in rest:
            rows.add(int(rest.split("H")[0]))
        else:
            cols.add(int(x))
    return sorted(rows), sorted(cols)


def odd_bands(d, n):
    """(n,) flags: the positions a stripes path covers, its rectangles 'M0 aHwv(b-a)H0z' (rows
    a..b) or 'Ma 0Vhh(b-a)V0z' (columns a..b)."""
    flags = np.zeros(n, dtype=bool)
    for rect in d.split("M")[1:]:
        a, rest = rect.split(" ", 1)
        if "H" in rest:
            start, length = int(rest.split("H")[0]), int(rest.split("v")[1].split("H")[0])
        else:
            start, length = int(a), int(rest.split("h")[1].split("V")[0])
        flags[start:start + length] = True
    return flags


def tones(fig):
    """The colour tone (0..3) of every patch: base, plus odd row stripe, plus odd column."""
    rows, cols = odd_bands(fig["rows"], fig["h"]), odd_bands(fig["cols"], fig["w"])
    return 2 * rows[:, None].astype(int) + cols[None, :].astype(int)


def ids_from_picture(fig, h, w):
    """The window id of every patch as the picture shows it: the pieces are the bands between
    the cut lines; a piece's id is the number written at its centre, or where none is written
    (too many pieces, or too small) its place in reading order, which is how the regular and
    the shifted layers number them. Also: whether every piece has its id written."""
    rows, cols = cuts_of(fig["cuts"], h, w)
    place = np.zeros((h, w), dtype=int)
    for i, (r0, r1) in enumerate(zip(rows, rows[1:])):
        for j, (c0, c1) in enumerate(zip(cols, cols[1:])):
            place[r0:r1, c0:c1] = i * (len(cols) - 1) + j
    written = {place[int(t["y"]), int(t["x"])]: int(t["text"]) for t in fig["labels"] if t["text"]}
    every = len(written) == (len(rows) - 1) * (len(cols) - 1)
    return np.vectorize(lambda k: written.get(k, k))(place), every


def test_pieces_paint_the_id_grids():
    """The picture's cuts and ids rebuild pycore.swin's window ids; neighbouring windows
    differ in tone; on the cyclic layer patches of one window (the four corners too) share a
    tone."""
    for params in (defaults(), defaults(P=16, M=8), defaults(image_size=384, M=12), defaults(M=5)):
        h = params["image_size"] // params["P"]
        for layer in swin_windows.LAYERS:
            v = whole(**{**params, "layer": layer})
            fig = v["fig"]
            ids = swin.two_layers(h, h, params["M"])[layer]
            assert cuts_of(fig["cuts"], h, h) == (fig["row_cuts"], fig["col_cuts"])
            drawn, every = ids_from_picture(fig, h, h)
            if layer != "cyclic" or every:  # M = 5: 13 x 13 pieces, too many for their ids
                assert np.array_equal(drawn, ids), (params, layer)
            colours = tones(fig)
            diff = ids[:, 1:] != ids[:, :-1]
            assert np.all(colours[:, 1:][diff] != colours[:, :-1][diff])
            diff = ids[1:, :] != ids[:-1, :]
            assert np.all(colours[1:, :][diff] != colours[:-1, :][diff])
            if layer == "cyclic":
                for k in np.unique(ids):
                    assert len(np.unique(colours[ids == k])) == 1
    assert ids_from_picture(whole(**defaults(layer="cyclic"))["fig"], 56, 56)[1]


def test_the_grid_lines_are_drawn_once_per_size():
    """(the latency itself is benchmarks/interaction.py's to measure, not a test's)"""
    whole(**defaults())
    before = swin_windows.grid_lines.cache_info().misses
    for layer in ("regular", "shifted", "cyclic"):
        whole(**defaults(layer=layer))
    assert swin_windows.grid_lines.cache_info().misses == before


# -- the widget in Chromium --

def layer(root, name):
    return root.locator(f"""[data-control=layer] [data-value='"{name}"']""")


def choose(root, control, value):
    root.locator(f"[data-control={control}] [data-value='{value}']").click()


def drawn_ids(root, h, w):
    """The window id of every patch, read from the page's picture (ids_from_picture)."""
    fig = root.evaluate("""root => ({
        cuts: root.querySelector('.sw-grid .sw-cuts').getAttribute('d'),
        labels: [...root.querySelectorAll('.sw-ids text')].map(t => ({
            x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')),
            text: t.textContent })) })""")
    return ids_from_picture(fig, h, w)[0]


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "11-vit.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert_shows(root, pycore_view(NAME, **params), min_count=15)
    assert np.array_equal(drawn_ids(root, 56, 56), swin.window_ids(56, 56, 7))
    # the window's side is chapter 11's w, the patches n (pycore/notation.py)
    assert "窗口边长 w" in root.locator(".ctl-range .ctl-name").all_inner_texts()
    assert "（n / w² = " in root.locator(".key-figure").inner_text()
    page.close()


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """Another layer leaves the windows and their counts; another window size brings both."""
    root = book_pages(NAME).widget(NAME)
    assert parts_came(root, layer(root, "shifted").click) == [["drawn_layer"]]
    assert parts_came(root, lambda: root.locator("[data-control=M]").fill("8")) == \
        [["drawn_layer", "windows"]]
    root.locator("[data-action=reset]").click()


def test_layers_draw_different_window_ids(book_pages):
    root = book_pages(NAME).widget(NAME)
    regular = drawn_ids(root, 56, 56)
    assert np.array_equal(regular, swin.window_ids(56, 56, 7))
    before = updates(root)
    layer(root, "shifted").click()
    assert updates(root) == before + 1
    assert_shows(root, pycore_view(NAME, layer="shifted"))
    shifted = drawn_ids(root, 56, 56)
    assert np.array_equal(shifted, swin.window_ids(56, 56, 7, shift=3))
    rows, cols = cuts_of(root.locator(".sw-borders").get_attribute("d"), 56, 56)
    assert (len(rows) - 1) * (len(cols) - 1) == 64  # the previous layer's windows, dashed
    layer(root, "cyclic").click()
    cyclic = drawn_ids(root, 56, 56)
    assert np.array_equal(cyclic, swin.cyclic_window_ids(56, 56, 7, 3))
    assert len(np.unique(cyclic)) == 64 and len(np.unique(shifted)) == 81
    # the layers group the patches differently: some pairs share a window in one layer only
    same = [(g.ravel()[:, None] == g.ravel()[None, :]) for g in (regular, shifted)]
    assert np.any(same[0] & ~same[1]) and np.any(same[1] & ~same[0])
    # the roll puts the four corners into one window
    assert cyclic[0, 0] == cyclic[0, -1] == cyclic[-1, 0] == cyclic[-1, -1]


def test_window_slider_changes_the_counts(book_pages):
    root = book_pages(NAME).widget(NAME)
    slider = root.locator("[data-control=M]")
    before = updates(root)
    slider.fill("14")
    assert updates(root) > before
    view = pycore_view(NAME, M=14)
    assert_shows(root, view)
    assert root.locator('[data-bind="ratio"]').inner_text() == "16.00"  # 3136 / 196, chapter 11
    slider.focus()
    root.page.keyboard.press("ArrowLeft")  # M = 13: 56 is padded to 65, 5 x 5 windows
    view = pycore_view(NAME, M=13)
    assert_shows(root, view)
    assert view["n_windows"] == 25
    assert root.locator(".sw-grid .sw-pad:not([data-hidden])").count() == 2
    assert np.array_equal(drawn_ids(root, 56, 56), swin.window_ids(56, 56, 13))


def test_patch_and_image_size_buttons(book_pages):
    root = book_pages(NAME).widget(NAME)
    choose(root, "P", 16)  # 14 x 14 grid, M = 7: 4 windows
    view = pycore_view(NAME, P=16)
    assert_shows(root, view)
    assert (view["n_windows"], view["global"], view["windowed"]) == (4, 196 ** 2, 4 * 49 ** 2)
    choose(root, "P", 32)  # 7 x 7 grid: one window covers it, no shift
    view = pycore_view(NAME, P=32)
    assert_shows(root, view)
    assert root.locator('[data-bind="ratio"]').inner_text() == "1.00"
    layer(root, "shifted").click()
    assert_shows(root, pycore_view(NAME, P=32, layer="shifted"))
    assert np.array_equal(drawn_ids(root, 7, 7), np.zeros((7, 7)))
    choose(root, "image_size", 384)  # 384 / 32 = 12
    choose(root, "P", 4)  # 384 / 4 = 96 patches a side
    view = pycore_view(NAME, image_size=384, P=4, layer="shifted")
    assert_shows(root, view)
    assert view["n_patches"] == 9216
    assert np.array_equal(drawn_ids(root, 96, 96), swin.window_ids(96, 96, 7, shift=3))


def test_reset_restores_the_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    params = params_of(root)
    choose(root, "image_size", 256)
    root.locator("[data-control=M]").fill("9")
    layer(root, "cyclic").click()
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view(NAME, **params))
    assert layer(root, "regular").get_attribute("aria-checked") == "true"
    assert root.locator("[data-control=M]").input_value() == str(params["M"])
    assert np.array_equal(drawn_ids(root, 56, 56), swin.window_ids(56, 56, 7))


def test_the_picture_is_pycores(book_pages):
    """Every bound attribute is the view's after two moves; the windowed bar is the global
    bar over the ratio (one linear axis); the rolled grid shows only on the cyclic layer,
    with the mask cutting its last row and column of windows at 56 - 3 = 53."""
    root = book_pages(NAME).widget(NAME)
    view = pycore_view(NAME)
    assert_drawn(root, view, min_count=100 * 2 + 10)
    heights = root.locator(".bar-chart .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('height')))")
    assert heights == [b["h"] for b in view["bars"]["bars"]]
    assert abs(heights[1] - heights[0] / 64) < 0.02  # 153,664 is 1/64 of 9,834,496
    assert root.locator(".sw-roll").is_hidden()
    layer(root, "cyclic").click()
    view = pycore_view(NAME, layer="cyclic")
    assert_drawn(root, view)
    assert root.locator(".sw-roll").is_visible()
    mask = root.locator(".sw-mask").get_attribute("d")
    assert cuts_of(mask, 56, 56) == ([0, 53, 56], [0, 53, 56])
    root.locator("[data-control=M]").fill("14")
    view = pycore_view(NAME, layer="cyclic", M=14)
    assert_drawn(root, view)
    heights = root.locator(".bar-chart .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('height')))")
    assert abs(heights[1] - heights[0] / 16) < 0.02  # chapter 11: M = 14 gives 1/16
    assert root.locator(".key-figure .big").inner_text() == "16.00"
