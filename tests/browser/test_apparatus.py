"""The apparatus of a book, in Chromium: numbered cross-references, citations with their cards
and reference lists, glossary terms, previews of links, the chapter's own contents, Back that
returns where the reader was, keyboard shortcuts, a phone's top bar, and a first paint that
does not move."""
import re

import pytest

SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"


def settled_page(context, url, viewport=None):
    page = context.new_page()
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(url)
    if page.locator("[data-widget]").count():
        page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    return page


@pytest.fixture(scope="module")
def contexts(browser, server):
    """contexts(**options) -> the module's browser context with those options (a desktop one, a
    touch phone), made on first use. Each keeps its first page, a chapter with widgets, open to
    the end, so that the runtime's SharedWorker boots once per context, not once per test."""
    made = {}

    def get(**options):
        key = tuple(sorted(options.items()))
        if key not in made:
            made[key] = browser.new_context(**options)
            settled_page(made[key], server + "04-attention.html")
        return made[key]

    yield get
    for context in made.values():
        context.close()


@pytest.fixture
def open_page(contexts):
    """open_page(url, viewport=None, **context options) -> a new page of the shared context with
    those options, at url, its widgets settled; closed after the test."""
    opened = []

    def open_(url, viewport=None, **options):
        opened.append(settled_page(contexts(**options), url, viewport))
        return opened[-1]

    yield open_
    for page in opened:
        page.close()


def test_a_cross_reference_is_numbered_by_the_book_and_leads_to_its_target(open_page, server):
    page = open_page(server + "02-softmax.html")
    ref = page.locator('a.xref[data-kind="eq"]').first
    assert ref.inner_text() == "式 (4.1)"
    sec = page.locator('a.xref[data-kind="sec"]').first
    assert re.fullmatch(r"4\.\d+ 节「为什么要除以 √dₖ」", sec.inner_text()), sec.inner_text()
    ref.click()
    page.wait_for_url(re.compile(r"04-attention\.html#eq:attention$"))
    assert page.locator('[id="eq:attention"] .eq-number').inner_text() == "(4.1)"
    # every widget is a figure, numbered in its chapter
    assert page.locator(".widget .fig-number").first.inner_text() == "图 4.1"


def test_a_citation_shows_its_entry_on_hover_and_focus_and_the_chapter_lists_it(open_page, server):
    page = open_page(server + "01-dot-product.html")
    cite = page.locator("a.cite-ref").first
    assert cite.inner_text() == "Bahdanau 等，2014"
    entry = page.locator("#ref-bahdanau2014")
    assert "Neural Machine Translation by Jointly Learning to Align and Translate" in entry.inner_text()
    assert entry.locator("a.ref-link").get_attribute("href") == "https://arxiv.org/abs/1409.0473"
    cite.hover()
    card = page.locator("#tbook-popover")
    card.wait_for(state="visible")
    assert "Jointly Learning to Align" in card.inner_text()
    assert cite.get_attribute("aria-describedby") == "tbook-popover"
    page.mouse.move(0, 0)
    card.wait_for(state="hidden")
    cite.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus from the keyboard: :focus-visible
    card.wait_for(state="visible")


def test_a_tap_shows_the_card_and_a_second_tap_follows_the_link(open_page, server):
    page = open_page(server + "01-dot-product.html", has_touch=True, is_mobile=True,
                     viewport={"width": 390, "height": 800})
    cite = page.locator("a.cite-ref").first
    cite.tap()
    card = page.locator("#tbook-popover")
    card.wait_for(state="visible")
    assert "Jointly Learning to Align" in card.inner_text()
    assert "#ref-" not in page.url
    cite.tap()
    page.wait_for_url(re.compile(r"#ref-bahdanau2014$"))
    card.wait_for(state="hidden")


def test_terms_link_to_the_glossary_with_their_definition(open_page, server):
    page = open_page(server + "04-attention.html")
    term = page.locator("a.term").first
    term.hover()
    card = page.locator("#tbook-popover")
    card.wait_for(state="visible")
    assert card.inner_text() == term.get_attribute("data-def")
    href, word = term.get_attribute("href"), term.inner_text()
    page.goto(server + href)
    anchor = href.split("#", 1)[1]
    assert page.locator(f'[id="{anchor}"] dfn').inner_text() == word
    assert page.locator(".terms dt").count() >= 25


