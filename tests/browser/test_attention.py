"""Browser tests of the attention widget (pycore/widgets/attention.py, assets/widgets/attention.js)."""
from tests.browser.harness import assert_shows, pycore_view, updates


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
    row = root.locator('[data-bind^="row."]').all_inner_texts()
    assert row[0] == "0.2101" and row[3] == "0.1397" and row[1] == "0.0929"


def test_clicking_a_token_shows_its_row(book_pages):
    root = book_pages("attention").widget("attention")
    before = updates(root)
    root.locator('[data-token="累"]').click()
    assert updates(root) == before + 1
    assert root.locator('[data-token="累"]').get_attribute("aria-pressed") == "true"
    assert_shows(root, pycore_view("attention", query="累"))


def test_keyboard_enter_selects_a_token(book_pages):
    root = book_pages("attention").widget("attention")
    root.locator('[data-token="马路"]').focus()
    root.page.keyboard.press("Enter")
    assert_shows(root, pycore_view("attention", query="马路"))


def test_scale_slider_saturates_the_softmax(book_pages):
    root = book_pages("attention").widget("attention")
    root.locator("[data-control=scale]").fill("6")
    view = pycore_view("attention", scale=6.0)
    assert_shows(root, view)
    assert round(float(root.locator('[data-bind="row.0"]').inner_text()), 3) == 0.878  # chapter 4
    root.locator("[data-control=scale]").focus()
    root.page.keyboard.press("ArrowLeft")  # one step of 0.25
    assert_shows(root, pycore_view("attention", scale=5.75))


def test_causal_mask_makes_the_matrix_lower_triangular(book_pages):
    root = book_pages("attention").widget("attention")
    root.locator("[data-control=causal]").check()
    view = pycore_view("attention", causal=True)
    assert_shows(root, view)
    cells = root.locator('table[data-matrix="weights"] tbody tr').nth(2).locator("td").all_inner_texts()
    assert cells[3:] == ["0.00"] * 6
    root.locator("[data-action=reset]").click()
    assert not root.locator("[data-control=causal]").is_checked()
    assert_shows(root, pycore_view("attention"))
