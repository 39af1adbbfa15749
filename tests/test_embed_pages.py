"""Embed pages (templates/embed.html, bookbuild/renderers/pages.py embed_pages): one per chapter
and one
per widget, with the book's content, runtime and CSP but none of its navigation; and the 嵌入
buttons and dialog on the chapter pages."""
import collections
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bookbuild.renderers import pages as render
from bookbuild.errors import BuildError
from bookbuild.stages.load import load_book
from bookbuild.pipeline import Tools, compile_chapter, new_env
from bookbuild.runtime.vendor import NUMPY_WHEEL

HERE = Path(__file__).resolve().parent
BOOK = HERE.parent / "book"
MINIBOOK = HERE / "fixtures" / "minibook"
RUNTIME = {"pyodide": [], "pycore": "pycore-000000000000.zip", "numpy": NUMPY_WHEEL,
           "files": collections.defaultdict(lambda: {"v": "0123456789ab", "sri": "sha384-test"}),
           "importmap": "{}", "csp": render.csp("{}"), "build": "build0"}


def compile_pages(book_dir):
    """(book, {page name: html}) as the build renders them (without vendoring the runtime)."""
    book = load_book(book_dir)
    tools = Tools()
    env = new_env()
    for chapter in book.chapters:
        compile_chapter(tools, chapter, env)
    return book, dict(render.render_pages(tools.jinja, book, RUNTIME))


