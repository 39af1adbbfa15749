"""Browser tests of the quantize widget (pycore/widgets/quantize/: view, widget.js)."""
import re

import numpy as np

from pycore import quantize as Q
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates


def choose(root, name, value):
    root.locator(f"""[data-control={name}] [data-value='{value}']""").click()


def shown(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def grid_picture(root):
    """From the page: the y of every level line, and of every stored square's centre."""
    d = root.locator(".quant-grid .level").get_attribute("d")
    levels = [float(y) for y in re.findall(r"M[\d.]+,([\d.]+)h", d)]
    squares = root.locator(".quant-grid .x-hat").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('y')) + 2.5)")
    dots = root.locator(".quant-grid .x").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('cy')))")
    return levels, squares, dots


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "10-parameters.html")
    root = page.locator('[data-widget="quantize"]').first
    view = pycore_view("quantize", **params_of(root))
    assert_shows(root, view, min_count=30)
    assert_drawn(root, view, min_count=32 * 3)
    assert shown(root, "weight.after") == "16640"  # chapter 10: 16384 + 128 * 2
    assert shown(root, "weight.mean_abs") == "0.00049"
    assert shown(root, "llama.after_mib") == "520"
    # the step is chapter 10's Δ (s is a score: pycore/notation.py)
    assert "这一块的步长 Δ = " in root.inner_text()
    page.close()


def test_bits_and_groups(book_pages):
    root = book_pages("quantize").widget("quantize")
    before = updates(root)
    choose(root, "bits", "4")
    assert updates(root) > before
    choose(root, "granularity", '"group"')
    view = pycore_view("quantize", bits=4, granularity="group")
    assert_shows(root, view)
    assert_drawn(root, view)
    assert shown(root, "weight.after") == "9216"  # chapter 10: 8192 + 512 * 2
    assert shown(root, "n_scales") == "512"
    assert shown(root, "llama.after_mib") == "264"
    # the picture: 15 levels (int4 symmetric), every square on one of them, and no square
    # farther from its dot than half a step (in SVG units of the fixed axis)
    levels, squares, dots = grid_picture(root)
    assert len(levels) == 15 == int(shown(root, "grid.n_levels"))
    assert all(min(abs(s - y) for y in levels) < 0.02 for s in squares)
    g = view["grid"]
    R = float(np.abs(Q.lab_weight()).max())  # computed here: the axis is [-R, R]
    px_per_unit = g["plot"]["h"] / (2 * R)
    for s, d in zip(squares, dots):
        assert abs(s - d) <= g["half_step"] * px_per_unit + 0.02
    # the numbers: pycore.quantize on the first group of column 0, computed here
    r = Q.quantize(Q.lab_weight(), 4, True, "group", 1, 32)
    assert abs(float(shown(root, "grid.scale")) - r["scale"][0]) < 5e-6
    choose(root, "group_size", "128")
    view = pycore_view("quantize", bits=4, granularity="group", group_size=128)
    assert_shows(root, view)
    assert shown(root, "n_scales") == "128"
    root.locator("[data-control=group_size] [role=radio][aria-checked=true]").focus()
    root.page.keyboard.press("ArrowLeft")  # 64
    assert_shows(root, pycore_view("quantize", bits=4, granularity="group", group_size=64))
    assert shown(root, "n_scales") == "256"


def test_two_bits_and_the_zero_point(book_pages):
    root = book_pages("quantize").widget("quantize")
    choose(root, "bits", "2")
    view = pycore_view("quantize", bits=2)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert len(grid_picture(root)[0]) == 3  # -s, 0, s
    switch = root.locator("[data-control=symmetric]")
    switch.click()
    assert switch.get_attribute("aria-checked") == "false"
    view = pycore_view("quantize", bits=2, symmetric=False)
    assert_shows(root, view)
    assert_drawn(root, view)
    levels, squares, _ = grid_picture(root)
    assert len(levels) == 4  # uint2: 0..3, shifted by the zero point
    assert int(shown(root, "weight.zero_points")) == 32  # 128 columns x 2 bits
    bar = root.locator(".stack-bar").first.locator(".mark")
    widths = bar.evaluate_all("els => els.map(e => Number(e.getAttribute('width')))")
    b = Q.nbytes(128 * 128, 128, 2, False)  # the bar is the fp16 bytes split in four
    assert abs(sum(widths) - 340) < 0.05
    parts = [b["payload"], b["scales"], b["zero_points"], b["before"] - b["after"]]
    for w, n in zip(widths, parts):
        assert abs(w - n / b["before"] * 340) < 0.02


def test_reset_restores_the_block(book_pages):
    root = book_pages("quantize").widget("quantize")
    params = params_of(root)
    choose(root, "bits", "2")
    choose(root, "granularity", '"tensor"')
    root.locator("[data-action=reset]").click()
    view = pycore_view("quantize", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert shown(root, "weight.after") == "16640"
