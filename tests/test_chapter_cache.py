"""The compiled-chapter cache on disk: a hit gives the same site without parsing, an edit
recompiles only its chapter, a changed build or a deleted image is never hidden by a record."""
import shutil
from pathlib import Path

import pytest

from bookbuild import chapter_cache
from bookbuild.stages import markdown
from bookbuild.errors import BuildError
from bookbuild.pipeline import build

from tests.test_build import MINIBOOK, quiet, tree_digest

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A copy of the sample book with an image, and an empty chapter cache of its own."""
    monkeypatch.setattr(chapter_cache, "folder", lambda: tmp_path / "chapters")
    root = tmp_path / "book"
    shutil.copytree(MINIBOOK, root)
    (root / "images").mkdir()
    (root / "images" / "dot.png").write_bytes(PNG)
    with open(root / "b.md", "a", encoding="utf-8") as f:
        f.write("\n\n![一个点](images/dot.png)\n")
    return root


@pytest.fixture
def parses(monkeypatch):
    """The chapters markdown-it parsed, in order (a cached chapter is not parsed)."""
    seen = []
    make_parser = markdown.make_parser

    def counting_parser():
        md = make_parser()
        parse = md.parse
        md.parse = lambda src, env=None: seen.append(src.split("\n", 1)[0]) or parse(src, env)
        return md
    monkeypatch.setattr(markdown, "make_parser", counting_parser)
    return seen


def test_a_second_build_comes_from_the_cache_and_is_identical(book, tmp_path, parses):
    build(book, tmp_path / "one", log=quiet)
    assert len(parses) == 2
    assert len(list((tmp_path / "chapters").glob("*.json"))) == 2
    build(book, tmp_path / "two", log=quiet)
    assert len(parses) == 2  # nothing parsed again
    assert tree_digest(tmp_path / "one") == tree_digest(tmp_path / "two")


def test_an_edit_recompiles_only_its_chapter(book, tmp_path, parses):
    build(book, tmp_path / "site", log=quiet)
    a = book / "a.md"
    a.write_text(a.read_text(encoding="utf-8") + "\n\n新加的一段。\n", encoding="utf-8")
    build(book, tmp_path / "site", log=quiet)
    assert parses[2:] == [a.read_text(encoding="utf-8").split("\n", 1)[0]]
    assert "新加的一段" in (tmp_path / "site" / "a.html").read_text(encoding="utf-8")


def test_a_change_to_the_build_misses_every_record(book, tmp_path, parses, monkeypatch):
    build(book, tmp_path / "site", log=quiet)
    fingerprint = chapter_cache.fingerprint()
    monkeypatch.setattr(chapter_cache, "fingerprint", lambda: fingerprint + "-changed")
    build(book, tmp_path / "site", log=quiet)
    assert len(parses) == 4


def test_the_fingerprint_follows_the_templates(monkeypatch, tmp_path):
    before = chapter_cache.fingerprint()
    fake_root = tmp_path / "root"
    for top in chapter_cache.SOURCES:
        shutil.copytree(chapter_cache.ROOT / top, fake_root / top,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(chapter_cache, "ROOT", fake_root)
    assert chapter_cache.fingerprint() == before
    # a widget's script and styles reach no compiled chapter: the page loads them
    for part in ("widget.js", "widget.css"):
        path = fake_root / "pycore" / "widgets" / "rope" / part
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert chapter_cache.fingerprint() == before
    template = fake_root / "pycore" / "widgets" / "rope" / "template.html"
    template.write_text(template.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = chapter_cache.fingerprint()
    assert changed != before
    macros = fake_root / "templates" / "widgets" / "_macros.html"
    macros.write_text(macros.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert chapter_cache.fingerprint() not in (before, changed)


def test_a_deleted_image_is_still_reported(book, tmp_path):
    build(book, tmp_path / "site", log=quiet)
    before = tree_digest(tmp_path / "site")
    (book / "images" / "dot.png").unlink()
    with pytest.raises(BuildError) as e:
        build(book, tmp_path / "site", log=quiet)
    line = (book / "b.md").read_text(encoding="utf-8").split("\n").index("![一个点](images/dot.png)") + 1
    assert str(e.value).startswith(f"{book / 'b.md'}:{line}:")
    assert tree_digest(tmp_path / "site") == before


def test_an_unreadable_record_is_compiled_again(book, tmp_path, parses):
    build(book, tmp_path / "site", log=quiet)
    for record in (tmp_path / "chapters").glob("*.json"):
        record.write_text("{not json", encoding="utf-8")
    build(book, tmp_path / "site", log=quiet)
    assert len(parses) == 4
    assert Path(tmp_path / "site" / "b.html").is_file()


def test_the_preview_renders_again_only_the_pages_whose_inputs_changed(book, tmp_path):
    cache, out = {}, tmp_path / "site"
    build(book, out, log=quiet, cache=cache)
    first = dict(cache["pages"])
    parts = lambda key: tuple(key.split("\0"))  # noqa: E731
    page_of = lambda pages, i: {parts(k)[1:3] for k in pages  # noqa: E731
                                if parts(k)[1] in ("page", "embed") and parts(k)[2] == str(i)}
    assert page_of(first, 0) and page_of(first, 1)

    a = book / "a.md"
    a.write_text(a.read_text(encoding="utf-8") + "\n\n只改正文。\n", encoding="utf-8")
    build(book, out, log=quiet, cache=cache)
    kept = {k for k in cache["pages"] if k in first}
    # b, the index and the offline page reused
    assert {parts(k)[1:3] for k in kept} == page_of(first, 1) | {("index", "()"), ("offline",)}
    assert "只改正文" in (out / "a.html").read_text(encoding="utf-8")

    text = a.read_text(encoding="utf-8")
    title = next(line for line in text.split("\n") if line.startswith("# "))
    a.write_text(text.replace(title, title + "（新标题）", 1), encoding="utf-8")
    before = dict(cache["pages"])
    build(book, out, log=quiet, cache=cache)
    assert not set(cache["pages"]) & set(before)  # every page lists the chapters: all again
    assert "（新标题）" in (out / "b.html").read_text(encoding="utf-8")


def test_a_deleted_image_is_reported_by_the_preview_too(book, tmp_path):
    cache = {}
    build(book, tmp_path / "site", log=quiet, cache=cache)
    (book / "images" / "dot.png").unlink()
    with pytest.raises(BuildError, match="dot.png"):
        build(book, tmp_path / "site", log=quiet, cache=cache)
