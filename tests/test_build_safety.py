"""The build publishes only the book, and no input of it runs script: symbolic links that leave
book/, unreferenced files, markup smuggled through formulas; valid input that used to be
refused; messages that stay short; and a site that is swapped in, not rebuilt in place.
(The malformed books are in tests/bad_inputs/; these cases need links or timing.)"""
import os
import shutil
import threading
from pathlib import Path

import pytest

from bookbuild.renderers import output
from bookbuild.stages import sanitize
from bookbuild.errors import BuildError
from bookbuild.pipeline import build

HERE = Path(__file__).resolve().parent
SHARED = HERE / "bad_inputs" / "_shared"
BOOK = HERE.parent / "book"


def quiet(*_):
    pass


@pytest.fixture
def book(tmp_path):
    return Path(shutil.copytree(SHARED, tmp_path / "book"))


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def add_to_b(book, text):
    b = book / "b.md"
    write(b, b.read_text(encoding="utf-8") + "\n" + text)
    return b.read_text(encoding="utf-8").split("\n").index(text.split("\n")[0]) + 1


# ---------------------------------------------------------------- nothing off the book

def test_an_image_that_links_outside_the_book_is_refused(book, tmp_path):
    secret = write(tmp_path / "passwd", "root:x:0:0:root:/root:/bin/bash\n")
    os.symlink(secret, book / "images" / "notes.png")
    line = add_to_b(book, "![笔记](images/notes.png)")
    with pytest.raises(BuildError) as err:
        build(book, tmp_path / "site", log=quiet)
    assert f"b.md:{line}: image 'images/notes.png'" in str(err.value)
    assert "outside book/" in str(err.value)
    assert not (tmp_path / "site").exists()


def test_a_chapter_that_links_outside_the_book_is_refused(book, tmp_path):
    elsewhere = write(tmp_path / "notes.md", "# 私人笔记\n\n不该发布。\n")
    (book / "b.md").unlink()
    os.symlink(elsewhere, book / "b.md")
    with pytest.raises(BuildError) as err:
        build(book, tmp_path / "site", log=quiet)
    assert "book.toml:5: chapter b.md is a link to" in str(err.value)


def test_links_inside_the_book_are_followed(book, tmp_path):
    os.symlink(book / "images" / "angle.svg", book / "images" / "same.svg")
    add_to_b(book, "![同一张图](images/same.svg)")
    site = tmp_path / "site"
    build(book, site, log=quiet)
    assert (site / "images" / "same.svg").read_bytes() == (book / "images" / "angle.svg").read_bytes()
    assert not (site / "images" / "same.svg").is_symlink()


def test_only_the_images_chapters_show_are_published(book, tmp_path):
    shutil.copy(book / "images" / "angle.svg", book / "images" / "draft.svg")
    write(book / "images" / "notes.txt", "not an image")
    site = tmp_path / "site"
    build(book, site, log=quiet)
    assert sorted(p.name for p in (site / "images").iterdir()) == ["angle.svg"]
    assert "draft.svg" not in (site / "sw.js").read_text(encoding="utf-8")


def test_a_changed_image_gets_a_new_address_even_from_a_cached_chapter(book, tmp_path):
    site = tmp_path / "site"
    build(book, site, log=quiet)
    before = (site / "a.html").read_text(encoding="utf-8")
    svg = book / "images" / "angle.svg"
    write(svg, svg.read_text(encoding="utf-8").replace("</svg>", "<circle r='1'/></svg>"))
    build(book, site, log=quiet)
    after = (site / "a.html").read_text(encoding="utf-8")
    version = output.file_version(svg)
    assert f"images/angle.svg?v={version}" in after and f"?v={version}" not in before


# ---------------------------------------------------------------- no input runs script

ATTACKS = [r"\text{<iframe/src=images/p.svg></iframe>}", r"\text{<b>x</b>}",
           r"\href{javascript:alert(1)}{x}", r"\href{data:text/html,<script>}{x}",
           r"\style{background:url(https://example.com/x)}{x}", r"\class{x}{y}",
           r"\text{<!-- x -->}", r"\text{<img src=x onerror=alert(1)>}"]


