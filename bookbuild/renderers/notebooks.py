"""The notebooks: pycore as a wheel (site/downloads/), one Jupyter notebook per chapter that
has widgets (site/notebooks/<chapter>.ipynb) and one per widget (site/notebooks/<id>.ipynb).

A widget's notebook is also the template of its "在 Jupyter 中打开" button
(assets/notebook-ui.js): the page fetches it and rewrites the cells marked in their metadata
(`tbook.role`: "params", "install", "about") with the reader's current parameters, the
wheel's address where the book is hosted now and a link to the widget there. Each widget's cells are the view call at its
parameters, then the NumPy under it (its lesson, bookbuild/lessons/<widget>.py).

The wheel is built by setuptools' PEP 517 backend (the project's own build backend) from a copy
of pycore/ with a pyproject of its own: the distribution "pycore", NumPy its one dependency.
Its version carries the content's hash (0.1.0+<hash>), so pip never mistakes a new pycore for
one it has installed already, and the file name changes with it.
"""
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from .. import lessons, widget_parts
from ..errors import BuildError

ROOT = Path(__file__).resolve().parents[2]
WHEEL_DIR = "downloads"
NOTEBOOK_DIR = "notebooks"
# every widget's folder is a package of its own (bookbuild/widget_parts.py)
PACKAGES = ["pycore", "pycore.widgets", "pycore.gpt", "pycore.exercises"] + [
    f"pycore.widgets.{widget_parts.module_name(name)}" for name in widget_parts.names()]
WHEEL_PYPROJECT = """\
[build-system]
requires = ["setuptools>=70.1"]
build-backend = "setuptools.build_meta"

[project]
name = "pycore"
version = "{version}"
description = "The NumPy core of the interactive Transformer book: every widget's numbers"
requires-python = ">=3.10"
dependencies = ["numpy>=2.0"]

[tool.setuptools]
packages = {packages}

[tool.setuptools.package-data]
pycore = ["*.rgb", "*.npz", "*.json", "*.txt"]
"""


def project_version():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["version"]


def _pycore_files():
    """pycore/'s sources and data files as they ship (no caches, no widget's template, script,
    styles or lesson), as paths relative to ROOT."""
    return sorted(p for p in (ROOT / "pycore").rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
                  and widget_parts.shipped(p))


def wheel_version():
    """0.1.0+<12 hex digits of pycore's content>."""
    h = hashlib.sha256()
    for p in _pycore_files():
        h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes())
    return f"{project_version()}+{h.hexdigest()[:12]}"


def wheel_name(version):
    return f"pycore-{version}-py3-none-any.whl"


def build_wheel(dest_dir, cache_dir=None):
    """site/downloads/pycore-<version>-py3-none-any.whl; returns its path in the site.

    Built once per content: kept in `cache_dir` (the build's cache folder) between builds."""
    version = wheel_version()
    name = wheel_name(version)
    dest_dir.mkdir(parents=True, exist_ok=True)
    cached = Path(cache_dir) / name if cache_dir else None
    if cached is not None and cached.is_file():
        shutil.copyfile(cached, dest_dir / name)
        return f"{WHEEL_DIR}/{name}"
    data = _build_wheel_bytes(version)
    (dest_dir / name).write_bytes(data)
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, cached)  # whole or not at all, if builds run side by side
        except OSError:  # a read-only cache: the next build builds the wheel again
            pass
    return f"{WHEEL_DIR}/{name}"


@functools.lru_cache(maxsize=2)  # the preview server rebuilds often; pycore rarely changes
def _build_wheel_bytes(version):
    with tempfile.TemporaryDirectory(prefix="tbook-wheel-") as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        for path in _pycore_files():
            dest = src / path.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
        (src / "pyproject.toml").write_text(
            WHEEL_PYPROJECT.format(version=version, packages=json.dumps(PACKAGES)),
            encoding="utf-8")
        # a separate process: setuptools works in its current folder and keeps global state
        env = {**os.environ, "SOURCE_DATE_EPOCH": "1577836800"}  # same bytes for same sources
        run = subprocess.run(
            [sys.executable, "-c", "import sys; from setuptools import build_meta as b; "
                                   "print(b.build_wheel(sys.argv[1]))", str(out)],
            cwd=src, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            raise BuildError("could not build the pycore wheel with setuptools "
                             f"({' / '.join(tail)}); pip install 'setuptools>=70.1'",
                             file=str(ROOT / "pycore"))
        return (out / wheel_name(version)).read_bytes()


# --- notebooks ----------------------------------------------------------------------------

def py_literal(value):
    """A parameter value as Python source, as assets/notebook-ui.js writes it: strings in
    double quotes, True/False, lists and dicts."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return "None"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a parameter value: {value!r}")


def _lines(text):
    """nbformat's multi-line source: a list of lines, each but the last ending in \\n."""
    return text.splitlines(keepends=True)


def _cell(kind, text, **tbook):
    cell = {"cell_type": kind, "metadata": {"tbook": tbook} if tbook else {},
            "source": _lines(text)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook(cells, title):
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
                         "language_info": {"name": "python"}, "title": title},
            "cells": [dict(c, id=f"c{i:02d}") for i, c in enumerate(cells)]}


