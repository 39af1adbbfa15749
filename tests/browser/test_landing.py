"""The landing page (templates/index.html, bookbuild/renderers/pages.py front_widget): it opens on the
running example's attention, live, says who the book is for, and has one way in."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view
from tests.browser.test_layout import measured


def test_the_landing_page_opens_on_a_live_figure(book_pages):
    page = book_pages.open("index.html")
    assert not page.errors
    figure = page.page.locator(".landing .front [data-widget]")
    assert figure.count() == 1 and figure.get_attribute("data-widget") == "attention"
    # before the prose about the reader and the contents: the figure comes first
    order = page.page.evaluate("""() => [...document.querySelectorAll(
        '.landing .front, .landing .front-who, .landing .start, .landing .outline')]
        .map((e) => e.className)""")
    assert order[:3] == ["front", "front-who", "start"]
    root = page.widget("attention")
    params = params_of(root)
    assert_shows(root, pycore_view("attention", **params))
    root.locator('[data-control=query] button', has_text="小猫").click()
    view = pycore_view("attention", **{**params, "query": "小猫"})
    assert_shows(root, view)
    assert_drawn(root, view)
    root.locator("[data-action=reset]").click()


def test_the_front_figure_has_a_chapter_figures_room(book_pages):
    """At 1280 x 900 the front door's figure leaves the text column as the same figure does in
    its chapter, so its picture has the room the side form gives it there (its curves span the
    text column; the controls' column stands beside them)."""
    front, chapter = (next(w for w in measured(book_pages.open(href).page)
                           if w["name"] == "attention")
                      for href in ("index.html", "04-attention.html"))
    assert front["width"] >= chapter["width"] - 1 and front["width"] > front["column"], front
    assert front["span"] >= front["column"] - 1, front
    picture, words = front["side"]["picture"], front["side"]["words"]
    assert words["left"] >= picture["right"] - 1 and words["top"] < picture["bottom"], front


def test_one_way_in_and_one_numbering(book_pages, site):
    page = book_pages.open("index.html").page
    start = page.locator(".landing a.start-link")
    assert start.count() == 1 and "从这里开始" in start.text_content()
    assert start.get_attribute("href") == "00-overview.html"
    # the contents list: every chapter once, each title with its own number, no list numbers
    titles = page.locator(".landing ul.outline > li > a").all_text_contents()
    assert titles[0].startswith("0.") and titles[1].startswith("1.")
    assert page.locator(".landing ol").count() == 0
    assert len(titles) == len(set(titles)) == len(list(site.glob("[0-9]*.html")))
    assert "写给谁" in page.locator(".landing .front-who h2").text_content()
    # a phone: nothing scrolls sideways, the way in is a touch target
    phone = page.context.new_page()  # a tab of the same context: its runtime is booted
    phone.set_viewport_size({"width": 360, "height": 800})
    phone.goto(page.url)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert phone.locator("a.start-link").bounding_box()["height"] >= 44
    phone.close()
