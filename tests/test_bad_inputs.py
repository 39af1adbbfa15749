"""The bad-input corpus: every malformed book stops the build with `file:line: message`.

Layout of tests/bad_inputs/:
  _shared/                 a small good book (book.toml, a.md, b.md, images/angle.svg)
  NN-name/book/...         the case's files; without its own book.toml a case is the shared
                           book with these files added or replaced, with one it is the whole book
  NN-name/expected.txt     the fragment `file:line: message` (or `file: message`) that
                           str(BuildError) must contain

Each case must raise BuildError (never another exception) and leave a previous site/ as it was
(no entry written, renamed or touched after any case; byte for byte at the end); a few run
through the command line too (exit 1, message on stderr, no traceback).
"""
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bookbuild.errors import BuildError
from bookbuild.pipeline import build

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "bad_inputs"
SHARED = CORPUS / "_shared"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and re.match(r"\d+-", p.name))
CLI_CASES = ["01-unclosed-widget-block", "32-book-toml-syntax", "46-invalid-utf8", "51-image-missing"]
FRAGMENT = re.compile(r"^[\w.-]+\.(md|toml|bib)(:\d+)?: \S")


def quiet(*_):
    pass


def tree_digest(folder):
    h = hashlib.sha256()
    for p in sorted(Path(folder).rglob("*")):
        h.update(p.relative_to(folder).as_posix().encode() + b"\0")
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def snapshot(folder):
    """Cheap per-case check: any write, rename or replacement changes an inode, size or mtime."""
    entries = [Path(folder)] + sorted(Path(folder).rglob("*"))
    return [(p.as_posix(), p.stat().st_ino, p.stat().st_size, p.stat().st_mtime_ns) for p in entries]


def make_book(case, dest):
    """The case's book in dest (see the module docstring)."""
    own = CORPUS / case / "book"
    if not (own / "book.toml").is_file():
        shutil.copytree(SHARED, dest)
    shutil.copytree(own, dest, dirs_exist_ok=True)
    return dest


def expected(case):
    return (CORPUS / case / "expected.txt").read_text(encoding="utf-8").strip()


def contains_fragment(message, fragment):
    """fragment at the start of message or right after a '/' (b.md:3 must not match ab.md:3)."""
    return message.startswith(fragment) or "/" + fragment in message


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A good site built from the shared book, and its digest: every failed build must leave it."""
    out = tmp_path_factory.mktemp("previous") / "site"
    build(SHARED, out, log=quiet)
    return out, tree_digest(out), snapshot(out)


def test_corpus_is_complete_and_regular():
    assert len(CASES) >= 30
    for case in CASES:
        assert (CORPUS / case / "book").is_dir(), case
        assert FRAGMENT.match(expected(case)), f"{case}/expected.txt: write `file:line: message`"


def test_the_shared_book_builds_and_copies_its_images(site):
    out = site[0]
    assert (out / "images" / "angle.svg").read_bytes() == (SHARED / "images" / "angle.svg").read_bytes()
    # the address carries the file's content hash: a changed image is a new URL
    svg = hashlib.sha256((SHARED / "images" / "angle.svg").read_bytes()).hexdigest()[:12]
    assert f'src="images/angle.svg?v={svg}"' in (out / "a.html").read_text(encoding="utf-8")
    page = (out / "b.html").read_text(encoding="utf-8")
    photo = (HERE.parent / "assets" / "images" / "photo-224.png").read_bytes()
    assert f'src="assets/images/photo-224.png?v={hashlib.sha256(photo).hexdigest()[:12]}"' in page
    assert (out / "assets" / "images" / "photo-224.png").is_file()


@pytest.mark.parametrize("case", CASES)
def test_bad_input_stops_the_build_with_file_and_line(tmp_path, site, case):
    out, _, before = site
    book = make_book(case, tmp_path / "book")
    with pytest.raises(BuildError) as err:
        build(book, out, log=quiet)
    assert contains_fragment(str(err.value), expected(case)), \
        f"{case}: expected {expected(case)!r} in the message, got:\n{err.value}"
    assert snapshot(out) == before, f"{case}: the failed build changed the previous site"
    assert [p.name for p in out.parent.iterdir()] == ["site"], "a failed build left files behind"


@pytest.mark.parametrize("case", CLI_CASES)
def test_command_line_exits_1_with_the_message(tmp_path, site, case):
    out, digest, _ = site
    book = make_book(case, tmp_path / "book")
    run = subprocess.run([sys.executable, str(HERE.parent / "build.py"), "--book", str(book),
                          "--out", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    first = run.stderr.splitlines()[0]
    assert first.startswith("error: book/") and contains_fragment(first[len("error: "):], expected(case)), \
        run.stderr
    assert "Traceback" not in run.stderr
    assert tree_digest(out) == digest


def test_previous_site_is_byte_for_byte_unchanged(site):
    """Runs after the cases above (pytest keeps file order): every byte is still the same."""
    out, digest, _ = site
    assert tree_digest(out) == digest
