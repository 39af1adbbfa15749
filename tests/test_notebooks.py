"""The notebooks and the pycore wheel: every generated notebook is valid nbformat, installs the
site's wheel with its own first cell, runs without an error in a real Jupyter kernel, and
shows the numbers pycore's view gives in this process, at the blocks' parameters and at moved
ones. The wheel is checked as an installer would (RECORD hashes, metadata)."""
import base64
import csv
import hashlib
import html
import io
import json
import re
import time
import zipfile
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from bookbuild import lessons  # noqa: E402
from bookbuild.renderers import notebooks  # noqa: E402
from bookbuild.renderers.output import ON_DEMAND  # noqa: E402
from bookbuild.pipeline import build  # noqa: E402
from pycore.widgets import compute, module, validate  # noqa: E402
from tests.notebook_kernel import Kernel, errors, view_outputs  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# For every widget with a lesson, parameters other than its block's, at which its notebook must
# hold too: each lesson's MOVED (pycore/widgets/<widget>/lesson.py).
MOVED = {name: moved for name in lessons.widgets()
         if (moved := getattr(lessons.load(name), "MOVED", None)) is not None}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the site, the book as the build loaded it)."""
    out = tmp_path_factory.mktemp("nb") / "site"
    book = build(ROOT / "book", out, log=lambda *a: None)
    return out, book


@pytest.fixture(scope="module")
def site(built):
    return built[0]


@pytest.fixture(scope="module")
def book_widgets(built):
    """{widget id: (name, params, chapter page)} as the chapter pages carry them (data-params);
    the pages are the chapters of book/book.toml, in the build's order."""
    site, book = built
    found = {}
    for chapter in book.chapters:
        text = (site / chapter.href).read_text(encoding="utf-8")
        for m in re.finditer(r'<figure class="widget" id="([^"]+)" data-widget="([^"]+)"'
                             r'[^>]*?data-params="([^"]*)"', text):
            found[m.group(1)] = (m.group(2), json.loads(html.unescape(m.group(3))), chapter.href)
    return found


def moved_params(name, params):
    """MOVED's parameters of a widget, or a failure that says what to add."""
    if name not in MOVED:
        spec = module(name).PARAMS
        # a starting point: each choice at its last value, the rest at their defaults
        start = {k: s["choices"][-1] if s["type"] == "choice" else s["default"]
                 for k, s in spec.items()}
        where = lessons.path_of(name).relative_to(ROOT).as_posix()
        pytest.fail(f"widget {name!r} has no lesson with MOVED parameters: write {where} "
                    "(python build.py new-widget writes one; bookbuild/lessons/__init__.py "
                    "says what it holds), with a line like\n"
                    f"MOVED = {notebooks.py_literal(start)}\n"
                    f"with a value for every parameter of pycore/widgets/"
                    f"{name.replace('-', '_')}/__init__.py PARAMS ({', '.join(spec)}), valid and other "
                    f"than the block's {notebooks.py_literal(params)}; keep slow widgets "
                    "cheap (few steps, small sizes)")
    return MOVED[name]


@pytest.fixture(scope="module")
def wheel(site):
    (path,) = (site / "downloads").glob("pycore-*-py3-none-any.whl")
    return path


@pytest.fixture(scope="module")
def kernel(tmp_path_factory, wheel):
    k = Kernel(tmp_path_factory.mktemp("kernel"), wheel)
    yield k
    k.close()


