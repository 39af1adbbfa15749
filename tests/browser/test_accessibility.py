"""axe-core (from npm, tests/package.json) on every page of the book, with the page's strict CSP
still enforced: zero serious or critical violations, widgets live, in the light theme and in
the dark one (the system's setting, emulated)."""
import json

import pytest

from tests.browser.conftest import BookPage
from tests.browser.harness import page_names, run_axe


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
    problems = {}
    for href, page in opened.items():
        page.emulate_media(color_scheme="dark")
        try:
            bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
        finally:
            page.emulate_media(color_scheme="light")
        if bad:
            problems[href] = bad
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)
