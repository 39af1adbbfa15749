"""The build as a list of stages: load the book (bookbuild/stages/load.py) -> compile each
chapter (CHAPTER_RULES over its tokens) -> check across the book (links, images, references)
-> the renderers (RENDERERS), each writing its part of the site from the same checked book,
into a staging folder that replaces site/ only when all of them succeeded.

Each stage has one contract; build.py is only a command-line driver over `build()`.
"""
import time
from pathlib import Path

from markupsafe import Markup

from . import cache as cache_folders, chapter_cache
from .renderers import epub, notebooks, output, previews, printbook, search
from .renderers import pages as render
from .runtime.vendor import NUMPY_WHEEL, vendor_runtime
from .stages import bib, exercises, glossary, markdown, pageids, xref
from .stages.load import load_book
from .stages.widgets import claim_id, expand_widgets

# Applied in order to every chapter's tokens (each: rule(chapter, tokens, env)).
CHAPTER_RULES = [
    markdown.check_fences,
    markdown.check_raw_html,
    markdown.check_dollars,
    markdown.render_math,
    glossary.mark_terms,
    markdown.collect_headings,
    markdown.rewrite_links,
    markdown.check_images,
    expand_widgets,
    exercises.expand,
    xref.collect_labels,
]


def new_env():
    """What compiling the chapters gathers for the checks across the book: every link, every
    widget id (with where it is), every image shown (chapter, [href, line, version])."""
    return {"links": [], "widget_ids": {}, "all_images": []}


def compile_chapter(tools, chapter, env, cache=None, code=None):
    """Markdown -> checked tokens -> chapter.html. An unchanged chapter is not parsed again: its
    record comes from `cache` (a dict the preview server keeps) or from the disk cache (when
    `code`, the fingerprint of the build's code, is given), and is replayed into env."""
    key = (chapter.rel, chapter.source, env.get("glossary_version", ""))
    record = cache.get(key) if cache is not None else None
    if record is None and code is not None:
        record = chapter_cache.load(chapter, code)
    if record is not None and not all(markdown.image_is_current(chapter.path.parent, image)
                                      for image in record["images"]):
        record = None  # an image it shows changed or is gone: compile again (new ?v=, or the
        #                error at its line)
    if record is not None:
        chapter.title, chapter.html = record["title"], Markup(record["html"])
        chapter.description = record["description"]
        chapter.headings = [tuple(h) for h in record["headings"]]
        chapter.outline = [tuple(h) for h in record["outline"]]
        chapter.widgets = [dict(w) for w in record["widgets"]]
        chapter.labels, chapter.figures = record["labels"], record["figures"]
        chapter.exercises = [dict(e) for e in record["exercises"]]
        for e in chapter.exercises:
            claim_id(env, e["id"], chapter.path, e["line"])
        chapter.refs = record["refs"]
        chapter.ids = record["ids"]
        for w in chapter.widgets:
            claim_id(env, w["id"], chapter.path, w["line"])
        env["links"] += [(chapter, *link) for link in record["links"]]
        env["all_images"] += [(chapter, image) for image in record["images"]]
    else:
        first_link = len(env["links"])
        env["images"] = []
        tokens = tools.md.parse(chapter.source)
        for rule in CHAPTER_RULES:
            rule(chapter, tokens, env)
        chapter.ids = pageids.collect(chapter, render.render_chapter(tools.md, chapter, tokens))
        record = {"title": chapter.title, "description": chapter.description,
                  "html": str(chapter.html), "headings": chapter.headings,
                  "outline": chapter.outline,
                  "widgets": [{k: w[k] for k in ("name", "id", "params", "line", "html")}
                              for w in chapter.widgets],
                  "links": [link[1:] for link in env["links"][first_link:]],
                  "images": env["images"], "labels": chapter.labels, "figures": chapter.figures,
                  "exercises": chapter.exercises,
                  "refs": chapter.refs, "ids": chapter.ids}
        env["all_images"] += [(chapter, image) for image in env.pop("images")]
        if code is not None:
            chapter_cache.store(chapter, code, record)
    if cache is not None:
        cache[key] = record


def resolve_references(book):
    """Number every label in book order, check every [@...], and write the numbers, links and
    citations into the chapters' HTML (and their widgets', which embed pages show), with each
    chapter's reference list at its end. Returns the bibliography and the labels' index."""
    bibliography = bib.load(book.root)
    number = {c.rel: render.section_number(c, i) for i, c in enumerate(book.chapters)}
    index = xref.book_index(book, lambda c: number[c.rel])
    xref.check_refs(book, index, bibliography)
    cite = lambda keys: bib.cite_html(keys, bibliography)  # noqa: E731
    for c in book.chapters:
        listed = bib.reference_list(bib.cited_keys(c), bibliography)
        pageids.check_reference_list(c, listed)
        c.html = Markup(xref.resolve(c.html, index, cite) + listed)
        for w in c.widgets:
            w["html"] = Markup(xref.resolve(w["html"], index, cite))
    return bibliography, index


class Tools:
    """The Jinja environment, and the Markdown parser with our render rules, made only when a
    chapter has to be compiled (an all-cached build never loads markdown-it, latex2mathml,
    pygments or NumPy). Made once per build, or once per preview session."""

    def __init__(self):
        self._jinja = self._md = None

    @property
    def jinja(self):
        if self._jinja is None:
            self._jinja = render.make_env()
        return self._jinja

    def get_template(self, name):
        return self.jinja.get_template(name)

    @property
    def md(self):
        if self._md is None:
            self._md = markdown.make_parser()
            render.install_rules(self._md, self.jinja)
        return self._md


DOWNLOADS = {"pdf": "book.pdf", "epub": "book.epub"}