def same_numbers(shown, expected, where):
    """The kernel's printed values against this process's view, float by float."""
    if isinstance(expected, dict):
        assert set(shown) == set(expected), where
        for k in expected:
            same_numbers(shown[k], expected[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert len(shown) == len(expected), where
        for i, (a, b) in enumerate(zip(shown, expected)):
            same_numbers(a, b, f"{where}.{i}")
    elif isinstance(expected, float):
        assert shown == pytest.approx(expected, rel=1e-12, abs=1e-15), where
    else:
        assert shown == expected, where


def test_the_wheel_installs_as_pip_expects(wheel):
    """Name and version agree with the file name, NumPy is its dependency, every file's hash is
    the one RECORD gives, and it holds pycore with its data files (and nothing of the build:
    no widget's template, script, styles or lesson)."""
    version = wheel.name.split("-")[1]
    assert re.fullmatch(r"\d+\.\d+\.\d+\+[0-9a-f]{12}", version)
    assert version == notebooks.wheel_version()
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = f"pycore-{version}.dist-info"
        meta = z.read(f"{info}/METADATA").decode()
        assert "Name: pycore" in meta and f"Version: {version}" in meta
        assert re.search(r"^Requires-Dist: numpy>=2\.0$", meta, re.M)
        assert "Root-Is-Purelib: true" in z.read(f"{info}/WHEEL").decode()
        rows = list(csv.reader(io.StringIO(z.read(f"{info}/RECORD").decode())))
        assert {r[0] for r in rows} == names
        for path, digest, size in rows:
            if path.endswith("RECORD"):
                continue
            data = z.read(path)
            algo, value = digest.split("=", 1)
            assert algo == "sha256" and int(size) == len(data), path
            assert base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=") \
                .decode() == value, path
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pycore").rglob("*.py")}
    lesson_files = {s for s in sources if s.endswith("/lesson.py")}
    assert len(lesson_files) > 30 and sources - lesson_files <= names
    assert "pycore/widgets/softmax/__init__.py" in names
    assert not [n for n in names if n.startswith("pycore/widgets/") and n.endswith(
        ("/lesson.py", "/template.html", "/widget.js", "/widget.css"))]
    assert {"pycore/photo224.rgb", "pycore/gpt_weights.npz", "pycore/gpt_weights.json"} <= names
    assert not any(n.startswith("bookbuild") for n in names)


def test_the_wheel_is_built_once_per_content(tmp_path, monkeypatch, wheel):
    """A build finds the wheel of the same pycore in its cache folder and builds nothing."""
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / wheel.name).write_bytes(wheel.read_bytes())

    def no_build(version):
        raise AssertionError("built again")
    monkeypatch.setattr(notebooks, "_build_wheel_bytes", no_build)
    rel = notebooks.build_wheel(tmp_path / "site" / "downloads", cache)
    assert rel == f"downloads/{wheel.name}"
    assert (tmp_path / "site" / rel).read_bytes() == wheel.read_bytes()
    (cache / wheel.name).unlink()  # not there: built (here: refused)
    with pytest.raises(AssertionError, match="built again"):
        notebooks.build_wheel(tmp_path / "again", cache)


def test_a_notebook_per_chapter_and_per_widget(built, book_widgets):
    """One notebook per chapter with widgets and one per widget: the widgets as the pages show
    them, and as the build compiled them from the chapters."""
    site, book = built
    have = {p.stem for p in (site / "notebooks").glob("*.ipynb")}
    chapters = {page[:-5] for _, _, page in book_widgets.values()}
    assert have == chapters | set(book_widgets)
    assert set(book_widgets) == {w["id"] for c in book.chapters for w in c.widgets}
    assert chapters == {c.slug for c in book.chapters if c.widgets}


def test_every_widget_has_moved_parameters(book_widgets):
    """MOVED holds, for every widget of the book, valid parameters other than its block's, and
    names no widget the book does not have."""
    names = {name for name, _, _ in book_widgets.values()}
    assert set(MOVED) <= names, f"MOVED names widgets the book has not: {set(MOVED) - names}"
    for wid, (name, params, _) in sorted(book_widgets.items()):
        moved = moved_params(name, params)
        assert validate(name, moved) == moved, f"{name}: give MOVED every parameter, checked"
        assert validate(name, moved) != validate(name, params), f"{name}: MOVED = the block's"


def test_pages_offer_their_notebooks(site, book_widgets, wheel):
    """Each widget's button names its notebook; each chapter with widgets links its own; the
    landing page offers the wheel."""
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="downloads/{wheel.name}" download' in index
    for wid, (_, _, page) in book_widgets.items():
        text = (site / page).read_text(encoding="utf-8")
        assert f'data-notebook="notebooks/{wid}.ipynb"' in text
        assert f'href="notebooks/{page[:-5]}.ipynb" download' in text
        assert f'data-notebook="notebooks/{wid}.ipynb"' in \
            (site / f"embed-{wid}.html").read_text(encoding="utf-8")
    # a page without widgets links none (every chapter of the book has widgets now)
    assert "notebooks/" not in (site / "bibliography.html").read_text(encoding="utf-8")


def test_every_notebook_is_valid_nbformat(site):
    paths = sorted((site / "notebooks").glob("*.ipynb"))
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)  # raises ValidationError
        assert nb.metadata.kernelspec.name == "python3"
        first = [c for c in nb.cells if c.cell_type == "code"][0]
        assert first.metadata.tbook.role == "install"