class Elements(HTMLParser):
    """Every start tag as (tag, attrs), and the text inside each <a>."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.link_text, self._in_a = [], [], False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "a":
            self._in_a = True
            self.link_text.append("")

    def handle_endtag(self, tag):
        if tag == "a":
            self._in_a = False

    def handle_data(self, data):
        if self._in_a:
            self.link_text[-1] += data

    def find(self, tag, **attrs):
        return [a for t, a in self.tags
                if t == tag and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]


def article(html):
    return html.split('<article class="chapter">', 1)[1].split("</article>", 1)[0]


@pytest.fixture(scope="module")
def real_book():
    return compile_pages(BOOK)


@pytest.fixture(scope="module")
def mini_book():
    return compile_pages(MINIBOOK)


def test_every_chapter_and_every_widget_has_its_embed_page(real_book):
    book, pages = real_book
    wanted = {f"embed-{c.slug}.html" for c in book.chapters}
    wanted |= {f"embed-{w['id']}.html" for c in book.chapters for w in c.widgets}
    assert len(wanted) == len(book.chapters) + sum(len(c.widgets) for c in book.chapters) >= 30
    assert {name for name in pages if name.startswith("embed-")} == wanted
    assert "embed-attention-04-attention.html" in wanted and "embed-02-softmax.html" in wanted


def test_a_widget_embed_page_holds_that_widget_and_no_navigation(real_book):
    _, pages = real_book
    html = pages["embed-attention-04-attention.html"]
    page = Elements(html)
    figures = page.find("figure")
    assert [(f["id"], f["data-widget"]) for f in figures] == [("attention-04-attention", "attention")]
    assert not page.find("nav") and 'class="toc"' not in html and 'class="pager"' not in html
    assert page.find("meta", http_equiv="Content-Security-Policy")[0]["content"] == RUNTIME["csp"]
    assert page.find("meta", name="tbook-embed")[0]["content"] == "attention-04-attention"
    assert page.find("meta", name="tbook-pycore")[0]["content"] == "assets/" + RUNTIME["pycore"]
    # the head matches the book's (templates/embed.html repeats base.html's): same runtime
    # metas, so the same runtime worker
    book_page = Elements(pages["04-attention.html"])
    for name in ("tbook-root", "tbook-pycore", "tbook-worker", "tbook-worker-name"):
        assert page.find("meta", name=name) == book_page.find("meta", name=name), name
    scripts = [s["src"].split("?v=")[0] for s in page.find("script") if "src" in s]
    assert scripts == ["assets/runtime-start.js", "assets/theme.js", "assets/book.js",
                       "assets/embed.js", "assets/notebook-ui.js"]  # its 在 Jupyter 中打开 too
    back = page.find("a", href="04-attention.html#attention-04-attention")
    assert len(back) == 1 and back[0]["target"] == "_blank" and "noopener" in back[0]["rel"]
    assert any(t.startswith("出自《交互式 Transformer》第 4 节") for t in page.link_text)
    # the same pre-rendered widget as in the chapter (same numbers, same parameters)
    chapter = pages["04-attention.html"]
    start = chapter.index('<figure class="widget" id="attention-04-attention"')
    widget = chapter[start:chapter.index("</figure>", start)]
    assert widget in html


def test_a_chapter_embed_page_holds_the_whole_chapter(real_book):
    book, pages = real_book
    for i, c in enumerate(book.chapters):
        html = pages[f"embed-{c.slug}.html"]
        assert article(html) == article(pages[c.href]), c.slug
        page = Elements(html)
        assert not page.find("nav") and not page.find("dialog")
        assert [f["id"] for f in page.find("figure", **{"class": "widget"})] == \
            [w["id"] for w in c.widgets]
        back = page.find("a", href=c.href, target="_blank")
        assert len(back) == 1
        # 00-overview is 第 0 节; 13b-trained-model is 第 13b 节 (its own prefix)
        assert f"出自《交互式 Transformer》第 {render.section_number(c, i)} 节" in html


def test_chapter_pages_have_an_embed_button_per_widget_and_one_for_the_chapter(real_book):
    book, pages = real_book
    for c in book.chapters:
        page = Elements(pages[c.href])
        buttons = [b for b in page.find("button", aria_haspopup="dialog") if "data-embed" in b]
        assert [b["data-embed"] for b in buttons] == [w["id"] for w in c.widgets] + [c.slug]
        assert buttons[-1]["data-embed-kind"] == "chapter"
        assert all("hidden" in b for b in buttons)  # shown by embed-ui.js, which they need
        dialog = page.find("dialog", id="tbook-embed")
        assert len(dialog) == 1 and dialog[0]["data-book-title"] == book.title
        assert page.find("label", **{"for": "tbook-embed-code"})
        assert page.find("textarea", id="tbook-embed-code")[0].keys() >= {"readonly"}
        assert [s for s in page.find("script") if s.get("src", "").startswith("assets/embed-ui.js?v=")]


def test_section_numbers_come_from_the_file_names_or_the_book_order(mini_book):
    book, pages = mini_book
    assert [c.slug for c in book.chapters] == ["a", "b"]  # no numeric prefix: 1, 2, ...
    assert "出自《" in pages["embed-b.html"] and "》第 2 节" in pages["embed-b.html"]
    assert "》第 1 节" in pages["embed-a.html"]


def test_embed_pages_carry_no_inline_script_or_style(mini_book):
    _, pages = mini_book
    embeds = [name for name in pages if name.startswith("embed-")]
    assert len(embeds) == 2 + 3  # two chapters, three widgets
    for name in embeds:
        html = pages[name]
        assert "<script>" not in html and " style=" not in html, name
        # the one inline script is the import map (data, not code), allowed by its hash
        assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", html) == ['<script type="importmap">']


def test_a_widget_id_that_takes_a_chapters_embed_name_is_refused(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIBOOK, book)
    a = book / "a.md"
    a.write_text(a.read_text(encoding="utf-8").replace(
        "```widget dot-product\n", "```widget dot-product\nid = \"b\"\n"), encoding="utf-8")
    with pytest.raises(BuildError) as err:
        compile_pages(book)
    message = str(err.value)
    assert "embed-b.html" in message and "chapter b.md" in message and "a.md:5" in message
    assert err.value.file == book / "b.md"


def test_a_chapter_inserted_between_two_keeps_their_numbers():
    from types import SimpleNamespace
    section_number = render.section_number
    chapter = lambda slug: SimpleNamespace(slug=slug)  # noqa: E731
    assert section_number(chapter("13-training"), 13) == 13
    assert section_number(chapter("13b-trained-model"), 14) == "13b"  # not 15: that is taken
    assert section_number(chapter("07b"), 8) == "7b"
    assert section_number(chapter("b-notes"), 2) == 3  # no number: its place in the book
    assert section_number(chapter("13bb-x"), 5) == 6
