"""Tests of the vit-patches widget (pycore/widgets/vit_patches/: view, widget.js):
the committed photo files, the view against a second route, and the widget moved in Chromium."""
import io
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from bookbuild.renderers import output
from bookbuild.tools import photo
from pycore.widgets import compute, vit_patches
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)
from tests.page_state import asked, held_after

ROOT = Path(__file__).resolve().parents[2]
NAME = "vit-patches"


# -- the photo: the PNG the page shows and the bytes pycore reads are the same prepared pixels --

def test_committed_photo_copies_equal_prepare_photo():
    Image = pytest.importorskip("PIL.Image")
    expected = photo.prepare_photo(224)  # (224, 224, 3) uint8
    with Image.open(ROOT / "assets" / "images" / "photo-224.png") as im:
        assert np.array_equal(np.asarray(im.convert("RGB")), expected)
    raw = (ROOT / "pycore" / "photo224.rgb").read_bytes()
    assert len(raw) == 224 * 224 * 3 == 150_528
    assert raw == expected.tobytes()
    assert np.array_equal(vit_patches.photo(), expected)


def test_photo_ships_beside_the_pycore_archive_not_in_it(tmp_path):
    """Every page downloads the archive; only pages with this widget fetch the photo."""
    name = output.pycore_archive(tmp_path)
    with zipfile.ZipFile(io.BytesIO((tmp_path / name).read_bytes())) as z:
        assert "pycore/photo224.rgb" not in z.namelist()
        assert "pycore/widgets/vit_patches/__init__.py" in z.namelist()
        # the widget's other parts are the build's and the page's, never Pyodide's
        assert not [n for n in z.namelist() if n.startswith("pycore/widgets/vit_patches/")
                    and not n.endswith("__init__.py")]
    photo = (ROOT / "pycore" / "photo224.rgb").read_bytes()
    assert (tmp_path / "pycore-data" / "photo224.rgb").read_bytes() == photo
    assert vit_patches.DATA_FILES == ("photo224.rgb",)


# -- the view against values worked out another way --

def second_route_row(img, P, index, T):
    """The similarity head with plain loops: per-patch means and grey std, z-scores, softmax."""
    img = img.astype(float)
    n_side = 224 // P
    feats = []
    for r in range(n_side):
        for c in range(n_side):
            block = img[r * P:(r + 1) * P, c * P:(c + 1) * P]
            grey = 0.299 * block[..., 0] + 0.587 * block[..., 1] + 0.114 * block[..., 2]
            feats.append([block[..., 0].mean(), block[..., 1].mean(), block[..., 2].mean(),
                          np.sqrt(np.mean((grey - grey.mean()) ** 2))])
    f = np.array(feats)
    z = (f - f.mean(axis=0)) / f.std(axis=0)
    dist = [np.sqrt(sum((z[j, k] - z[index, k]) ** 2 for k in range(4))) for j in range(len(z))]
    e = [np.exp(-d / T) for d in dist]
    return np.array(e) / sum(e), f, z


def whole(**params):
    """The whole view, as the build computes it (pycore/view_parts.py)."""
    return compute(NAME, params)


def test_view_counts_by_hand():
    for P, n, tokens, dim in ((8, 784, 785, 192), (16, 196, 197, 768), (32, 49, 50, 3072)):
        v = whole(P=P, index=0, temperature=0.3)
        assert (v["n_patches"], v["n_tokens"], v["patch_dim"]) == (n, tokens, dim)
        assert v["grid_h"] == v["grid_w"] == 224 // P
        assert v["n_scores"] == tokens ** 2  # 38 809 for P = 16, as in the chapter's table


