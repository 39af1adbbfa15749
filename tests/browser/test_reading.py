"""Reading comforts: no raw TeX on any page, printing shows every widget with its numbers,
and the theme toggle follows the reader's choice across pages."""
import re

from tests.browser.harness import assert_shows, page_names, pycore_view

CODE = re.compile(r"<(pre|code|textarea|script|style)\b.*?</\1>", re.S)
TEX = re.compile(r"\$[^$\s<][^$<]*\$|\\(frac|sqrt|sum|mathbf|operatorname|text)\b")


def test_no_raw_tex_on_any_page(site):
    for name in page_names(site) + sorted(p.name for p in site.glob("embed-*.html")):
        html = CODE.sub("", (site / name).read_text(encoding="utf-8"))
        body = html.split("<body", 1)[1]
        assert not TEX.search(body), f"{name}: raw TeX {TEX.search(body).group(0)!r}"
        if "<math" in body:
            assert "xmlns=\"http://www.w3.org/1998/Math/MathML\"" in body


def test_print_shows_the_figure_as_it_is_now_without_its_tables(book_pages):
    """Print shows each widget's picture in its current state, with its key numbers; the
    number tables stay folded (chapter 04 used to print ten pages of Q, K, V tables)."""
    page = book_pages("attention")
    root = page.widget("attention")
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    view = pycore_view("attention", query="累")
    page.page.emulate_media(media="print")
    try:
        assert not page.page.locator(".toc").is_visible()
        assert not root.locator("[data-action=reset]").is_visible()
        assert root.is_visible() and root.locator("svg.curves").is_visible()
        assert root.locator("svg.heat").is_visible()
        assert root.locator(".key-figure .big").inner_text() == f"{view['top']['weight']:.4f}"
        assert_shows(root, view)  # its current state
        assert not root.locator('table[data-matrix="weights"]').is_visible()
        assert not root.locator("details.numbers").first.evaluate("d => d.open")
    finally:
        page.page.emulate_media(media="screen")


def test_theme_toggle_is_remembered(browser, server):
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(server + "index.html")
    html = page.locator("html")
    toggle = page.locator("[data-action=theme]")
    assert html.get_attribute("data-theme") is None and "跟随系统" in toggle.inner_text()
    background = lambda: page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    light = background()
    toggle.click()  # auto -> light
    toggle.click()  # light -> dark
    assert html.get_attribute("data-theme") == "dark" and "深色" in toggle.inner_text()
    assert background() != light
    page.goto(server + "02-softmax.html")  # another page: the choice is kept
    assert page.locator("html").get_attribute("data-theme") == "dark"
    page.locator("[data-action=theme]").click()  # dark -> auto
    assert page.locator("html").get_attribute("data-theme") is None
    context.close()