def test_a_link_to_another_chapter_previews_its_first_lines(open_page, server):
    page = open_page(server + "04-attention.html")
    link = page.locator('.chapter a[href^="02-softmax.html"]').first
    link.hover()
    card = page.locator("#tbook-popover")
    card.wait_for(state="visible")
    assert len(card.inner_text()) > 20


def test_the_bibliography_page_lists_every_entry_with_who_cites_it(open_page, server, site):
    page = open_page(server + "bibliography.html")
    entries = page.locator(".references-list > li")
    assert entries.count() >= 30
    cited = page.locator("#ref-vaswani2017 .cited-in a")
    hrefs = [cited.nth(i).get_attribute("href") for i in range(cited.count())]
    assert any(h.startswith("04-attention.html#ref-vaswani2017") for h in hrefs), hrefs


def test_the_chapters_sections_mark_the_one_being_read(open_page, server):
    page = open_page(server + "04-attention.html", viewport={"width": 1400, "height": 900})
    rail = page.locator(".page-toc.rail")
    assert rail.is_visible() and page.locator(".page-toc.fold").is_hidden()
    # each entry a target of at least 24 px (WCAG 2.2 target size, as Lighthouse checks it)
    heights = rail.locator("a").evaluate_all("as => as.map(a => a.getBoundingClientRect().height)")
    assert heights and min(heights) >= 24, heights
    target = rail.locator("a").nth(3)
    target.click()  # the page scrolls to its section, which becomes the one being read
    page.wait_for_function("a => a.getAttribute('aria-current') === 'location'",
                           arg=target.element_handle(), timeout=10_000)
    page = open_page(server + "04-attention.html", viewport={"width": 390, "height": 800})
    assert page.locator(".page-toc.rail").is_hidden()
    fold = page.locator(".page-toc.fold")
    assert fold.is_visible() and not fold.evaluate("d => d.open")


def test_back_returns_to_where_the_reader_was(open_page, server):
    page = open_page(server + "04-attention.html")
    page.evaluate("window.sameDocument = true")
    link = page.locator('.chapter a[href^="02-softmax.html"]').last
    link.scroll_into_view_if_needed()
    before = page.evaluate("scrollY")
    assert before > 1000
    link.click()
    page.wait_for_url(re.compile(r"02-softmax\.html"))
    page.go_back()
    page.wait_for_url(re.compile(r"04-attention\.html$"))
    page.wait_for_function(f"() => Math.abs(scrollY - {before}) < 5", timeout=10_000)
    assert page.evaluate("window.sameDocument === true")  # the in-place move, both ways


def test_arrow_keys_turn_the_page_unless_a_widget_or_a_box_has_them(open_page, server):
    page = open_page(server + "04-attention.html")
    page.locator("[data-control=scale]").first.focus()
    page.keyboard.press("ArrowRight")  # the slider's, not the page's
    assert page.url.endswith("04-attention.html")
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"05-multi-head\.html"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"04-attention\.html"))
    page.locator("#tbook-search").fill("")
    page.locator("#tbook-search").press("ArrowLeft")
    assert page.url.endswith("04-attention.html")
    page.locator("h1").click()
    page.keyboard.press("Shift+?")
    assert page.locator("#tbook-keys").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#tbook-keys").is_hidden()


def test_a_phone_gets_a_top_bar_and_contents_over_the_page(open_page, server):
    page = open_page(server + "11-vit.html", viewport={"width": 360, "height": 740},
                     is_mobile=True, has_touch=True)
    bar = page.locator(".topbar")
    assert bar.is_visible() and page.locator(".toc").is_hidden()
    page.evaluate("window.scrollTo(0, 3000)")
    assert bar.bounding_box()["y"] == 0  # it stays on top
    page.locator(".topbar-toc").tap()
    assert page.locator(".toc").is_visible() and page.locator("#tbook-search").is_visible()
    page.locator(".toc-close").tap()
    assert page.locator(".toc").is_hidden()


LAYOUT_SHIFT = """() => new Promise((resolve) => {
    let total = 0;
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => resolve(total), 1500);
})"""


@pytest.mark.parametrize("href", ["index.html", "04-attention.html", "11-vit.html"])
def test_the_first_paint_does_not_move_on_a_phone(browser, server, href):
    # a context of its own: the first visit's paint (no service worker, no runtime booted yet)
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True)
    page = settled_page(ctx, server + href)
    shift = page.evaluate(LAYOUT_SHIFT)
    assert shift < 0.05, f"{href}: cumulative layout shift {shift:.3f}"
    description = page.locator('meta[name="description"]').get_attribute("content")
    assert len(description) > 20
    ctx.close()
