"""`python build.py new-widget <name>`, run in a temporary copy of the repository's layout: the
four parts appear, nothing is overwritten, the generated widget builds, and the generated
browser test fails with the message that says what to write."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bookbuild.errors import BuildError
from bookbuild.tools.scaffold import block, check_name, new_widget

REPO = Path(__file__).resolve().parent.parent
MESSAGE = ("write the real assertions for layer-norm: move the widget and compare with "
           "pycore_view(...)")


@pytest.fixture
def repo(tmp_path):
    """The parts of the repository the build and the browser tests read, and a two-chapter book."""
    root = tmp_path / "repo"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules")
    for folder in ("bookbuild", "pycore", "templates", "assets"):
        shutil.copytree(REPO / folder, root / folder, ignore=skip)
    for file in ("build.py", "pyproject.toml", "tests/__init__.py", "tests/browser/__init__.py",
                 "tests/browser/conftest.py", "tests/browser/harness.py",
                 "tests/browser/settle.py"):
        (root / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / file, root / file)
    shutil.copytree(REPO / "tests" / "bad_inputs" / "_shared", root / "book")
    return root


def run(root, *args):
    return subprocess.run([sys.executable, *args], cwd=root, capture_output=True, text=True,
                          timeout=120)


def digest(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


PARTS = ["pycore/widgets/layer_norm/__init__.py", "pycore/widgets/layer_norm/template.html",
         "pycore/widgets/layer_norm/widget.js", "tests/browser/test_layer_norm.py",
         "pycore/widgets/layer_norm/lesson.py"]


@pytest.mark.parametrize("bad", ["Layer", "1abc", "layer_norm", "a--b", "-a", "a-", "", "注意",
                                 "a b", "a/b", "../x"])
def test_names_are_lowercase_words_joined_by_dashes(tmp_path, bad):
    with pytest.raises(BuildError, match="use lowercase letters and digits"):
        new_widget(bad, root=tmp_path, log=lambda *a: None)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("good", ["layer-norm", "x2", "rope3d", "top-k-sampling"])
def test_good_names(good):
    assert check_name(good) == good


def test_new_widget_builds_goes_into_chapters_and_its_test_fails(repo):
    log = []
    created = new_widget("layer-norm", root=repo, chapter="book/b.md", log=log.append)
    assert [p.relative_to(repo).as_posix() for p in created] == PARTS
    assert all((repo / p).is_file() for p in PARTS)
    assert (repo / "book" / "b.md").read_text(encoding="utf-8").endswith(
        "\n\n```widget layer-norm\nx = 0.5\n```\n")
    assert any("appended the layer-norm block to book/b.md" in line for line in log)

    # the command line, and a chapter that does not exist yet: a scratch chapter of the book
    cli = run(repo, "build.py", "new-widget", "gate2", "--chapter", "book/99-scratch.md")
    assert cli.returncode == 0, cli.stderr
    assert "created the scratch chapter book/99-scratch.md" in cli.stdout
    scratch = (repo / "book" / "99-scratch.md").read_text(encoding="utf-8")
    assert scratch.startswith("# 草稿：gate2\n") and "```widget gate2\n" in scratch
    assert 'chapters = ["99-scratch.md"]' in (repo / "book" / "book.toml").read_text(encoding="utf-8")

    built = run(repo, "build.py", "--book", "book", "--out", "site")
    assert built.returncode == 0, built.stderr
    page = (repo / "site" / "b.html").read_text(encoding="utf-8")
    figure = re.search(r'<figure class="widget" id="layer-norm-b" data-widget="layer-norm".*?</figure>',
                       page, re.S)
    assert figure, "the layer-norm widget is not on the page"
    assert 'data-bind="x" data-digits="2">0.50<' in figure.group(0)
    assert 'data-bind="square" data-digits="4">0.2500<' in figure.group(0)  # 0.5 squared
    assert 'data-widget="gate2"' in (repo / "site" / "99-scratch.html").read_text(encoding="utf-8")
    assert (repo / "site" / "assets" / "widgets" / "layer-norm.js").is_file()
    # its notebook teaches the generated lesson's step, and the lesson holds at its MOVED
    notebook = json.loads((repo / "site" / "notebooks" / "layer-norm-b.ipynb").read_text(
        encoding="utf-8"))
    steps = [c for c in notebook["cells"] if c["metadata"].get("tbook", {}).get("role") == "step"]
    assert ["".join(c["source"]) for c in steps] == [
        'x = params["x"]\nprint(f"x² = {x * x:.4f}")\nsame(x * x, view["square"])']
    ran = run(repo, "-c", "import numpy as np; from bookbuild import lessons; "
                          "from pycore.widgets import compute, validate; "
                          "m = lessons.load('layer-norm'); "
                          "assert validate('layer-norm', m.MOVED) == m.MOVED != {'x': 0.5}; "
                          "m.lesson(m.MOVED, compute('layer-norm', m.MOVED), "
                          "lambda mine, shown: print('same', np.allclose(mine, shown)))")
    assert ran.returncode == 0 and "x² = 0.0625\nsame True" in ran.stdout, ran.stderr
    if shutil.which("node"):
        checked = subprocess.run(["node", "--check", str(repo / PARTS[2])], capture_output=True,
                                 text=True)
        assert checked.returncode == 0, checked.stderr

    tested = run(repo, "-m", "pytest", "-q", "-p", "no:cacheprovider", PARTS[3])
    assert tested.returncode == 1, tested.stdout
    assert MESSAGE in tested.stdout, tested.stdout


def test_nothing_is_overwritten(repo):
    new_widget("layer-norm", root=repo, log=lambda *a: None)
    (repo / PARTS[0]).write_text("# edited by hand\n", encoding="utf-8")
    before = digest(repo)
    with pytest.raises(BuildError, match=r"already has pycore/widgets/layer_norm/__init__\.py, "
                                         r"pycore/widgets/layer_norm/template\.html"):
        new_widget("layer-norm", root=repo, log=lambda *a: None)
    with pytest.raises(BuildError,
                       match=r"widget softmax already has pycore/widgets/softmax/__init__\.py"):
        new_widget("softmax", root=repo, log=lambda *a: None)
    (repo / "pycore" / "widgets" / "gate").mkdir()
    (repo / "pycore" / "widgets" / "gate" / "widget.js").write_text("// a leftover\n", encoding="utf-8")
    with pytest.raises(BuildError,
                       match=r"already has pycore/widgets/gate/widget\.js; nothing was written"):
        new_widget("gate", root=repo, log=lambda *a: None)
    assert not (repo / "pycore" / "widgets" / "gate" / "__init__.py").exists()
    assert digest(repo) == {**before, "pycore/widgets/gate/widget.js": b"// a leftover\n"}


def test_without_a_chapter_the_block_is_printed(repo):
    book = digest(repo / "book")
    log = []
    new_widget("gate", root=repo, log=log.append)
    assert block("gate") == "```widget gate\nx = 0.5\n```\n"
    assert any(block("gate") in line for line in log)
    assert digest(repo / "book") == book


def test_chapter_must_be_in_book(repo):
    with pytest.raises(BuildError, match="give a chapter file in book/"):
        new_widget("gate", root=repo, chapter="pycore/notes.md", log=lambda *a: None)
    assert not (repo / "pycore" / "widgets" / "gate").exists()


def test_command_line_errors_exit_1_without_traceback(repo):
    bad = run(repo, "build.py", "new-widget", "Bad_Name")
    assert bad.returncode == 1 and bad.stderr.startswith("error: widget name 'Bad_Name'")
    assert "Traceback" not in bad.stderr
    missing = run(repo, "build.py", "new-widget")
    assert missing.returncode == 2 and "new-widget takes a widget name" in missing.stderr
