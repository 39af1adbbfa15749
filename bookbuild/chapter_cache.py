"""The build's caches on disk: compiled chapters (so a build only parses, checks and renders the
chapters that changed), the last build's pages, pygments' stylesheet.

A record holds what compiling a chapter produced (title, headings, widgets with their HTML, the
chapter's HTML, the links and images it refers to). Its key is the chapter's file name and text
plus a fingerprint of everything else that shapes the result: the build's own code, pycore, the
templates and the Markdown/math/highlighting libraries. Change any of them and every record
misses. Images are checked again on a hit (a record never hides a deleted image), and links are
checked across the book on every build anyway.

Folder: bookbuild/cache.py chapters(); an unreadable or unwritable cache only costs time.
"""
import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from . import cache, widget_parts
from .cache import write

ROOT = Path(__file__).resolve().parent.parent
FORMAT = 3
KEEP = 400  # records kept (oldest go first): a few versions of every chapter
SOURCES = ("bookbuild", "pycore", "templates", "assets/images")  # widget templates show images
LIBRARIES = ("markdown_it", "mdit_py_plugins", "latex2mathml", "pygments", "jinja2", "markupsafe",
             "numpy")


def folder():
    return cache.chapters()


def fingerprint():
    """sha256 over the code and templates that compile a chapter, and the libraries' install
    stamps (found without importing them: an all-hit build never loads them)."""
    h = hashlib.sha256(f"format {FORMAT} python {sys.version}".encode())
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            # a widget's script and styles never reach a compiled chapter (widget_parts.py)
            if path.is_file() and "__pycache__" not in path.parts and \
                    not widget_parts.front_end(path.relative_to(ROOT)):
                h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        st = os.stat(spec.origin)
        h.update(f"{name} {spec.origin} {st.st_size} {st.st_mtime_ns}".encode())
    return h.hexdigest()


def key(chapter, code):
    return hashlib.sha256(f"{code}\0{chapter.rel}\0{chapter.source}".encode()).hexdigest()[:32]


def load(chapter, code):
    """The chapter's record, or None when missing or unreadable (the build checks that the
    images it refers to still exist)."""
    try:
        return json.loads((folder() / f"{key(chapter, code)}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def store(chapter, code, record):
    path = folder() / f"{key(chapter, code)}.json"
    write(path, json.dumps(record, ensure_ascii=False), keep=KEEP)


def load_pages():
    """The pages of the last build ({memo key: html}, see render.page_memo), or {}."""
    try:
        return json.loads((folder() / "last.pages").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def store_pages(pages):
    write(folder() / "last.pages", json.dumps(pages, ensure_ascii=False))  # not *.json: kept


def pygments_css():
    """pygments' stylesheet for highlighted code, kept per pygments install (importing pygments
    is most of what copying the assets costs)."""
    spec = importlib.util.find_spec("pygments")
    st = os.stat(spec.origin)
    stamp = hashlib.sha256(f"{spec.origin} {st.st_size} {st.st_mtime_ns}".encode()).hexdigest()[:16]
    path = folder() / f"pygments-{stamp}.css"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        from pygments.formatters import HtmlFormatter
        css = HtmlFormatter().get_style_defs(".highlight")
    write(path, css)
    return css