def test_widget_notebooks_carry_the_blocks_parameters(site, book_widgets):
    for wid, (name, params, page) in book_widgets.items():
        nb = nbformat.read(site / "notebooks" / f"{wid}.ipynb", as_version=4)
        (cell,) = [c for c in nb.cells if c.metadata.get("tbook", {}).get("role") == "params"]
        assert cell.metadata.tbook.widget == wid
        assert cell.source == f"params = {notebooks.py_literal(params)}"
        assert f"`{page}`" in nb.cells[4].source  # where in the book it is


def test_the_install_cell_without_and_with_a_base_url():
    wheel = "downloads/pycore-0.1.0+0123456789ab-py3-none-any.whl"
    local = notebooks.install_source(wheel, "")
    assert local.splitlines()[-1] == "%pip install pycore-0.1.0+0123456789ab-py3-none-any.whl"
    assert "下载" in local  # says where to get the file
    assert notebooks.install_source(wheel, "https://example.org/book/") == \
        f"%pip install https://example.org/book/{wheel}"
    # %pip hands its line to a shell: an address with shell syntax (book.toml refuses one,
    # bookbuild/stages/load.py) would still be one quoted argument
    assert notebooks.install_source(wheel, "https://x.example/$(reboot)/") == \
        f"%pip install 'https://x.example/$(reboot)/{wheel}'"


def test_with_a_base_url_a_notebook_links_the_widget_in_the_book():
    w = {"name": "softmax", "id": "softmax-02-softmax", "params": {"logits": [1.0, 0.0],
                                                                   "temperature": 2.0}}
    about, params = notebooks.widget_cells(w, "02-softmax.html", "https://example.org/b/")[:2]
    assert "[书中的这一处](https://example.org/b/02-softmax.html#softmax-02-softmax)" in \
        "".join(about["source"])
    assert "".join(params["source"]) == 'params = {"logits": [1.0, 0.0], "temperature": 2.0}'
    without = notebooks.widget_cells(w, "02-softmax.html", "")[0]
    assert "书中 `02-softmax.html` 的小部件 `softmax-02-softmax`" in "".join(without["source"])