@pytest.mark.parametrize("tex", ATTACKS)
def test_a_formula_cannot_carry_markup(book, tmp_path, tex):
    line = add_to_b(book, f"公式 ${tex}$。")
    with pytest.raises(BuildError) as err:
        build(book, tmp_path / "site", log=quiet)
    assert f"b.md:{line}: " in str(err.value)


def test_every_formula_of_the_book_passes_the_allow_list_unchanged_in_meaning():
    """latex2mathml's MathML for each formula of the book, after clean_mathml, is the same
    tree (elements, attributes, text) as before: the allow-list refuses nothing the book uses."""
    from html.parser import HTMLParser

    from latex2mathml.converter import convert

    from bookbuild.stages.markdown import make_parser

    class Tree(HTMLParser):
        def __init__(self, text):
            super().__init__(convert_charrefs=True)
            self.items = []
            self.feed(text)

        def handle_starttag(self, tag, attrs):
            self.items.append(("<", tag, sorted(attrs)))

        def handle_startendtag(self, tag, attrs):
            self.items.append(("<>", tag, sorted(attrs)))

        def handle_endtag(self, tag):
            self.items.append((">", tag))

        def handle_data(self, data):
            self.items.append(("text", data))

    md, n = make_parser(), 0
    for chapter in sorted(BOOK.glob("*.md")):
        tokens = md.parse(chapter.read_text(encoding="utf-8"))
        for t in tokens + [c for t in tokens for c in t.children or []]:
            if t.type.startswith("math"):
                mathml = convert(t.content.strip(), display="inline" if t.type == "math_inline"
                                 else "block")
                assert Tree(sanitize.clean_mathml(mathml)).items == Tree(mathml).items, t.content
                n += 1
    assert n > 500


def test_text_in_a_formula_is_escaped_once():
    mathml = sanitize.clean_mathml('<math xmlns="http://www.w3.org/1998/Math/MathML">'
                                   '<mtext>a &lt; b &amp; c</mtext></math>')
    assert "<mtext>a &lt; b &amp; c</mtext>" in mathml


