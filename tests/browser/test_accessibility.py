"""axe-core (from npm, tests/package.json) on every page of the book, with the page's strict CSP
still enforced: zero serious or critical violations, widgets live, in the light theme and in
the dark one (the system's setting, emulated)."""
import json

import pytest

from tests.browser.conftest import BookPage
from tests.browser.harness import COLOUR_RULES, page_names, run_axe


@pytest.fixture(scope="module")
def opened(browser, server, site):
    """Every page as a reader opens it, in a context of the module's own (book_pages' pages
    keep what other tests did to them: an open fold, a chosen head); one runtime serves them."""
    context = browser.new_context()
    pages = {href: BookPage(context, server, href).page for href in page_names(site)}
    yield pages
    context.close()


def test_every_page_has_no_serious_accessibility_violation(opened, axe_source):
    problems = {}
    for href, page in opened.items():
        bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
        if bad:
            problems[href] = bad
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


def test_every_page_has_no_serious_accessibility_violation_in_the_dark(opened, axe_source):
    """The dark theme changes colours only (book.css): the rules that read colours are run
    again in it; every other rule's answer is the light theme's (the test above)."""
    problems = {}
    for href, page in opened.items():
        page.emulate_media(color_scheme="dark")
        try:
            bad = [v for v in run_axe(page, axe_source, COLOUR_RULES)
                   if v["impact"] in ("serious", "critical")]
        finally:
            page.emulate_media(color_scheme="light")
        if bad:
            problems[href] = bad
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
            bad = [v for v in run_axe(page.page, axe_source, rules)
                   if v["impact"] in ("serious", "critical")]
            assert not bad, (width, scheme, json.dumps(bad, ensure_ascii=False, indent=1))