class Run:
    """What one build hands its renderers besides the site folder and the book: the tools,
    the log, where the runtime comes from, the compiled chapters' images and the labels' index,
    the code's fingerprint, the page memo's store, and `runtime`, which the renderers fill in
    turn (the Pyodide runtime, the pycore archive and wheel, the site's file fingerprints, the
    import map and CSP, the build's version) for the pages to name."""

    def __init__(self, tools, log, dist_dir, images, labels, code, pages):
        self.tools, self.log, self.dist_dir = tools, log, dist_dir
        self.images, self.labels, self.code, self.pages = images, labels, code, pages
        self.runtime = {}
        self.memo = None


def write_runtime(site, book, run):
    run.runtime["pyodide"] = vendor_runtime(site / "pyodide", dist_dir=run.dist_dir, log=run.log)
    run.runtime["numpy"] = NUMPY_WHEEL


def write_assets(site, book, run):
    (site / "assets").mkdir()
    output.copy_assets(site / "assets")
    markdown.copy_images(book, site, run.images)
    run.runtime["pycore"] = output.pycore_archive(site / "assets")


def write_notebooks(site, book, run):
    """The pycore wheel and the notebooks that install it (fetched on demand, not precached)."""
    run.runtime["wheel"] = notebooks.write(site, book, cache_folders.pycore_wheels())


def write_sitemap(site, book, run):
    output.write_sitemap(site, book, ["index.html"] + ["notation.html"] * bool(book.notation) +
                         [c.href for c in book.chapters] +
                         [p for p, made in (("glossary.html", book.glossary),
                                            ("bibliography.html", book.bibliography)) if made])


def write_search_index(site, book, run):
    search.write_index(site, book, log=run.log)


def write_previews(site, book, run):
    previews.write(site, book, run.labels)


def fingerprint_files(site, book, run):
    """Every file so far, by content: the pages name them with ?v= and their integrity."""
    runtime = run.runtime
    runtime["files"] = output.fingerprints(site)
    runtime["importmap"] = output.import_map(runtime["files"])
    runtime["csp"] = render.csp(runtime["importmap"])
    runtime["build"] = output.build_version(runtime)


def write_pages(site, book, run):
    run.memo = render.page_memo(run.pages, run.code, book, run.runtime)
    output.write_pages(site, render.render_pages(run.tools, book, run.runtime, run.memo))


def write_pdf(site, book, run):
    if "pdf" in book.downloads:
        run.log(f"printing {printbook.print_pdf(site, book.downloads['pdf']).name} with Chromium")


def write_epub(site, book, run):
    if "epub" in book.downloads:
        number = {c.rel: render.section_number(c, i) for i, c in enumerate(book.chapters)}
        run.log(f"writing {epub.write(site, book, lambda c: number[c.rel]).name}")


def write_service_worker(site, book, run):
    output.write_service_worker(site, lambda version, keep: render.cached(
        run.memo, ("sw", version), lambda: run.tools.jinja.get_template("sw.js").render(
            version=version, keep=keep, offline=render.OFFLINE_PAGE)), render.OFFLINE_PAGE)


# What the build makes of the checked book, in order, each renderer(site, book, run) over the
# same book. The order is the data flow: the files the pages name by fingerprint come before
# fingerprint_files, the pages after it, then what reads the pages (the PDF prints them), and
# last the service worker, which lists every file.
RENDERERS = [write_runtime, write_assets, write_notebooks, write_sitemap, write_search_index,
             write_previews, fingerprint_files, write_pages, write_pdf, write_epub,
             write_service_worker]


def build(book_dir, out_dir, *, dist_dir=None, log=print, cache=None, downloads=()):
    """Build the whole book from book_dir into out_dir; raise BuildError on bad input.

    `cache` (a dict, optional) keeps compiled chapters between builds of one process; the
    caller empties it when pycore/ or templates/ change. `downloads`: "pdf", "epub": also make
    the book's PDF (bookbuild/renderers/printbook.py) and EPUB (bookbuild/renderers/epub.py),
    offered on the landing page."""
    start = time.perf_counter()
    book = load_book(book_dir)
    book.downloads = {kind: DOWNLOADS[kind] for kind in downloads}
    if cache is not None and "tools" not in cache:
        cache["tools"] = Tools()
    tools = cache["tools"] if cache is not None else Tools()
    env = new_env()
    env["glossary"] = glossary.load(book)
    env["glossary_version"] = glossary.version(book.root)
    book.glossary = env["glossary"]
    book.notation = render.notation_entries(book)  # the notation page's rows
    # a compiled chapter depends on the build's code and on the glossary (its marked terms)
    code = chapter_cache.fingerprint() + env["glossary_version"]
    for chapter in book.chapters:
        compile_chapter(tools, chapter, env, cache, code)
    markdown.check_links(book, env)
    markdown.check_image_files(book, env["all_images"])
    book.bibliography, labels = resolve_references(book)
    book.notation = render.notation_entries(book)  # the notation page's rows
    pages = cache.get("pages") if cache is not None else None
    if pages is None:
        pages = chapter_cache.load_pages()
    run = Run(tools, log, dist_dir, env["all_images"], labels, code, pages)
    with output.staging(out_dir) as site:
        for renderer in RENDERERS:
            renderer(site, book, run)
    # The next build renders only the pages whose inputs changed: the preview server keeps them
    # in memory, a build from the command line on disk.
    if cache is not None:
        cache["pages"] = run.memo["new"]
    elif run.memo["new"] != pages:
        chapter_cache.store_pages(run.memo["new"])
    n_widgets = sum(len(c.widgets) for c in book.chapters)
    log(f"built {len(book.chapters)} chapters, {n_widgets} widgets into {out_dir} "
        f"in {time.perf_counter() - start:.2f} s")
    return book