def test_titles_with_markup_show_as_text_in_the_markdown_cells(tmp_path):
    """Jupyter renders the HTML in a markdown cell: the book's title and a chapter heading that
    hold markup (escaped in the Markdown, so the pages show it as text) are text there too."""
    import shutil

    from markdown_it import MarkdownIt
    book = Path(shutil.copytree(ROOT / "tests" / "bad_inputs" / "_shared", tmp_path / "book"))
    evil_book = "书 <img src=x onerror=alert(1)> & [点我](javascript:alert(2))"
    evil_chapter = "注意力 <img src=x onerror=alert(3)> *a*_b_"
    toml = book / "book.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('title = "坏输入样书"',
                                                             f'title = "{evil_book}"', 1),
                    encoding="utf-8")
    b = book / "b.md"
    heading = "# 注意力 &lt;img src=x onerror=alert(3)&gt; \\*a\\*\\_b\\_"  # Markdown: *a*_b_
    b.write_text(b.read_text(encoding="utf-8").replace("# 注意力", heading, 1), encoding="utf-8")
    build(book, tmp_path / "site", log=lambda *a: None)
    md = MarkdownIt("commonmark")  # renders HTML in Markdown, as Jupyter does
    shown = {}
    for path in sorted((tmp_path / "site" / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for c in nb["cells"]:
            if c["cell_type"] == "markdown":
                out = md.render("".join(c["source"]))
                assert "<img" not in out and "<a " not in out and "<em>" not in out, (path, out)
        first = md.render("".join(nb["cells"][0]["source"])).split("\n")
        shown[path.stem] = [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in first]
    # each reads as written: the chapter's title, then the book's title in the intro
    assert shown["b"][0] == evil_chapter and f"《{evil_book}》{evil_chapter}" in shown["b"][1]
    assert shown["a"][0] == "向量与点积" and f"《{evil_book}》向量与点积" in shown["a"][1]


def test_notebooks_and_the_wheel_are_not_precached(site):
    sw = (site / "sw.js").read_text(encoding="utf-8")
    assert ".ipynb" not in sw and "downloads/pycore" not in sw
    assert ON_DEMAND.search("notebooks/04-attention.ipynb")
    assert ON_DEMAND.search("downloads/pycore-0.1.0+0123456789ab-py3-none-any.whl")


def test_notebooks_run_in_a_kernel_and_show_pycores_numbers(site, book_widgets, kernel):
    """Every chapter notebook at the blocks' parameters, then every widget notebook at moved
    ones (MOVED), all in the kernel whose pycore is the wheel the first notebook installed."""
    start = time.perf_counter()
    chapters = sorted({page[:-5] for _, _, page in book_widgets.values()})
    seen = {}
    for slug in chapters:
        nb = kernel.run(nbformat.read(site / "notebooks" / f"{slug}.ipynb", as_version=4))
        assert not errors(nb), (slug, errors(nb))
        for name, params, shown in view_outputs(nb):
            view = compute(name, params)
            same_numbers(shown, {k: view[k] for k in shown}, f"{slug}:{name}")
            seen[name] = seen.get(name, 0) + 1
    assert sum(seen.values()) == len(book_widgets)
    assert "/venv/" in kernel.pycore_file()  # the wheel's pycore, not the worktree's
    for wid, (name, params, _) in sorted(book_widgets.items()):
        nb = nbformat.read(site / "notebooks" / f"{wid}.ipynb", as_version=4)
        moved = moved_params(name, params)
        assert moved != params, name
        for cell in nb.cells:
            if cell.metadata.get("tbook", {}).get("role") == "params":
                cell.source = f"params = {notebooks.py_literal(moved)}"
        nb = kernel.run(nb)
        assert not errors(nb), (wid, errors(nb))
        ((shown_name, shown_params, shown),) = view_outputs(nb)
        assert (shown_name, shown_params) == (name, moved)
        view = compute(name, moved)
        same_numbers(shown, {k: view[k] for k in shown}, f"{wid} moved")
        steps = [c for c in nb.cells if c.metadata.get("tbook", {}).get("role") == "step"]
        assert steps, (f"{wid}: the notebook teaches nothing: give lesson() in "
                       f"{lessons.path_of(name).relative_to(ROOT).as_posix()} 1-2 steps that "
                       "recompute its numbers")
        assert all("✓ 与小部件一致" in "".join(o.get("text", "") for o in c.outputs)
                   for c in steps if "same(" in c.source), wid
    print(f"{len(chapters) + len(book_widgets)} notebooks in "
          f"{time.perf_counter() - start:.1f} s")


def test_a_failing_step_fails_the_notebook(site, kernel):
    """same() is a real check: a widget number changed by hand stops the notebook."""
    nb = nbformat.read(site / "notebooks" / "softmax-02-softmax.ipynb", as_version=4)
    view_cell = [c for c in nb.cells if c.metadata.get("tbook", {}).get("role") == "view"][0]
    view_cell.source += "\nview[\"probs\"][0] += 1e-6"
    with pytest.raises(Exception) as failed:
        kernel.run(nb)
    assert "AssertionError" in str(failed.value)
