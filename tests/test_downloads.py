"""The book to take away: the whole book on one page (print.html), its PDF (Chromium) and its
EPUB 3 (checked by epubcheck, Debian's package), offered on the landing page once made."""
import re
import shutil
import subprocess
import zipfile
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bookbuild.renderers import printbook
from bookbuild.errors import BuildError
from bookbuild.pipeline import build
from pycore import notation

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"


def quiet(*_):
    pass


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The book built with its PDF and its EPUB."""
    site = tmp_path_factory.mktemp("downloads") / "site"
    build(BOOK, site, log=quiet, downloads=["pdf", "epub"])
    return site


class Ids(HTMLParser):
    def __init__(self, html):
        super().__init__()
        self.ids, self.hrefs, self.scripts = Counter(), [], 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids[a["id"]] += 1
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        self.scripts += tag == "script"


def test_the_print_page_holds_every_chapter_in_order_with_working_links(made):
    html = (made / "print.html").read_text(encoding="utf-8")
    chapters = re.findall(r'<section class="print-chapter chapter" id="chapter-([^"]+)"', html)
    assert chapters == [p.stem for p in sorted(BOOK.glob("*.md"))]
    page = Ids(html)
    assert page.scripts == 0
    assert [i for i, n in page.ids.items() if n > 1] == []  # every chapter's ids made its own
    inner = [h[1:] for h in page.hrefs if h.startswith("#")]
    assert len(inner) > 100
    assert [h for h in inner if h not in page.ids] == []
    assert not [h for h in page.hrefs if re.match(r"^\d\d-[^/]*\.html", h)]  # no link leaves
    assert 'class="fig-number">图 4.1<' in html and "(4.1)" in html
    assert "print.html" not in (made / "sw.js").read_text(encoding="utf-8")  # not precached


def test_the_pdf_is_printed_by_chromium(made):
    pdf = (made / "book.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages >= 40, f"{pages} pages"
    index = (made / "index.html").read_text(encoding="utf-8")
    assert 'href="book.pdf" download>PDF<' in index and 'href="book.epub" download>EPUB<' in index
    assert "book.pdf" not in (made / "sw.js").read_text(encoding="utf-8")


def test_without_chromium_pdf_says_how_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CHROMIUM", raising=False)
    with pytest.raises(BuildError, match="no Chromium found to print the PDF with: install one"):
        printbook.find_chromium()


def test_the_epub_is_valid_epub_3_in_chinese_with_mathml_and_svg(made):
    path = made / "book.epub"
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert names[0] == "mimetype" and z.read("mimetype") == b"application/epub+zip"
        opf = z.read(next(n for n in names if n.endswith(".opf"))).decode("utf-8")
        chapter = z.read(next(n for n in names if n.endswith("04-attention.xhtml"))).decode("utf-8")
        symbols = z.read(next(n for n in names if n.endswith("notation.xhtml"))).decode("utf-8")
    assert "<dc:language>zh-CN</dc:language>" in opf and "交互式 Transformer" in opf
    assert re.search(r'href="04-attention\.xhtml"[^>]*properties="[^"]*mathml[^"]*svg', opf) or \
        re.search(r'properties="mathml svg"', opf)
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML"' in chapter
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in chapter
    assert "<button" not in chapter and "<input" not in chapter  # a static figure
    assert "glossary.xhtml" in opf and "bibliography.xhtml" in opf
    # the notation page, every symbol of pycore/notation.py as MathML, its chapters' links kept
    assert re.search(r'<item [^>]*href="notation\.xhtml"[^>]*properties="mathml"', opf)
    assert "<h1>符号表</h1>" in symbols
    assert symbols.count("<tr><td><math") == len(notation.SYMBOLS)
    assert 'href="04-attention.xhtml"' in symbols  # s_max, where it is introduced
    assert '<itemref idref="ch-notation"' in opf  # in the reading order
    checker = shutil.which("epubcheck")
    assert checker, "epubcheck is missing: apt-get install epubcheck (CI installs it)"
    run = subprocess.run(["java", "-jar", str(Path(checker).resolve()), str(path)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "No errors or warnings detected" in run.stdout, \
        run.stdout[-3000:] + run.stderr[-2000:]


def test_build_py_takes_pdf_and_epub_and_refuses_anything_else(tmp_path):
    bad = subprocess.run(["python3", str(ROOT / "build.py"), "pdf", "html"], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "pdf and epub may be given together" in bad.stderr
