"""Browser tests of the padding-mask widget (pycore/widgets/padding_mask/:
view, widget.js)."""
from tests.browser.harness import (assert_drawn, assert_heat, assert_shows, heat_cells, params_of,
                                   parts_came, pycore_view, updates)


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def button(root, name, value):
    return root.locator(f"""[data-control={name}] [data-value='{value}']""")


def switch(root, name):
    return root.locator(f"[data-control={name}][role=switch]")


def masked_cells(root):
    """(row, column) of the cells drawn masked in the weights' heatmap, row-major."""
    return sorted(tuple(map(int, tokens.split(" ")))
                  for tokens, cls in heat_cells(root) if cls == "masked")


def pad_boxes(root):
    """Per column of sentence 2 in the batch grid: is it drawn as a pad?"""
    return root.evaluate("""root => [...root.querySelectorAll('rect.pm-token')].slice(9)
        .map(r => r.hasAttribute('data-pad'))""")


def test_padding_mask_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "08-decoder.html")
    root = page.locator('[data-widget="padding-mask"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("padding-mask", **params_of(root))
    assert_shows(root, view, min_count=81 + 9)
    assert_drawn(root, view, min_count=2 * 81 + 10)
    assert_heat(root, view["heat"])
    assert text(root, "pad_share") == "0.000"
    assert text(root, "shape") == "(B, n, d) = (2, 9, 6)"  # the sequence length is n, as in 08
    page.close()


def test_without_the_padding_mask_the_pads_take_weight(book_pages):
    root = book_pages("padding-mask").widget("padding-mask")
    assert masked_cells(root) == \
        [(i, j) for i in range(9) for j in range(4, 9)]
    before = updates(root)
    switch(root, "mask").click()
    assert updates(root) > before
    assert switch(root, "mask").get_attribute("aria-checked") == "false"
    view = pycore_view("padding-mask", mask=False)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert (text(root, "pad_share"), text(root, "self_weight"), text(root, "change")) == \
        ("0.487", "0.2205", "0.300")
    assert masked_cells(root) == []  # nothing hidden: the pads' columns take weight
    widths = root.evaluate("""root => [...root.querySelectorAll('.curves path.curve')]
        .map(p => Number(p.getAttribute('stroke-width')))""")
    assert widths == [c["sw"] for c in view["curves"]["curves"]]
    assert min(widths[4:]) > 0.6 + 1  # each pad draws a visible curve from 小猫


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A query brings its row alone; the padding switch the masks and weights, not the batch."""
    root = book_pages("padding-mask").widget("padding-mask")
    assert parts_came(root, lambda: button(root, "query", '"累"').click()) == [["chosen"]]
    assert parts_came(root, lambda: switch(root, "mask").click()) == [["chosen", "figures"]]
    root.locator("[data-action=reset]").click()


def test_left_padding_needs_the_mask_even_with_the_causal_one(book_pages):
    root = book_pages("padding-mask").widget("padding-mask")
    button(root, "side", '"left"').click()
    assert pad_boxes(root) == [True] * 5 + [False] * 4
    causal = switch(root, "causal")
    causal.focus()
    root.page.keyboard.press("Space")
    assert causal.get_attribute("aria-checked") == "true"
    view = pycore_view("padding-mask", side="left", causal=True)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert text(root, "in_force") == "padding 掩码 ∧ 因果掩码"
    assert text(root, "self_weight") == "1.0000"  # 小猫 is first of its sentence: alone
    switch(root, "mask").click()
    view = pycore_view("padding-mask", side="left", causal=True, mask=False)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert text(root, "pad_share") == "0.688" and text(root, "in_force") == "因果掩码"
    # the query's frame sits on row 5 (小猫 after five pads)
    band = root.locator("svg.heat rect.band").last
    assert float(band.get_attribute("y")) == view["heat"]["row_band"]["y"] == 22 + 5 * 34
    # arrow keys move the query: 太
    button(root, "query", '"小猫"').focus()
    root.page.keyboard.press("ArrowRight")
    view = pycore_view("padding-mask", side="left", causal=True, mask=False, query="太")
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert text(root, "pad_share") == f"{view['pad_share']:.3f}" != "0.000"


def test_right_pads_sit_behind_the_causal_mask(book_pages):
    root = book_pages("padding-mask").widget("padding-mask")
    switch(root, "causal").click()
    switch(root, "mask").click()
    view = pycore_view("padding-mask", causal=True, mask=False)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert text(root, "pad_share") == "0.000"
    assert text(root, "verdict") == "pad 都在右边，因果掩码已经把它们挡在后面"


def test_reset_restores_the_block(book_pages):
    root = book_pages("padding-mask").widget("padding-mask")
    params = params_of(root)
    switch(root, "mask").click()
    button(root, "side", '"left"').click()
    root.locator("[data-action=reset]").click()
    view = pycore_view("padding-mask", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert pad_boxes(root) == [False] * 4 + [True] * 5
