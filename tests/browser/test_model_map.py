"""Browser tests of the model-map widget (pycore/widgets/model_map/, chapter 14): the family
choice dims what pycore says, every box is a focusable link to a widget that the built book
has, and no text of the map is drawn under 11 px on a 360 px screen."""
from urllib.parse import urlsplit

from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view

# the smallest font size a figure's text is drawn at, in CSS px on the screen
SMALLEST_TEXT = """(svg) => Math.min(...[...svg.querySelectorAll('text')].map(
    (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"""


def test_family_choice_dims_the_missing_parts(book_pages):
    root = book_pages("model-map").widget("model-map")
    full = pycore_view("model-map", **params_of(root))
    assert root.locator(".map-box[data-dim]").count() == 0
    root.locator("[data-control=family] button", has_text="仅解码器").click()
    gpt = pycore_view("model-map", family="decoder-only")
    assert_shows(root, gpt)
    assert_drawn(root, gpt, min_count=len(gpt["fig"]["boxes"]))
    dimmed = root.locator(".map-box[data-dim] text:not(.map-tag)").all_text_contents()
    assert dimmed == [b["label"] for b in gpt["fig"]["boxes"] if b["dim"]] and "交叉注意力" in dimmed
    root.locator("[data-control=family] button", has_text="仅编码器").click()
    bert = pycore_view("model-map", family="encoder-only")
    assert_drawn(root, bert)
    assert "采样" in root.locator(".map-box[data-dim]").all_text_contents()[-1]
    root.locator("[data-action=reset]").click()
    assert_drawn(root, full)


def test_boxes_are_links_to_widgets_of_the_book(book_pages, site):
    root = book_pages("model-map").widget("model-map")
    links = root.locator("svg.model-map a.map-box")
    hrefs = links.evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert len(hrefs) == len(pycore_view("model-map")["fig"]["boxes"]) + 8
    for href in set(hrefs):
        page, anchor = href.split("#")
        assert f'id="{anchor}"' in (site / page).read_text(encoding="utf-8"), href
    # the keyboard reaches them: focus the first, Tab to the next, Enter follows it
    links.first.focus()
    root.page.keyboard.press("Tab")
    assert root.page.evaluate("document.activeElement.getAttribute('href')") == hrefs[1]


def test_following_a_box_opens_its_widget(reader_pages, server):
    page = reader_pages.new_page()  # the session's runtime: no boot of its own
    page.goto(server + "14-recap.html")
    box = page.locator("svg.model-map a.map-box", has_text="交叉注意力")
    box.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/08-decoder.html#cross-attention-08-decoder")
    assert page.locator("#cross-attention-08-decoder").count() == 1
    assert urlsplit(page.url).fragment == "cross-attention-08-decoder"
    page.close()


def test_no_text_under_11px_on_a_phone(reader_pages, server):
    for scheme in ("light", "dark"):
        page = reader_pages.new_page()
        page.set_viewport_size({"width": 360, "height": 800})
        page.emulate_media(color_scheme=scheme)
        page.goto(server + "14-recap.html")
        svg = page.locator("svg.model-map")
        assert svg.evaluate(SMALLEST_TEXT) >= 11
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.close()
