"""The book's symbols (pycore/notation.py SYMBOLS) against the chapters' formulas: each listed
symbol appears in exactly the chapters the list gives, first in the chapter that introduces it;
a retired meaning (the vocabulary as V, warmup as W, ...) appears nowhere; every known
exception (a widget's label the prose must match) is still there, so none outlives its cause."""
import re
from pathlib import Path

import pytest

from pycore import notation

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"


def formulas(text):
    """The TeX of every $...$ and $$...$$ of a chapter, code blocks left out."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [a or b for a, b in re.findall(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", text, re.S)]


def chapter_formulas():
    """{chapter number ("04", "13b"): its formulas, less the ones PENDING excuses}."""
    out = {}
    for path in sorted(BOOK.glob("[0-9]*.md")):
        number = path.stem.split("-")[0]
        excused = [p for c, p, _ in notation.PENDING if c == number]
        out[number] = [f for f in formulas(path.read_text(encoding="utf-8"))
                       if not any(re.search(p, f.strip()) for p in excused)]
    return out


def test_each_symbol_is_used_where_the_list_says():
    found = chapter_formulas()
    for tex, meaning, pattern, chapters in notation.SYMBOLS:
        where = tuple(c for c, fs in found.items() if any(re.search(pattern, f) for f in fs))
        assert where == chapters, (
            f"pycore/notation.py: {tex} ({meaning}) is used in chapters {where}, the list says "
            f"{chapters}: in a new chapter with the same meaning, add it; with another meaning, "
            f"use another letter")


def test_no_retired_meaning_comes_back():
    for number, fs in chapter_formulas().items():
        for pattern, what in notation.RETIRED:
            hits = [f for f in fs if re.search(pattern, f)]
            assert not hits, f"chapter {number}: {what} in {hits[0]!r}; see pycore/notation.py"


def test_every_exception_is_still_needed():
    for number, pattern, what in notation.PENDING:
        path = next(BOOK.glob(f"{number}-*.md"))
        assert any(re.search(pattern, f.strip()) for f in formulas(path.read_text("utf-8"))), \
            f"{path.name} no longer has {what}: remove it from pycore/notation.py PENDING"
    for template, label, should in notation.WIDGET_LABELS:
        assert label in (ROOT / template).read_text(encoding="utf-8"), \
            f"{template} no longer says {label!r}: remove it from notation.WIDGET_LABELS"


def widget_files():
    return sorted(f for pattern in notation.WIDGET_FILES for f in ROOT.glob(pattern))


def test_no_retired_label_comes_back_in_a_widget():
    files = widget_files()
    assert len(files) > 100  # the globs still find the widgets' files
    excused = {(template, label) for template, label, _ in notation.WIDGET_LABELS}
    for label, should in notation.RETIRED_LABELS:
        for path in files:
            name = path.relative_to(ROOT).as_posix()
            assert (name, label) in excused or label not in path.read_text(encoding="utf-8"), \
                f"{name}: writes {label!r}, the book writes {should!r} (pycore/notation.py)"


def test_every_label_still_to_change_is_a_retired_one():
    retired = {label for label, _ in notation.RETIRED_LABELS}
    for template, label, _ in notation.WIDGET_LABELS:
        assert label in retired, f"{template}: add {label!r} to notation.RETIRED_LABELS"


@pytest.mark.parametrize("tex,meaning,pattern,chapters", notation.SYMBOLS)
def test_the_patterns_find_the_symbol_and_not_its_neighbours(tex, meaning, pattern, chapters):
    assert chapters and chapters[0] < "99", f"{tex}: no chapter uses it"
    # a bare letter's pattern leaves alone subscripts, commands and words
    if pattern == notation._bare(tex):
        for other in (f"W_{tex}", f"\\mathcal{{{tex}}}", f"x^{tex}", f"\\text{{a{tex}b}}"):
            assert not re.search(pattern, other), other
        assert re.search(pattern, f"2{tex}+1")


def test_the_notation_page_lists_every_symbol_with_its_first_chapter():
    from bookbuild.stages.load import load_book
    from bookbuild.renderers.pages import notation_entries
    book = load_book(BOOK)
    rows = notation_entries(book)
    assert [r["tex"] for r in rows] == [s[0] for s in notation.SYMBOLS]
    for row, (_, meaning, _, chapters) in zip(rows, notation.SYMBOLS):
        assert row["meaning"] == meaning and row["chapter"].slug.split("-")[0] == chapters[0]
        assert "<math" in row["mathml"] and "merror" not in row["mathml"]
