"""Browser tests of the weighted-sum widget (pycore/widgets/weighted_sum/:
view, template.html): the query picker and the scale slider recompute the
weights × V parts and their sum, and the picture's bars are the view's."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates


def part_widths(root, selector):
    return root.locator(selector).evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")


def test_weighted_sum_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="weighted-sum"]').first
    params = params_of(root)
    view = pycore_view("weighted-sum", **params)
    assert_shows(root, view, min_count=9 + 6)
    assert_drawn(root, view, min_count=9 * 6 + 6 * 9)
    page.close()


def test_query_and_scale_rebuild_the_sum(book_pages):
    root = book_pages("weighted-sum").widget("weighted-sum")
    before = updates(root)
    root.locator("[data-control=scale]").fill("6")
    assert updates(root) > before
    view = pycore_view("weighted-sum", query="它", scale=6.0)
    assert_shows(root, view)
    assert_drawn(root, view, min_count=9 * 6 + 6 * 9)
    # the output's 实体 cell is nearly all 小猫's part: its first segment is the widest
    segs = part_widths(root, ".wout >> nth=0 >> rect.part")
    assert segs == [s["w"] for s in view["fig"]["out"]["cells"][0]["segs"]]
    assert segs[0] > 10 * max(segs[1:])
    assert root.locator('[data-bind="top.feature"]').text_content() == "实体"
    # another query: 因为 spreads its weight over the four function words
    root.locator('[data-control=query] button', has_text="因为").click()
    view = pycore_view("weighted-sum", query="因为", scale=6.0)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert root.locator(".wrow .token[data-query]").text_content() == "因为"
    # the keyboard: the slider one step down
    root.locator("[data-control=scale]").focus()
    root.page.keyboard.press("ArrowLeft")
    view = pycore_view("weighted-sum", query="因为", scale=5.75)
    assert_shows(root, view)
    assert_drawn(root, view)
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("weighted-sum", **params_of(root)))
    assert root.locator(".wrow .token[data-query]").text_content() == "它"


def test_pointing_at_a_row_lights_its_parts_of_the_output(book_pages):
    root = book_pages("weighted-sum").widget("weighted-sum")
    root.locator(".wrow").first.hover()
    lit = root.locator(".wout rect.part.linked")
    assert lit.count() == 6 and lit.first.get_attribute("data-tokens") == "0"
    assert "小猫" in root.locator("[data-readout]").text_content()
