"""The build as a list of stages: load -> parse (token rules) -> check links -> write site.

Each stage has one contract; build.py is only a command-line driver over `build()`.
"""
import time
from pathlib import Path

from . import markdown, output, render
from .errors import BuildError
from .load import load_book
from .vendor import vendor_runtime
from .widgets import expand_widgets

# Applied in order to every chapter's tokens (each: rule(chapter, tokens, env)).
CHAPTER_RULES = [
    markdown.check_raw_html,
    markdown.render_math,
    markdown.collect_headings,
    markdown.rewrite_links,
    expand_widgets,
]


def build(book_dir, out_dir, *, dist_dir=None, log=print):
    """Build the whole book from book_dir into out_dir; raise BuildError on bad input."""
    start = time.perf_counter()
    book = load_book(book_dir)
    md, jinja = markdown.make_parser(), render.make_env()
    render.install_rules(md, jinja)
    env = {"links": [], "widget_ids": {}}
    parsed = []
    for chapter in book.chapters:
        tokens = md.parse(chapter.source)
        for rule in CHAPTER_RULES:
            rule(chapter, tokens, env)
        parsed.append((chapter, tokens))
    markdown.check_links(book, env)
    for chapter, tokens in parsed:
        render.render_chapter(md, chapter, tokens)
    with output.staging(out_dir) as site:
        runtime = {"files": vendor_runtime(site / "pyodide", dist_dir=dist_dir, log=log)}
        (site / "assets").mkdir()
        output.copy_assets(site / "assets")
        runtime["pycore"] = output.pycore_archive(site / "assets")
        output.write_pages(site, render.render_pages(jinja, book, runtime))
    n_widgets = sum(len(c.widgets) for c in book.chapters)
    log(f"built {len(book.chapters)} chapters, {n_widgets} widgets into {out_dir} "
        f"in {time.perf_counter() - start:.2f} s")
    return book


__all__ = ["build", "BuildError", "Path"]