def md_text(text):
    """Text that a Markdown cell shows as itself. Jupyter renders a cell's Markdown and the HTML
    in it, so a title holding <img onerror=...> or [x](javascript:...) would be markup there;
    as character references (&#60;) every Markdown shows those characters and nothing else."""
    return re.sub(r"[&<>\[\]\\`*_]", lambda m: f"&#{ord(m.group())};", text)


def install_source(wheel, base_url):
    """The first code cell: pip installs the wheel from the book's address when it is known,
    else from the file beside the notebook (downloaded by hand: works offline too). %pip hands
    its line to a shell: the address goes in quoted (book.toml's base_url is checked for plain
    characters too, bookbuild/stages/load.py)."""
    if base_url:
        return f"%pip install {shlex.quote(base_url + wheel)}"
    name = wheel.rsplit("/", 1)[-1]
    return (f"# 把书的网站上的 {wheel} 下载到这个 notebook 所在的文件夹，再运行：\n"
            f"%pip install {shlex.quote(name)}")


def head_cells(title, intro, wheel, base_url):
    return [
        _cell("markdown", f"# {md_text(title)}\n\n{intro}"),
        _cell("markdown", "第一步安装 pycore（书里所有数字都出自这个 NumPy 小库）。"
                          "它只依赖 NumPy；已经装过 NumPy 的话，离线也能从本地的 .whl 文件安装。"
                          "装好后若提示重启内核，请照做。"),
        _cell("code", install_source(wheel, base_url), role="install", wheel=wheel),
        _cell("code", "import numpy as np\n"
                      "import pycore\n"
                      "from pycore.widgets import compute\n"
                      "\n"
                      "def same(mine, widget):\n"
                      "    \"\"\"我们自己用 NumPy 算的数，和小部件显示的是否一致（相差不到 1e-9）。\"\"\"\n"
                      "    mine, widget = (np.asarray(x, dtype=float) for x in (mine, widget))\n"
                      "    ok = np.allclose(mine, widget, rtol=1e-9, atol=1e-9)\n"
                      "    print(\"✓ 与小部件一致\" if ok else \"✗ 与小部件不一致\")\n"
                      "    assert ok, (mine, widget)", role="setup"),
    ]


def lesson_of(w):
    """The widget's lesson; a widget that has none gets its view's plain numbers and no steps,
    until bookbuild/lessons/<widget>.py says what lies under them."""
    lesson = lessons.read(w["name"])
    if lesson is not None:
        return lesson
    from pycore.widgets import compute
    view = compute(w["name"], w["params"])
    keys = [k for k, v in view.items() if isinstance(v, (int, float, str))][:12]
    return {"title": w["name"], "keys": keys, "steps": []}


def widget_cells(w, page_href, base_url):
    """The cells of one widget: its parameters, the view call, the NumPy under it."""
    lesson = lesson_of(w)
    page = f"{page_href}#{w['id']}"
    where = f"书中 `{page_href}` 的小部件 `{w['id']}`"  # the page links it where it is hosted
    about = (f"## {md_text(lesson['title'])}（{w['name']}）\n\n{where}。"
             "下面是它的参数：改动它们再重新运行，就像在书里拖动控件。")
    cells = [
        _cell("markdown", about.replace(where, f"[书中的这一处]({base_url}{page})")
              if base_url else about, role="about", where=where, page=page),
        _cell("code", f"params = {py_literal(w['params'])}", role="params", widget=w["id"]),
        _cell("markdown", "小部件显示的每个数都来自 pycore 的 view：同样的参数，同样的数字。"
                          "这里列出其中几个。"),
        _cell("code", f"view = compute({py_literal(w['name'])}, params)\n"
                      f"{{key: view[key] for key in {py_literal(lesson['keys'])}}}",
              role="view", widget=w["name"], keys=lesson["keys"]),
    ]
    for text, code in lesson["steps"]:
        cells += [_cell("markdown", text), _cell("code", code, role="step")]
    return cells


def chapter_notebook(book, chapter, wheel, base_url):
    intro = (f"《{md_text(book.title)}》{md_text(chapter.title)} 中的小部件，每个一段："
             "先用 pycore 算出小部件的数字，再用 NumPy 一步步自己算一遍。")
    cells = head_cells(chapter.title, intro, wheel, base_url)
    for w in chapter.widgets:
        cells += widget_cells(w, chapter.href, base_url)
    return notebook(cells, chapter.title)


def widget_notebook(book, chapter, w, wheel, base_url):
    title = lesson_of(w)["title"]
    intro = (f"出自《{md_text(book.title)}》{md_text(chapter.title)}。"
             "这个 notebook 重现书中一个小部件的数字，参数是你下载时它的设置。")
    return notebook(head_cells(title, intro, wheel, base_url) +
                    widget_cells(w, chapter.href, base_url), title)


def _write(path, nb):
    path.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def write(site, book, cache_dir=None):
    """The wheel and every notebook into the site; returns the wheel's path in the site."""
    wheel = build_wheel(site / WHEEL_DIR, cache_dir)
    out = site / NOTEBOOK_DIR
    out.mkdir(exist_ok=True)
    for chapter in book.chapters:
        if not chapter.widgets:
            continue
        _write(out / f"{chapter.slug}.ipynb", chapter_notebook(book, chapter, wheel, book.base_url))
        for w in chapter.widgets:
            _write(out / f"{w['id']}.ipynb", widget_notebook(book, chapter, w, wheel,
                                                                   book.base_url))
    return wheel
