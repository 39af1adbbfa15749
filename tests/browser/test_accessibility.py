"""axe-core (from npm, tests/package.json) on every page of the book, with the page's strict CSP
still enforced: zero serious or critical violations, widgets live, in the light theme and in
the dark one (the system's setting, emulated)."""
import json

from tests.browser.harness import page_names, run_axe


def test_every_page_has_no_serious_accessibility_violation(book_pages, site, server, axe_source):
    problems = {}
    for href in page_names(site):
        page = book_pages.open(href).page
        bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
        if bad:
            problems[href] = bad
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


def test_every_page_has_no_serious_accessibility_violation_in_the_dark(book_pages, site, server,
                                                                       axe_source):
    problems = {}
    for href in page_names(site):
        page = book_pages.open(href).page
        page.emulate_media(color_scheme="dark")
        try:
            bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
        finally:
            page.emulate_media(color_scheme="light")
        if bad:
            problems[href] = bad
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)
