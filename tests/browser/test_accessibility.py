"""Every page of the book, visited in Chromium as a reader opens it: nothing leaves the origin,
nothing errs, every widget ends live, and axe-core (from npm, tests/package.json), with the
page's strict CSP still enforced, finds no serious or critical violation in the light theme
or in the dark one (the system's setting, emulated)."""
import json

from tests.browser.conftest import BookPage
from tests.browser.harness import COLOUR_RULES, page_names, run_axe


def serious(page, axe_source, rules=None):
    return [v for v in run_axe(page, axe_source, rules) if v["impact"] in ("serious", "critical")]


def test_every_page_stays_on_its_origin_goes_live_and_has_no_serious_violation(
        browser, server, site, axe_source):
    """Every page as a reader opens it (a context of the test's own: book_pages' pages keep what
    other tests did to them, an open fold, a chosen head; one runtime serves them all): what it
    fetched, its errors and its widgets' states, then axe in the light theme with every rule,
    then in the dark one with the rules that read colours: the dark theme changes colours
    only (book.css), so every other rule's answer is the light theme's. One visit checks
    both, as one page load is most of what either costs. One page at a time, closed once
    checked: the pages of a context share a renderer process (tests/browser/conftest.py), and
    twenty-two pages held open at once made each of axe's runs slower (its garbage collections
    went over all of their heaps). A page is closed once the next is open, so that the
    runtime's worker always has a page to live for."""
    pages = page_names(site)
    assert "index.html" in pages and len(pages) >= 4
    context = browser.new_context()
    problems, checked = {}, None
    try:
        for href in pages:
            book_page = BookPage(context, server, href)
            page = book_page.page
            if checked:
                checked.close()
            states = page.eval_on_selector_all("[data-widget]",
                                               "els => els.map(e => e.dataset.state)")
            bad = {"other origins": book_page.off_origin_requests(), "errors": book_page.errors,
                   "widgets not live": [s for s in states if s != "live"],
                   "light": serious(page, axe_source)}
            page.emulate_media(color_scheme="dark")
            bad["dark"] = serious(page, axe_source, COLOUR_RULES)
            problems.update({f"{href} ({what})": v for what, v in bad.items() if v})
            checked = page
    finally:
        context.close()
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


def test_a_widget_after_its_state_changes_has_no_serious_violation(reader_pages, server, axe_source):
    """What a reader's moves bring on screen is checked too: in chapter 5, one head left out
    (its pictures dimmed: its title must keep its contrast) and the 数值 fold opened (its wide
    tables scroll: the region must be reachable from the keyboard), in both themes, on a wide
    screen and on a phone's (the same page resized; a tab of the session's reader context,
    whose runtime is booted, and whose storage the chosen head does not outlive)."""
    page = BookPage(reader_pages, server, "05-multi-head.html")
    page.page.set_viewport_size({"width": 1280, "height": 900})
    root = page.widget("multi-head")
    root.locator("""[data-control=heads] [data-value='"B"']""").click()
    root.locator(".mh[data-heads=B]").wait_for()
    root.locator("details.numbers > summary").click()
    for width in (1280, 390):
        page.page.set_viewport_size({"width": width, "height": 900})
        for scheme in ("light", "dark"):
            page.page.emulate_media(color_scheme=scheme)
            rules = None if scheme == "light" else COLOUR_RULES  # dark changes colours only
            bad = serious(page.page, axe_source, rules)
            assert not bad, (width, scheme, json.dumps(bad, ensure_ascii=False, indent=1))
