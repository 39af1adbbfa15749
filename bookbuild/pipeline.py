"""The build as a list of stages: load -> parse (token rules) -> check links -> write site.

Each stage has one contract; build.py is only a command-line driver over `build()`.
"""
import time

from . import markdown, output, render, search
from .load import load_book
from .vendor import NUMPY_WHEEL, vendor_runtime
from .widgets import claim_id, expand_widgets

# Applied in order to every chapter's tokens (each: rule(chapter, tokens, env)).
CHAPTER_RULES = [
    markdown.check_fences,
    markdown.check_raw_html,
    markdown.render_math,
    markdown.collect_headings,
    markdown.rewrite_links,
    markdown.check_images,
    expand_widgets,
]


def compile_chapter(md, chapter, env, cache=None):
    """Markdown -> checked tokens -> chapter.html. With a cache (the preview server keeps one),
    an unchanged chapter is not parsed again; its results are replayed into env."""
    key = (chapter.rel, chapter.source)
    if cache is not None and key in cache:
        chapter.title, chapter.headings, chapter.widgets, chapter.html, links = cache[key]
        for w in chapter.widgets:
            claim_id(env, w["id"], chapter.path, w["line"])
        env["links"] += [(chapter, *link) for link in links]
        return
    first_link = len(env["links"])
    tokens = md.parse(chapter.source)
    for rule in CHAPTER_RULES:
        rule(chapter, tokens, env)
    render.render_chapter(md, chapter, tokens)
    if cache is not None:
        links = [link[1:] for link in env["links"][first_link:]]
        cache[key] = (chapter.title, chapter.headings, chapter.widgets, chapter.html, links)


def make_tools():
    """The Markdown parser and the Jinja environment (with our render rules): made once per
    build, or once per preview session (kept in its cache until templates change)."""
    md, jinja = markdown.make_parser(), render.make_env()
    render.install_rules(md, jinja)
    return md, jinja


def build(book_dir, out_dir, *, dist_dir=None, log=print, cache=None):
    """Build the whole book from book_dir into out_dir; raise BuildError on bad input.

    `cache` (a dict, optional) keeps compiled chapters between builds of one process; the
    caller empties it when pycore/ or templates/ change."""
    start = time.perf_counter()
    book = load_book(book_dir)
    if cache is not None and "tools" not in cache:
        cache["tools"] = make_tools()
    md, jinja = cache["tools"] if cache is not None else make_tools()
    env = {"links": [], "widget_ids": {}}
    for chapter in book.chapters:
        compile_chapter(md, chapter, env, cache)
    markdown.check_links(book, env)
    with output.staging(out_dir) as site:
        runtime = {"files": vendor_runtime(site / "pyodide", dist_dir=dist_dir, log=log),
                   "numpy": NUMPY_WHEEL}
        (site / "assets").mkdir()
        output.copy_assets(site / "assets")
        markdown.copy_images(book.root, site)
        runtime["pycore"] = output.pycore_archive(site / "assets")
        runtime["sri"] = output.integrity(site)
        output.write_pages(site, render.render_pages(jinja, book, runtime))
        search.write_index(site, book, log=log)
        output.write_service_worker(site, jinja)
    n_widgets = sum(len(c.widgets) for c in book.chapters)
    log(f"built {len(book.chapters)} chapters, {n_widgets} widgets into {out_dir} "
        f"in {time.perf_counter() - start:.2f} s")
    return book