SAFE_SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10">
  <metadata><inkscape:page/></metadata>
  <defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>
  <style>.a { fill: url(#g) }</style>
  <rect class="a" width="5" height="5" style="stroke: url(#g)"/>
  <use xlink:href="#g"/><image href="beside.png" width="1" height="1"/>
</svg>"""


# What Inkscape writes (its own and Sodipodi's settings, the licence as RDF, a Windows path in
# an attribute of its own, fonts in quotes), as the drawings of a book come
INKSCAPE_SVG = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg width="40mm" height="20mm" viewBox="0 0 40 20" version="1.1" id="svg1"
   inkscape:version="1.3 (0e150ed6c4, 2023-07-21)" sodipodi:docname="attention.svg"
   inkscape:export-filename="C:\\Users\\me\\attention.png"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns:xlink="http://www.w3.org/1999/xlink" xmlns="http://www.w3.org/2000/svg"
   xmlns:svg="http://www.w3.org/2000/svg" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
   xmlns:cc="http://creativecommons.org/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <sodipodi:namedview id="namedview1" pagecolor="#ffffff" inkscape:zoom="2.1">
    <inkscape:page x="0" y="0" width="40" height="20" id="page2"/>
  </sodipodi:namedview>
  <metadata><rdf:RDF><cc:Work rdf:about=""><dc:format>image/svg+xml</dc:format>
    <cc:license rdf:resource="http://creativecommons.org/licenses/by/4.0/"/></cc:Work></rdf:RDF>
  </metadata>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <text style="font-family:'Noto Sans SC';-inkscape-font-specification:'Noto Sans SC, Bold'"
      x="2" y="12">注意力 &lt; 1</text>
    <path d="M 2,18 H 38" style="stroke:#000;marker-end:url(#arrow)"/>
  </g>
</svg>""".encode()


def test_an_ordinary_svg_is_accepted():
    sanitize.check_svg(SAFE_SVG)  # an editor's metadata, gradients, styles, local references


def test_a_drawing_saved_by_inkscape_is_accepted():
    sanitize.check_svg(INKSCAPE_SVG)


def test_the_books_own_svgs_are_accepted():
    svgs = [*(HERE.parent / "assets").rglob("*.svg"), *BOOK.rglob("*.svg"), *SHARED.rglob("*.svg")]
    assert svgs
    for path in svgs:
        sanitize.check_svg(path.read_bytes())


@pytest.mark.parametrize("evil", [
    b'<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><text>x</text></a></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://e.example/x.css);</style></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://e.example/#x)"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><use href="data:image/svg+xml,&lt;svg&gt;"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><animate attributeName="onbegin" to="alert(1)"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" xml:base="https://e.example/"/>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><h:script xmlns:h="http://www.w3.org/1999/xhtml"/></svg>',
    b'<html><body>not svg</body></html>',
    # a processing instruction anywhere, and XSLT, which can write a <script>
    b'<svg xmlns="http://www.w3.org/2000/svg"><?xml-stylesheet href="x.xsl"?></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"/><?xml-stylesheet href="x.css" type="text/css"?>',
    b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/XSL/Transform">'
    b'<x:template match="/"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><m:math xmlns:m="http://www.w3.org/1998/Math/MathML"/>'
    b'</svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><thing xmlns=""/></svg>',
    # addresses a browser reads after dropping tabs and newlines, or with \\ as /
    b'<svg xmlns="http://www.w3.org/2000/svg"><a href="&#10;java&#13;script:alert(1)"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><image href="/\\e.example/x.png"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(\'ht&#9;tp://e.example/#x\')"/>'
    b'</svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="fill" to="java&#9;script:x"/></svg>',
    # CSS escapes, addresses in strings, CSS after a child of <style>
    b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="\\75rl(https://e.example/#x)"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:image-set(\'https://e.example/x.png\' 1x)"/>'
    b'</svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg"><style><desc/>@import url(x.css);</style></svg>',
    # UTF-16 hides a <!DOCTYPE> from a test of the bytes
    '<svg xmlns="http://www.w3.org/2000/svg"/>'.encode("utf-16"),
])
def test_an_svg_that_could_run_script_or_fetch_elsewhere_is_refused(evil):
    with pytest.raises(ValueError):
        sanitize.check_svg(evil)


# ---------------------------------------------------------------- valid input is accepted

def test_links_to_a_widget_and_to_dot_slash_chapters_are_valid(book, tmp_path):
    add_to_b(book, "[小部件](a.md#dot-product-a)、[点积](./a.md#点积)、[本节](#softmax-b)。")
    site = tmp_path / "site"
    build(book, site, log=quiet)
    html = (site / "b.html").read_text(encoding="utf-8")
    assert 'href="a.html#dot-product-a"' in html and 'href="#softmax-b"' in html
    assert 'href="a.html#%E7%82%B9%E7%A7%AF"' in html or 'href="a.html#点积"' in html


def test_a_code_block_labelled_widgets_is_code(book, tmp_path):
    add_to_b(book, "```widgets\nnot a widget\n```")
    site = tmp_path / "site"
    build(book, site, log=quiet)
    assert "not a widget" in (site / "b.html").read_text(encoding="utf-8")


def test_a_title_with_an_entity_is_escaped_once(book, tmp_path):
    b = book / "b.md"
    write(b, b.read_text(encoding="utf-8").replace("# 注意力", "# 注意力 &lt; 点积 `a<b`", 1))
    site = tmp_path / "site"
    build(book, site, log=quiet)
    html = (site / "b.html").read_text(encoding="utf-8")
    assert "<title>注意力 &lt; 点积 a&lt;b · " in html
    assert "&amp;lt;" not in html


def test_a_heading_named_like_a_part_of_the_page_gets_another_anchor(book, tmp_path):
    add_to_b(book, "## Content\n\n[回到上面](#content-section)")
    site = tmp_path / "site"
    build(book, site, log=quiet)
    html = (site / "b.html").read_text(encoding="utf-8")
    assert html.count('id="content"') == 1 and 'id="content-section"' in html


def test_no_page_of_the_book_has_a_duplicate_id(tmp_path):
    import re
    from collections import Counter
    site = tmp_path / "site"
    build(BOOK, site, log=quiet)
    for page in site.glob("*.html"):
        ids = Counter(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))
        assert [i for i, n in ids.items() if n > 1] == [], page.name


def test_the_page_ids_list_is_whole():
    """markdown.PAGE_IDS lists every id the page templates give their own elements."""
    import re

    from bookbuild.stages.markdown import PAGE_IDS
    found = set()
    for name in ("base.html", "page.html", "embed.html"):
        text = (HERE.parent / "templates" / name).read_text(encoding="utf-8")
        found |= set(re.findall(r'\sid="([a-z-]+)"', text))
    assert found == set(PAGE_IDS)


def test_the_build_pages_list_is_whole():
    """render.BUILD_PAGES (the names no chapter may take) lists every page render_pages writes
    besides the chapters' and their embed pages, in a book with everything: exercises, a
    glossary, a notation page and a bibliography."""
    from bookbuild.renderers import pages as render
    from bookbuild.stages.load import Book, Chapter

    class Templates:
        def get_template(self, name):
            return self

        def render(self, **_):
            return ""

    chapter = Chapter(path=Path("a.md"), rel="a.md", source="", part="一", slug="a",
                      exercises=[{"id": "exercise-x", "title": "x"}])
    book = Book(root=Path("."), title="书", parts=[("一", [chapter])],
                glossary=[{"zh": "词", "en": "word", "definition": "d", "chapter": "a.md"}],
                notation=[{"tex": "d", "mathml": "", "meaning": "m", "chapter": chapter,
                           "number": 1}],
                bibliography={"k": {"key": "k", "authors": [("A", "B")], "title": "T",
                                    "year": "2017"}})
    written = {name for name, _ in render.render_pages(Templates(), book, runtime={})}
    assert written - {"a.html", "embed-a.html"} == set(render.BUILD_PAGES)


def test_a_bibliography_url_is_published_as_a_browser_reads_it(book):
    """A web address with stray spaces around it is what a browser would follow anyway."""
    from bookbuild.stages import bib
    write(book / "references.bib", "@article{ba2016,\n  author = {Ba, Jimmy},\n  title = {LN},\n"
          "  year = {2016},\n  url = { HTTPS://arxiv.org/abs/1607.06450 }\n}\n")
    assert bib.load(book)["ba2016"]["url"] == "HTTPS://arxiv.org/abs/1607.06450"


# ---------------------------------------------------------------- messages stay short

def test_an_error_quoting_a_huge_value_stays_short(book, tmp_path):
    huge = "[" + ", ".join(["1.0"] * 1_000_000) + "]"
    add_to_b(book, f"```widget softmax\nlogits = {huge}\n```")
    with pytest.raises(BuildError) as err:
        build(book, tmp_path / "site", log=quiet)
    assert len(str(err.value)) < 2000 and "logits" in str(err.value)


def test_a_bibliography_too_long_to_decode_stops_before_decoding(book):
    """Decoding LaTeX grows with the square of a field's length: a references.bib past the
    bound is refused at the line where it passes it (fields: tests/bad_inputs/128-...)."""
    from bookbuild.stages import bib
    entry = "@misc{k{n},\n  author = {A, B},\n  title = {T},\n  year = {2016}\n}\n"
    text = "".join(entry.replace("{n}", str(n)) for n in range(bib.MAX_FILE // len(entry) + 1))
    write(book / "references.bib", text)
    with pytest.raises(BuildError) as err:
        bib.load(book)
    line = text.count("\n", 0, bib.MAX_FILE) + 1
    assert f"references.bib:{line}: the bibliography is {len(text):,} characters long" \
        in str(err.value)


# ---------------------------------------------------------------- the site is swapped in

def test_leftovers_of_killed_builds_are_removed(book, tmp_path):
    site = tmp_path / "site"
    dead = tmp_path / ".site.building-999999999"  # no such process
    (dead / "assets").mkdir(parents=True)
    old = tmp_path / ".site.old-999999998"
    old.mkdir()
    other = tmp_path / ".other.building-1"  # not this site's
    other.mkdir()
    build(book, site, log=quiet)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.building-1", "book", "site"]


def test_a_reader_never_finds_the_site_missing_during_a_rebuild(book, tmp_path):
    site = tmp_path / "site"
    build(book, site, log=quiet)
    missing, done = [], threading.Event()

    def read():
        while not done.is_set():
            if not (site / "index.html").is_file():
                missing.append(1)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for i in range(5):
            add_to_b(book, f"第 {i} 次改动。")
            build(book, site, log=quiet)
    finally:
        done.set()
        reader.join()
    assert not missing, f"index.html was missing {len(missing)} times while the site was swapped"
    assert "第 4 次改动" in (site / "b.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- found by others

def test_base_url_gives_a_sitemap_canonical_addresses_and_link_previews(book, tmp_path):
    toml = book / "book.toml"
    toml.write_text('base_url = "https://book.example/tbook/"\n'
                    'edit_url = "https://github.com/me/tbook/edit/main/book/{file}"\n'
                    + toml.read_text(encoding="utf-8"), encoding="utf-8")
    site = tmp_path / "site"
    build(book, site, log=quiet)
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://book.example/tbook/a.html</loc>" in sitemap
    assert "<loc>https://book.example/tbook/index.html</loc>" in sitemap
    page = (site / "a.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://book.example/tbook/a.html">' in page
    assert '<meta property="og:url" content="https://book.example/tbook/a.html">' in page
    assert '<meta property="og:title" content="向量与点积 · 坏输入样书">' in page
    assert 'href="https://github.com/me/tbook/edit/main/book/a.md">在 GitHub 上编辑此页<' in page


def test_without_base_url_there_is_nothing_to_get_wrong(book, tmp_path):
    site = tmp_path / "site"
    build(book, site, log=quiet)
    page = (site / "a.html").read_text(encoding="utf-8")
    assert not (site / "sitemap.xml").exists() and "og:url" not in page
    assert 'rel="canonical"' not in page and "在 GitHub 上编辑此页" not in page


@pytest.mark.parametrize("line,message", [
    ('base_url = "ftp://x/"', "base_url must be an http(s) address"),
    ('base_url = "https://x.example/book"', "must end with '/'"),
    ('edit_url = "https://github.com/me/x/edit/main/book/"', "edit_url must hold {file}"),
    # base_url reaches a shell (the notebooks' %pip cell) and IPython ({...} runs Python there)
    ('base_url = "https://x.example/$(reboot)/"', "holds '$' '(' ')'"),
    ('base_url = "https://x.example/;reboot;/"', "holds ';'"),
    ('base_url = "https://x.example/{__import__(0)}/"', "holds '(' ')' '{' '}'"),
    ("base_url = 'https://x.example/a\"b/'", "holds '\"'"),
    ('base_url = "https://me:secret@x.example/"', "names a user or password"),
    ('base_url = "https:///book/"', "has no host name"),
    ('edit_url = "https://x.example/`id`/{file}"', "holds '`'")])
def test_a_wrong_base_or_edit_url_stops_the_build(book, tmp_path, line, message):
    toml = book / "book.toml"
    toml.write_text(line + "\n" + toml.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(BuildError) as err:
        build(book, tmp_path / "site", log=quiet)
    assert "book.toml:1: " in str(err.value) and message in str(err.value)


def test_plain_addresses_with_a_port_and_an_edit_query_are_accepted(book, tmp_path):
    toml = book / "book.toml"
    toml.write_text('base_url = "http://books.example:8080/~me/t%C3%BCbingen/v1.2/"\n'
                    'edit_url = "https://bitbucket.org/me/b/src/main/book/{file}?mode=edit"\n'
                    + toml.read_text(encoding="utf-8"), encoding="utf-8")
    build(book, tmp_path / "site", log=quiet)
    page = (tmp_path / "site" / "a.html").read_text(encoding="utf-8")
    assert 'href="http://books.example:8080/~me/t%C3%BCbingen/v1.2/a.html"' in page
    assert 'href="https://bitbucket.org/me/b/src/main/book/a.md?mode=edit"' in page
