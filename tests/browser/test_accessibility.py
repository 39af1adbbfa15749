"""axe-core (from npm, tests/package.json) on every page of the book, with the page's strict CSP
still enforced: zero serious or critical violations, widgets live."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.browser.harness import page_names

TESTS = Path(__file__).resolve().parent.parent
AXE = TESTS / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source():
    if not AXE.exists():
        npm = shutil.which("npm")
        if not npm:
            pytest.fail("axe-core is missing and npm is not installed: apt-get install npm", pytrace=False)
        subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=TESTS, check=True)
    return AXE.read_text(encoding="utf-8")


def run_axe(page, source):
    """Load axe through the DevTools protocol (page.evaluate is not subject to the page's CSP,
    which stays enforced for the page itself), then run it."""
    page.evaluate(source + "\n;true")
    return page.evaluate("""() => axe.run(document, {resultTypes: ['violations']})
        .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))""")


def test_every_page_has_no_serious_accessibility_violation(book_pages, site, server, axe_source):
    problems = {}
    for href in page_names(site):
        page = book_pages.open(href).page
        bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
        if bad:
            problems[href] = bad
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)