def test_view_row_matches_a_loop_implementation():
    img = vit_patches.photo()
    P, index, T = 32, 24, 0.3  # the centre patch of the 7 x 7 grid
    row, f, z = second_route_row(img, P, index, T)
    v = whole(P=P, index=index, temperature=T)
    assert np.allclose(np.ravel(v["weights_p32"]), row, atol=1e-12)
    assert np.allclose(v["feature_table"][0], f[index]) and np.allclose(v["feature_table"][1], z[index])
    assert v["top_index"][0] == index and v["self_weight"] == max(row)
    order = sorted(range(49), key=lambda j: -row[j])[:5]
    assert list(v["top_index"]) == order
    assert list(v["top_row"]) == [j // 7 for j in order] and list(v["top_col"]) == [j % 7 for j in order]
    # mean attention distance: sum of weight * centre distance in pixels, patch 24 at (3, 3)
    by_hand = sum(row[j] * 32 * np.hypot(j // 7 - 3, j % 7 - 3) for j in range(49))
    assert v["mean_distance"] == pytest.approx(by_hand)
    # uniform weights from the centre of a 7 x 7 grid: mean of 32 * distance over 49 patches
    uniform = sum(32 * np.hypot(j // 7 - 3, j % 7 - 3) for j in range(49)) / 49
    assert v["uniform_distance"] == pytest.approx(uniform)
    assert abs(v["row_sum"] - 1) < 1e-12


def test_view_refuses_a_patch_outside_the_grid_and_reuses_its_features():
    with pytest.raises(ValueError):
        whole(P=32, index=49, temperature=0.3)
    # moving the selected patch leaves the photo's features and the layout for P = 16 (the
    # latency itself is benchmarks/interaction.py's to measure, not a test's)
    held = held_after(NAME, {"P": 16, "index": 91, "temperature": 0.3})
    for i in range(20):
        part, sent = asked(NAME, {"P": 16, "index": i, "temperature": 0.3}, held)
        assert set(sent) == {"selection", "weights"} and "grid" not in part, i


# -- the widget in Chromium --

def shown(root, path):
    return root.locator(f'[data-bind="{path}"]').first.inner_text()


def size(root, P):
    """The patch-size choice's button for P."""
    return root.locator(f"[data-control=P] [data-value='{P}']")


def table_cells(root):
    return [float(t) for t in root.locator("table.vit-weights tbody td").all_text_contents()]


def click_patch(root, row, col, P):
    svg = root.locator("svg.vit-photo")
    box = svg.bounding_box()
    scale = box["width"] / 224
    svg.click(position={"x": (col + 0.5) * P * scale, "y": (row + 0.5) * P * scale})


def open_weights(root):
    """Open 数值 (the weights table of P = 8, 784 cells, is in the page only while it is
    open)."""
    if not root.locator("details.numbers").evaluate("d => d.open"):
        root.locator("details.numbers summary").click()
    root.locator("details.numbers table.vit-weights").wait_for(state="attached")


def assert_row_table(root, view):
    """The full row as a table: one cell per patch, the largest on the selected patch, sum 1;
    each cell the view's weight to the digits shown."""
    open_weights(root)
    digits = int(root.locator("table.vit-weights").get_attribute("data-digits"))
    weights = np.ravel(view[f"weights_p{view['P']}"])
    cells = table_cells(root)
    assert all(abs(c - w) <= 0.5 * 10 ** -digits + 1e-9 for c, w in zip(cells, weights))
    assert len(cells) == view["n_patches"]
    assert int(np.argmax(cells)) == view["index"]
    assert abs(sum(cells) - 1) <= len(cells) * 0.5 * 10 ** -digits
    assert root.locator("table.vit-weights").get_attribute("data-matrix") == f"weights_p{view['P']}"


PICTURE_JS = """root => {
    const shown = (sel) => [...root.querySelectorAll(sel)]
        .filter((e) => !e.hasAttribute('data-hidden'));
    const attr = (e, ...names) => names.map((n) => Number(e.getAttribute(n)));
    const place = (e) => attr(e, 'x', 'y', 'width', 'height');
    return {
        overlay: [...root.querySelectorAll('.vit-overlay path')].map((p) =>
            [Number(p.dataset.seq), p.getAttribute('d')]),
        bars: root.querySelector('.vit-bars').getAttribute('d'),
        slices: shown('.vit-strip svg').map((s) =>
            [...attr(s, 'x', 'width'), s.getAttribute('viewBox')]),
        ticks: shown('.vit-ticks text').map((t) => t.textContent),
        strip: attr(root.querySelector('svg.vit-strip'), 'width'),
        selected: place(root.querySelector('.vit-selected')),
        token: attr(root.querySelector('.vit-strip-selected'), 'x'),
        top: [...root.querySelectorAll('.vit-top rect')].map(place),
        grid: root.querySelector('.vit-grid').getAttribute('d'),
    };
}"""


def assert_picture(root, view):
    """What the page draws, read back: the overlay's paths tile the photo's grid exactly once,
    each patch in the class of its weight over the row's largest (the selected patch the
    strongest); the selected and the top-5 patches framed; the strip is [CLS] then one token
    every 20 units, a slice of the photo per grid row, a bar per token (the tallest under the
    selected one), a tick at each grid row. And every bound attribute is pycore's."""
    P, w, n = view["P"], view["grid_w"], view["n_patches"]
    weights = np.ravel(view[f"weights_p{P}"])
    expected = np.minimum(8, np.floor(weights / weights.max() * 9)).astype(int)
    got = root.evaluate(PICTURE_JS)
    drawn = np.full(n, -1)
    for c, d in got["overlay"]:
        for rect in d.split("M")[1:]:
            x, rest = rect.split(" ")
            y, width = rest.split("h")[0], rest.split("h")[1].split("v")[0]
            i, j, k = int(float(y)) // P, int(float(x)) // P, int(float(width)) // P
            assert (drawn[i * w + j:i * w + j + k] == -1).all(), "a patch is drawn twice"
            drawn[i * w + j:i * w + j + k] = c
    assert drawn.tolist() == expected.tolist()
    assert drawn[view["index"]] == 8  # the selected patch attends most to itself
    assert got["selected"] == [view["col"] * P, view["row"] * P, P, P]
    assert got["top"] == [[c * P, r * P, P, P] for r, c in zip(view["top_row"], view["top_col"])]
    assert got["grid"].count("M") == 2 * (w - 1)
    assert got["strip"] == [20 * (n + 1)]
    assert got["slices"] == [[20 * (1 + r * w), 20 * w, f"0 {r * P} 224 {P}"] for r in range(w)]
    assert sum(width for _, width, _ in got["slices"]) // 20 == n  # a thumbnail per patch
    assert got["ticks"] == ["CLS"] + [str(r * w) for r in range(w)]
    assert got["token"] == [20 * (view["index"] + 1)]
    bars = {int(float(b.split(" ")[0])): float(b.split(" ")[1].split("h")[0])
            for b in got["bars"].split("M")[1:]}
    assert min(bars, key=bars.get) == 20 * (view["index"] + 1) + 3 and min(bars.values()) == 46 - 24
    assert_drawn(root, view, min_count=9 + 4 * 6 + 28 * 6)


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "11-vit.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    view = pycore_view(NAME, **params)
    assert_shows(root, view, min_count=196 + 8 + 20)
    assert shown(root, "n_tokens") == "197" and shown(root, "patch_dim") == "768"
    assert_picture(root, view)  # 196 patches coloured, 14 slices of 14 thumbnails after [CLS]
    page.close()


def test_credit_is_the_photo_credit(book_pages):
    root = book_pages(NAME).widget(NAME)
    assert root.locator(".widget-credit").inner_text().strip() == photo.PHOTO_CREDIT_ZH
    href = root.locator("svg.vit-photo image").get_attribute("href")
    assert re.search(r"assets/images/photo-224\.png\?v=[0-9a-f]{12}$", href), href


def test_patch_size_buttons_change_tokens_and_vector_length(book_pages):
    root = book_pages(NAME).widget(NAME)
    params = params_of(root)
    assert_shows(root, pycore_view(NAME, **params))
    before = updates(root)
    # P = 16 -> 8: patch 91 is (6, 7), centre pixel (104, 120) -> the 8 x 8 patch (13, 15) = 379
    size(root, 8).click()
    assert updates(root) == before + 1
    view = pycore_view(NAME, P=8, index=379, temperature=params["temperature"])
    assert root.locator("table.vit-weights").count() == 0  # closed at P = 8: no table to fill
    assert_shows(root, view, min_count=20)
    open_weights(root)
    assert_shows(root, view, min_count=784 + 20)
    assert (shown(root, "n_tokens"), shown(root, "patch_dim")) == ("785", "192")
    assert_row_table(root, view)
    assert_picture(root, view)  # 784 patches coloured, 28 slices of 28 thumbnails
    # P = 8 -> 32: patch 379 centre (108, 124) -> the 32 x 32 patch (3, 3) = 24
    size(root, 32).click()
    view = pycore_view(NAME, P=32, index=24, temperature=params["temperature"])
    assert_shows(root, view, min_count=49 + 20)
    assert (shown(root, "n_tokens"), shown(root, "patch_dim")) == ("50", "3072")
    assert size(root, 32).get_attribute("aria-checked") == "true"
    assert_row_table(root, view)
    assert_picture(root, view)
    # the sizes are one Tab stop and the arrow keys choose (carrying the selection too)
    size(root, 32).focus()
    root.page.keyboard.press("ArrowLeft")  # -> 16: patch 24's centre (112, 112) -> (7, 7) = 105
    assert size(root, 16).get_attribute("aria-checked") == "true"
    assert_shows(root, pycore_view(NAME, P=16, index=105, temperature=params["temperature"]))


def test_clicking_patches_shows_their_rows(book_pages):
    root = book_pages(NAME).widget(NAME)
    T = params_of(root)["temperature"]
    for row, col in ((2, 12), (12, 12), (9, 3)):
        before = updates(root)
        click_patch(root, row, col, 16)
        assert updates(root) == before + 1
        index = row * 14 + col
        view = pycore_view(NAME, P=16, index=index, temperature=T)
        assert_shows(root, view)
        assert shown(root, "top_index.0") == str(index)  # the clicked patch attends most to itself
        assert_row_table(root, view)
        sel = root.locator("svg.vit-photo .vit-selected")
        assert (sel.get_attribute("x"), sel.get_attribute("y")) == (str(col * 16), str(row * 16))
    assert_picture(root, view)


def test_keyboard_moves_the_cursor_and_selects(book_pages):
    root = book_pages(NAME).widget(NAME)
    T = params_of(root)["temperature"]
    size(root, 32).click()  # index 91 at P = 16 -> 24 at P = 32, (3, 3)
    svg = root.locator("svg.vit-photo")
    svg.focus()
    keys = root.page.keyboard
    before = updates(root)
    for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
        keys.press(key)
    assert updates(root) == before  # arrows only move the cursor
    assert root.locator(".vit-cursor-row").inner_text() == "4"
    assert root.locator(".vit-cursor-col").inner_text() == "5"
    view = pycore_view(NAME, P=32, index=24, temperature=T)
    assert root.locator(".vit-cursor-weight").inner_text() == f"{view['weights_p32'][4][5]:.4f}"
    cursor = root.locator(".vit-cursor")
    assert [cursor.get_attribute(a) for a in ("x", "y", "width")] == ["160", "128", "32"]
    keys.press("Enter")
    assert updates(root) == before + 1
    assert_shows(root, pycore_view(NAME, P=32, index=4 * 7 + 5, temperature=T))
    for _ in range(9):
        keys.press("ArrowLeft")  # stops at column 0
    keys.press("ArrowUp")
    keys.press(" ")
    view = pycore_view(NAME, P=32, index=3 * 7, temperature=T)
    assert_shows(root, view)
    assert_row_table(root, view)


def test_temperature_slider_and_strip_click(book_pages):
    root = book_pages(NAME).widget(NAME)
    slider = root.locator("[data-control=temperature]")
    slider.fill("1")
    view = pycore_view(NAME, P=16, index=91, temperature=1.0)
    assert_shows(root, view)
    assert view["max_weight"] < 0.05  # at T = 1 the head is nearly flat
    assert_picture(root, view)
    slider.focus()
    root.page.keyboard.press("ArrowLeft")  # one step of 0.05
    assert_shows(root, pycore_view(NAME, P=16, index=91, temperature=0.95))
    # the sequence strip: token 3 is patch 2 ([CLS] is token 0)
    strip = root.locator("svg.vit-strip")
    strip.click(position={"x": 3 * 20 + 10, "y": 10})
    assert_shows(root, pycore_view(NAME, P=16, index=2, temperature=0.95))


def test_reset_restores_the_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    params = params_of(root)
    size(root, 8).click()
    click_patch(root, 20, 3, 8)
    root.locator("[data-action=reset]").click()
    view = pycore_view(NAME, **params)
    assert_shows(root, view, min_count=196 + 20)
    assert root.locator(".vit-strip svg:not([data-hidden])").count() == 14
    assert size(root, 16).get_attribute("aria-checked") == "true"
    assert_row_table(root, view)
    assert_picture(root, view)


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """The temperature brings the row alone; a click the selection and its row; the grid,
    strip and features come with another patch size only."""
    root = book_pages(NAME).widget(NAME)
    assert parts_came(root, lambda: root.locator("[data-control=temperature]").fill("0.6")) \
        == [["weights"]]
    assert parts_came(root, lambda: click_patch(root, 2, 3, 16)) == [["selection", "weights"]]
    root.locator("[data-action=reset]").click()


def test_each_patch_size_is_built_once_and_moves_redraw_in_place(book_pages):
    """Going back to a patch size shows the table built for it before (same element), with
    the numbers and drawing of the new row; moving the temperature or the selected patch
    changes attributes and text only: no element is added or removed."""
    root = book_pages(NAME).widget(NAME)
    T = params_of(root)["temperature"]
    ids = """root => [...root.querySelectorAll('table.vit-weights')]
        .map((e) => (e._id ??= Math.random().toString(36).slice(2)))"""
    first = {16: root.evaluate(ids)}
    for P, index in ((8, 379), (32, 24), (16, 105), (8, 435), (32, 24)):  # each the old centre
        size(root, P).click()
        view = pycore_view(NAME, P=P, index=index, temperature=T)
        assert_shows(root, view)
        assert_row_table(root, view)
        assert_picture(root, view)
        first.setdefault(P, root.evaluate(ids))
        assert root.evaluate(ids) == first[P]
    root.evaluate("""root => {
        root._changes = [];
        root._kind = (m) => [...m.addedNodes, ...m.removedNodes].some((n) => n.nodeType === 1) ? 'element' : m.type;
        root._watch = new MutationObserver((records) => root._changes.push(...records.map(root._kind)));
        root._watch.observe(root, { childList: true, subtree: true, attributes: true });
    }""")
    root.locator("[data-control=temperature]").fill("0.6")
    click_patch(root, 1, 5, 32)
    view = pycore_view(NAME, P=32, index=1 * 7 + 5, temperature=0.6)
    assert_shows(root, view)
    assert_picture(root, view)
    kinds = root.evaluate("root => { const late = root._watch.takeRecords(); root._watch.disconnect(); return [...root._changes, ...late.map(root._kind)]; }")
    assert "attributes" in kinds and "element" not in kinds
