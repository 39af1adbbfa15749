"""Browser tests of the attention widget (pycore/widgets/attention/: view, widget.js)."""
from tests.browser.harness import assert_drawn, assert_shows, parts_came, pycore_view, updates


def token(root, t):
    """The query picker's button for token t."""
    return root.locator(f"""[data-control=query] [data-value='"{t}"']""")


def test_attention_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="attention"]').first
    assert root.get_attribute("data-state") == "static"
    assert_shows(root, pycore_view("attention"), min_count=9 + 81)
    page.close()


def test_attention_is_live_with_the_paper_row(book_pages):
    root = book_pages("attention").widget("attention")
    view = pycore_view("attention", query="它")
    assert_shows(root, view, min_count=9 + 81 + 81 + 3 * 54)
    # the reader's check from the chapter: 小猫 0.2101, 马路 0.1397, the others 0.0929
    row = root.locator('[data-bind^="row."]').all_text_contents()  # in the 数值 fold
    assert row[0] == "0.2101" and row[3] == "0.1397" and row[1] == "0.0929"


def test_clicking_a_token_shows_its_row(book_pages):
    root = book_pages("attention").widget("attention")
    before = updates(root)
    token(root, "累").click()
    assert updates(root) == before + 1
    assert token(root, "累").get_attribute("aria-checked") == "true"
    assert_shows(root, pycore_view("attention", query="累"))


def test_a_query_clicked_after_the_scale_and_mask_shows_their_weights(book_pages):
    """A click on another query brings only its row and curves (the page keeps the weights it
    shows): after the scale and the mask have moved, the weights kept are theirs."""
    root = book_pages("attention").widget("attention")
    root.locator("[data-control=scale]").fill("3")
    root.locator("[data-control=causal]").click()
    assert_shows(root, pycore_view("attention", scale=3.0, causal=True))
    before = updates(root)
    token(root, "累").click()
    assert updates(root) == before + 1
    view = pycore_view("attention", query="累", scale=3.0, causal=True)
    assert_shows(root, view, min_count=9 + 81 + 81)
    assert_drawn(root, view, min_count=9 * 6 + 81 * 4)
    assert root.locator(".heat .cell[data-masked]").count() == 36


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A query's click brings its row alone, the scale or the mask the weights and the row
    that reads them; the sentence's part never comes again (pycore/widgets/attention/)."""
    root = book_pages("attention").widget("attention")
    assert parts_came(root, lambda: token(root, "马路").click()) == [["row"]]
    assert parts_came(root, lambda: root.locator("[data-control=scale]").fill("2")) == \
        [["row", "weights"]]
    assert parts_came(root, lambda: root.locator("[data-control=causal]").click()) == \
        [["row", "weights"]]
    assert_shows(root, pycore_view("attention", query="马路", scale=2.0, causal=True))
    root.locator("[data-action=reset]").click()


def test_keyboard_enter_selects_a_token(book_pages):
    root = book_pages("attention").widget("attention")
    token(root, "马路").focus()
    root.page.keyboard.press("Enter")
    assert_shows(root, pycore_view("attention", query="马路"))


def test_scale_slider_saturates_the_softmax(book_pages):
    root = book_pages("attention").widget("attention")
    root.locator("[data-control=scale]").fill("6")
    view = pycore_view("attention", scale=6.0)
    assert_shows(root, view)
    assert round(float(root.locator('[data-bind="row.0"]').text_content()), 3) == 0.878  # chapter 4
    root.locator("[data-control=scale]").focus()
    root.page.keyboard.press("ArrowLeft")  # one step of 0.25
    assert_shows(root, pycore_view("attention", scale=5.75))


def test_causal_mask_makes_the_matrix_lower_triangular(book_pages):
    root = book_pages("attention").widget("attention")
    root.locator("[data-control=causal]").click()
    assert root.locator("[data-control=causal]").get_attribute("aria-checked") == "true"
    view = pycore_view("attention", causal=True)
    assert_shows(root, view)
    cells = root.locator('table[data-matrix="weights"] tbody tr').nth(2).locator("td").all_text_contents()
    assert cells[3:9] == ["0.00"] * 6  # (the 3 spare slots of 12 are hidden)
    root.locator("[data-action=reset]").click()
    assert root.locator("[data-control=causal]").get_attribute("aria-checked") == "false"
    assert_shows(root, pycore_view("attention"))


def test_the_picture_is_pycores(book_pages):
    """Curves over the sentence and the heatmap: every drawn attribute is the view's; the
    strongest key gets the thickest curve, the query's row and that key's column are framed,
    and a masked future (causal) draws no curve."""
    root = book_pages("attention").widget("attention")
    view = pycore_view("attention")
    assert_drawn(root, view, min_count=9 * 6 + 81 * 4)
    widths = root.locator(".curves .curve").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('stroke-width')))")
    assert widths.index(max(widths)) == 0  # 小猫, the reader's check: 0.2101
    band = root.locator(".heat .band").first
    assert float(band.get_attribute("y")) == view["heat"]["row_band"]["y"]
    assert root.locator(".key-figure .big").inner_text() == "0.2101"
    token(root, "累").click()
    root.locator("[data-control=causal]").click()
    view = pycore_view("attention", query="累", causal=True)
    assert_drawn(root, view)
    masked = root.locator(".curves .curve[data-masked]").count()
    assert masked == 1  # 累 (position 7) may not look at 了 (position 8)
    assert root.locator(".heat .cell[data-masked]").count() == 36


def test_pointing_at_a_cell_lights_its_tokens_and_says_its_value(book_pages):
    root = book_pages("attention").widget("attention")
    cell = root.locator(".heat .cell").nth(5 * 12 + 0)  # 它 -> 小猫 (12 slots a row)
    cell.hover()
    assert root.locator("[data-readout]").inner_text() == "它 → 小猫：0.2101"
    lit = root.locator(".linked").evaluate_all("els => els.map(e => e.textContent.trim())")
    assert "它" in lit and "小猫" in lit
    # and from the keyboard: the heatmap is one Tab stop, the arrow keys move in it
    first = root.locator(".heat .cell").first
    first.focus()
    root.page.keyboard.press("ArrowDown")
    assert root.locator("[data-readout]").inner_text().startswith("没有 → 小猫：")
