"""Phones and themes: no page of the book scrolls sideways at 360 px, every control of every
widget is a 44 px target on a touch screen, and the dark theme reaches the browser's own
parts (color-scheme), the system's setting as well as the reader's choice."""
import pytest

from tests.browser.conftest import BookPage
from tests.browser.harness import page_names

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"

# Every control a reader touches: visible, enabled, not inside a closed 数值 fold.
TARGETS = """() => [...document.querySelectorAll(
    '.widget :is(button, input, select, textarea, [role=radio], [role=switch], [role=spinbutton])')]
  .filter(el => el.offsetParent !== null && !el.closest('details:not([open])'))
  .map(el => { const b = el.getBoundingClientRect();
               return { what: el.outerHTML.slice(0, 90), w: b.width, h: b.height }; })"""


def pages():
    from tests.browser.conftest import ROOT
    from pathlib import Path
    return [p.name for p in sorted((Path(ROOT) / "book").glob("*.md"))]


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context
    context.close()


def open_settled(context, url):
    page = context.new_page()
    page.goto(url)
    if page.locator("[data-widget]").count():
        page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    return page


@pytest.mark.parametrize("chapter", pages())
def test_no_page_scrolls_sideways_and_every_control_is_a_finger_wide(phone, server, chapter):
    page = open_settled(phone, server + chapter.replace(".md", ".html"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{chapter}: the page is {width} px wide at 360 px"
    small = [t for t in page.evaluate(TARGETS) if t["w"] < 43.5 or t["h"] < 43.5]
    assert not small, f"{chapter}: targets under 44 px: {small[:5]}"
    page.close()


def test_the_index_and_the_embed_pages_fit_a_phone(phone, server, site):
    for href in page_names(site):
        if href.endswith(".html") and not href[:2].isdigit():
            page = open_settled(phone, server + href)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{href}: {width} px wide at 360 px"
            page.close()


@pytest.mark.parametrize("how", ["system", "toggle"])
def test_dark_reaches_the_browsers_own_parts(browser, server, how):
    context = browser.new_context(color_scheme="dark" if how == "system" else "light")
    page = context.new_page()
    page.goto(server + "04-attention.html")
    if how == "toggle":
        page.locator("[data-action=theme]").click()  # 跟随系统 -> 浅色
        page.locator("[data-action=theme]").click()  # -> 深色
    scheme = page.evaluate("getComputedStyle(document.documentElement).colorScheme")
    assert "dark" in scheme and "light" not in scheme.replace("dark", "")
    # a native control takes the dark scheme: its text is light
    colour = page.evaluate("getComputedStyle(document.querySelector('#tbook-search')).color")
    r, g, b = [int(x) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    assert min(r, g, b) > 150, f"the search box's text is {colour} in the dark theme"
    context.close()
