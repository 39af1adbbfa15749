"""Every page of the book, as the build renders it: its headings, the chapter's and those inside
its widgets, go down one level at a time (h2 then h3, never h2 then h4), so a screen reader's
list of headings nests as the page does (axe's and Lighthouse's heading-order rule). A widget
inside a section titles its own parts with h3: after a chapter's h2 or h3, never a skip."""
import re
from html.parser import HTMLParser

import pytest

from tests.test_embed_pages import BOOK, compile_pages


class Headings(HTMLParser):
    """[(level, the widget it is inside or None)] in document order."""

    def __init__(self, html):
        super().__init__()
        self.found, self.widgets = [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and "data-widget" in a:
            self.widgets.append(a["data-widget"])
        if re.fullmatch(r"h[1-6]", tag):
            self.found.append((int(tag[1]), self.widgets[-1] if self.widgets else None))

    def handle_endtag(self, tag):
        if tag == "figure" and self.widgets:
            self.widgets.pop()


@pytest.fixture(scope="module")
def pages():
    return compile_pages(BOOK)[1]


def skips(html):
    """Each heading that goes down more than one level from the one before it."""
    out, before = [], 1  # a page's h1 is its title
    for level, widget in Headings(html).found:
        if level > before + 1:
            out.append(f"h{level} after h{before}" + (f" (in widget {widget})" if widget else ""))
        before = level
    return out


def test_no_page_skips_a_heading_level(pages):
    assert len(pages) > 15
    assert {name: skips(html) for name, html in pages.items() if skips(html)} == {}


def test_the_check_sees_a_skip_inside_a_widget():
    html = '<h1>t</h1><h2>s</h2><figure data-widget="w"><h4>part</h4></figure><h3>ok</h3>'
    assert skips(html) == ["h4 after h2 (in widget w)"]
