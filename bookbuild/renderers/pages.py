"""Stage 4 -- render: tokens -> chapter HTML -> full pages with Jinja2 templates."""
import base64
import hashlib
import json
import math
import re
from html import unescape
from pathlib import Path

from markupsafe import Markup, escape

from pycore import fmt, notation

from ..stages import bindcheck, glossary, xref
from .. import cache, pagenames, widget_parts
from . import output, printbook

from ..errors import BuildError

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

# Content Security Policy of every page: only the site's own scripts, styles and WebAssembly,
# and the one inline script, the import map, by its hash (csp()).
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{}; style-src 'self'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'none'")


# What the service worker shows for a page it does not hold while the reader is offline.
OFFLINE_PAGE = pagenames.OFFLINE


def csp(import_map):
    digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
    return CSP.format(f" 'sha256-{digest}'")


def num(value, digits=4):
    """The one number format of the book (pycore/fmt.py: the live page's texts too)."""
    return fmt.number(value, digits)


def asset(context, path):
    """A page's address of a file of assets/, versioned by its content (see
    output.fingerprints): {{ asset('assets/favicon.svg') }} -> assets/favicon.svg?v=3f2a...
    Widget templates use it too, before the site exists: the version is the source file's."""
    return f"{context['root']}{path}?v={output.source_version(path)}"


def sri(context, path):
    """A page's reference to a script or stylesheet of the site, versioned, with its
    Subresource Integrity: href="{{ sri('assets/book.js') }}" ->
    href="assets/book.js?v=..." integrity="sha384-..." """
    f = context["runtime"]["files"][path]
    return Markup('{}{}?v={}" integrity="{}').format(context["root"], path, f["v"], f["sri"])


def widget_template(name):
    """Jinja's source of widgets/<name>.html: the template.html in the widget's folder
    (bookbuild/widget_parts.py); the shared widgets/_*.html stay in templates/."""
    match = re.fullmatch(r"widgets/([a-z0-9-]+)\.html", name)
    path = match and widget_parts.part(match.group(1), widget_parts.TEMPLATE)
    if not path or not path.is_file():
        return None
    mtime = path.stat().st_mtime_ns
    return (path.read_text(encoding="utf-8"), str(path),
            lambda: path.is_file() and path.stat().st_mtime_ns == mtime)


def make_env():
    # Imported here: a build whose pages all come from the cache never loads Jinja.
    from jinja2 import (ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader,
                        FunctionLoader, StrictUndefined, pass_context, select_autoescape)
    # Compiled templates are kept in the book's cache folder: compiling them was most of a build.
    folder = cache.jinja()
    folder.mkdir(parents=True, exist_ok=True)
    loader = ChoiceLoader([FileSystemLoader(TEMPLATES), FunctionLoader(widget_template)])
    env = Environment(loader=loader, autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=FileSystemBytecodeCache(str(folder)))
    env.filters["num"] = num
    env.filters["sci"] = fmt.sci
    env.filters["shade"] = fmt.shade
    env.filters["log10"] = math.log10
    env.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    env.globals["sri"] = pass_context(sri)
    env.globals["figure_number"] = lambda w: Markup(xref.number_placeholder(f"widget {w['id']}"))
    env.globals["exercise_number"] = lambda e: Markup(
        xref.number_placeholder(f"exercise {e['id']}"))
    env.globals["asset"] = pass_context(asset)
    return env


def install_rules(md, jinja):
    """Teach the markdown-it renderer our annotated tokens (widgets, math, dropped comments)."""
    default_fence = md.renderer.rules["fence"]

    def fence(renderer, tokens, idx, options, env):
        w = tokens[idx].meta.get("widget")
        exercise = tokens[idx].meta.get("exercise")
        if exercise is not None:
            return jinja.get_template("exercise.html").render(e=exercise, root=env.get("root", ""))
        if w is None:  # a code block: focusable, so keyboard users can scroll a wide one
            return default_fence(tokens, idx, options, env).replace("<pre>", '<pre tabindex="0">', 1)
        w["html"] = render_widget(jinja, w, env.get("root", ""))  # embed pages reuse it
        return w["html"]

    # Every formula sits in an HTML box of its own, which scrolls a formula wider than its
    # column (book.css): Firefox and WebKit give a <math> element no overflow of its own, so on
    # a phone the whole page would scroll sideways instead. ($$ inside a paragraph is a display
    # formula in a span: a div would end the paragraph.)
    def math(renderer, tokens, idx, options, env):
        t = tokens[idx]
        if t.type == "math_inline":
            return f'<span class="formula">{t.meta["mathml"]}</span>'
        tag = "div" if t.block else "span"
        return f'<{tag} class="display-formula">{t.meta["mathml"]}</{tag}>' + ("\n" if t.block else "")

    def labelled_math(renderer, tokens, idx, options, env):
        """A labelled display formula: its label is its anchor, its number (4.2) beside it."""
        t = tokens[idx]
        return (f'<div class="equation" id="{escape(t.info)}"><div class="display-formula">'
                f'{t.meta["mathml"]}</div>'
                f'<span class="eq-number">{xref.number_placeholder(t.info)}</span></div>\n')

    def cite(renderer, tokens, idx, options, env):
        return xref.render_cite(tokens, idx)

    def term(renderer, tokens, idx, options, env):
        return glossary.render_term(tokens[idx], env.get("root", ""))

    def html(renderer, tokens, idx, options, env):
        return ""  # only comments get this far (check_raw_html refuses the rest)

    def heading_close(renderer, tokens, idx, options, env):
        """Each heading ends with a small permalink to itself (#)."""
        opening = next(t for t in reversed(tokens[:idx]) if t.type == "heading_open")
        anchor = opening.attrs.get("id")
        link = (f'<a class="anchor" href="#{escape(anchor)}" aria-label="本节的链接">#</a>'
                if anchor else "")
        return f"{link}</{tokens[idx].tag}>\n"

    md.add_render_rule("fence", fence)
    md.add_render_rule("heading_close", heading_close)
    for name in ("math_inline", "math_inline_double", "math_block"):
        md.add_render_rule(name, math)
    md.add_render_rule("html_block", html)
    md.add_render_rule("html_inline", html)
    md.add_render_rule("math_block_label", labelled_math)
    md.add_render_rule("cite", cite)
    md.add_render_rule("glossary_term", term)


def render_widget(jinja, w, root=""):
    """A widget block's HTML: its template with the instance (w), its view (v) and its
    parameters' specs (specs: the controls' ranges, templates/widgets/_controls.html); the
    template is the widget's own, pycore/widgets/<module>/template.html (widget_template)."""
    from ..stages.widgets import registry
    specs = registry().module(w["name"]).PARAMS
    template = jinja.get_template(f"widgets/{w['name']}.html")
    html = template.render(w=w, v=w["view"], root=root, specs=specs)
    # a bound path the view does not hold would never move in the browser: stop at its line
    bindcheck.check(w["name"], html, w["view"], template.filename,
                    lambda: registry().owners(w["name"], w["params"]))
    return html


def render_chapter(md, chapter, tokens, root=""):
    """chapter.html, rendered as markdown-it's render() does but token by token (an inline
    token's children one by one), so that the page's ids can be traced to their tokens: returns
    [(token, its list, its index, its source line, its HTML)] (bookbuild/stages/pageids.py)."""
    renderer, env = md.renderer, {"root": root}
    pieces = []

    def add(token, siblings, i, line):
        rule = renderer.rules.get(token.type)
        html = rule(siblings, i, md.options, env) if rule else \
            renderer.renderToken(siblings, i, md.options, env)
        pieces.append((token, siblings, i, line, html))

    line = None
    for i, t in enumerate(tokens):
        # a token without a place of its own (a footnote's opening) belongs to the next that has
        line = t.map[0] + 1 if t.map else next((n.map[0] + 1 for n in tokens[i + 1:i + 4] if n.map),
                                               line)
        if t.type == "inline":
            for k, child in enumerate(t.children or []):
                add(child, t.children, k, line)
        else:
            add(t, tokens, i, line)
    chapter.html = Markup("".join(html for *_, html in pieces))
    return pieces


def section_number(chapter, index):
    """The number readers cite a chapter by: its file's numeric prefix (04-attention -> 4;
    a chapter inserted after another keeps its neighbours' numbers with a letter: 13b-x ->
    "13b"), else its place in the book (counting from 1)."""
    head = chapter.slug.split("-", 1)[0]
    if head.isdigit():
        return int(head)
    if len(head) > 1 and head[:-1].isdigit() and head[-1] in "abcdefghijklmnopqrstuvwxyz":
        return f"{int(head[:-1])}{head[-1]}"
    return index + 1


def widget_title(html):
    """The title a widget's template gave its frame (the figure's aria-label)."""
    m = re.search(r'<figure class="widget"[^>]*?\saria-label="([^"]*)"', html)
    return unescape(m.group(1)) if m else ""


def embed_pages(jinja, book, runtime, memo=None):
    """Yield (embed-<chapter slug>.html, html) for every chapter and (embed-<widget id>.html,
    html) for every widget: the same content and runtime as the book, without its navigation,
    for other sites' iframes. Flat at the site root, so relative URLs stay right."""
    taken = {c.href: f"the page of chapter {c.rel}" for c in book.chapters}
    for i, c in enumerate(book.chapters):
        items = [(c.slug, 1, None, f"chapter {c.rel}")]
        items += [(w["id"], w["line"], w, f"widget {w['id']!r} ({c.rel}:{w['line']})")
                  for w in c.widgets]
        for name, line, w, what in items:
            href = f"embed-{name}.html"
            if href in taken:
                raise BuildError(f"{href} would be both {taken[href]} and the embed page of "
                                 f"{what}; give the widget another id", c.path, line)
            taken[href] = f"the embed page of {what}"
            html = Markup(w["html"]) if w else None
            key = ("embed", i, name, _chapter(memo, i))
            yield href, cached(memo, key, lambda: jinja.get_template("embed.html").render(
                book=book, chapter=c, number=section_number(c, i), root="", runtime=runtime,
                embed_id=name, widget=w, widget_html=html, widget_title=widget_title(html or "")))


# The landing page opens on this widget of the book (its first block), live: the running
# example's attention, which the reader can move before reading a line.
FRONT_WIDGET = "attention"


def front_widget(book):
    """The first block of FRONT_WIDGET in the book, with its chapter's href, or None."""
    for c in book.chapters:
        for w in c.widgets:
            if w["name"] == FRONT_WIDGET:
                return {**w, "chapter_href": c.href}
    return None


def render_pages(jinja, book, runtime, memo=None):
    """Yield (relative path, html) for every page of the site. `memo` (optional, see page_memo)
    hands back a page whose inputs did not change instead of rendering it again. `jinja`: the
    environment, or anything whose get_template makes it only when a page must be rendered."""
    chapters = book.chapters
    for i, c in enumerate(chapters):
        yield c.href, cached(memo, ("page", i, _chapter(memo, i)), lambda: jinja.get_template(
            "page.html").render(book=book, chapter=c, root="", runtime=runtime,
                                prev=chapters[i - 1] if i else None,
                                next=chapters[i + 1] if i + 1 < len(chapters) else None))
    front = front_widget(book)
    front_key = front and hashlib.sha256(front["html"].encode()).hexdigest()
    yield "index.html", cached(memo, ("index", tuple(book.downloads), front_key),
                               lambda: jinja.get_template("index.html").render(
        book=book, root="", runtime=runtime, chapter=None, front=front,
        front_html=Markup(front["html"]) if front else None))
    yield OFFLINE_PAGE, cached(memo, ("offline",), lambda: jinja.get_template(
        "offline.html").render(book=book, root="", runtime=runtime, chapter=None))
    number = {c.rel: section_number(c, i) for i, c in enumerate(chapters)}
    yield printbook.PAGE, cached(memo, ("print", _all(memo)), lambda: jinja.get_template(
        "print.html").render(book=book, root="", runtime=runtime,
                             chapters=printbook.chapters(book, lambda c: number[c.rel])))
    with_exercises = [(c, number[c.rel]) for c in chapters if c.exercises]
    if with_exercises:
        key = ("exercises", json.dumps([[c.rel, n, [[e["id"], e["title"]] for e in c.exercises]]
                                        for c, n in with_exercises], ensure_ascii=False))
        yield EXERCISES_PAGE, cached(memo, key, lambda: jinja.get_template(
            "exercises.html").render(book=book, root="", runtime=runtime, chapter=None,
                                     chapters=with_exercises, page_name=EXERCISES_PAGE))
    if book.glossary:
        terms = sorted(book.glossary, key=lambda t: t["en"].lower())
        where = {c.rel: (c, section_number(c, i)) for i, c in enumerate(book.chapters)}
        key = ("glossary", hashlib.sha256(json.dumps(
            [[t[f] for f in ("zh", "en", "definition", "chapter")] for t in terms],
            ensure_ascii=False).encode()).hexdigest())
        yield glossary.PAGE, cached(memo, key, lambda: jinja.get_template(
            "glossary.html").render(book=book, root="", runtime=runtime, chapter=None,
                                    terms=terms, where=where, page_name=glossary.PAGE))
    if book.notation:
        yield NOTATION_PAGE, cached(memo, ("notation", repr(notation.SYMBOLS)), lambda: jinja.get_template(
            "notation.html").render(book=book, root="", runtime=runtime, chapter=None,
                                    symbols=book.notation, page_name=NOTATION_PAGE))
    if book.bibliography:
        entries = bibliography_entries(book)
        key = ("bibliography", hashlib.sha256(json.dumps(
            [[e["key"], str(e["html"]), [c.rel for c, _ in e["cited_in"]]] for e in entries],
            ensure_ascii=False).encode()).hexdigest())
        yield BIBLIOGRAPHY_PAGE, cached(memo, key, lambda: jinja.get_template(
            "bibliography.html").render(book=book, root="", runtime=runtime, chapter=None,
                                        entries=entries, page_name=BIBLIOGRAPHY_PAGE))
    yield from embed_pages(jinja, book, runtime, memo)


BIBLIOGRAPHY_PAGE = pagenames.BIBLIOGRAPHY
EXERCISES_PAGE = pagenames.EXERCISES
NOTATION_PAGE = pagenames.NOTATION

# Every page render_pages writes besides the chapters' and their embed pages, with what it is:
# a chapter's page may not take one of these names (bookbuild/stages/load.py refuses the chapter).
BUILD_PAGES = pagenames.BUILD_PAGES


def notation_entries(book):
    """pycore/notation.py's symbols as the notation page shows them: [{tex, mathml, meaning,
    chapter, number}], the chapter being the first whose formulas use the symbol; [] for a
    book that lacks those chapters (the list is this book's: a sample book gets no page)."""
    from ..stages.markdown import _mathml
    by_number = {str(section_number(c, i)).zfill(2): (c, section_number(c, i))
                 for i, c in enumerate(book.chapters)}
    if any(chapters[0] not in by_number for *_, chapters in notation.SYMBOLS):
        return []
    return [{"tex": tex, "mathml": Markup(_mathml(tex, "inline")), "meaning": meaning,
             "chapter": by_number[chapters[0]][0], "number": by_number[chapters[0]][1]}
            for tex, meaning, _, chapters in notation.SYMBOLS]


def bibliography_entries(book):
    """Every entry of the bibliography, by first author and year, with the chapters citing it:
    [{key, html, cited_in: [(chapter, number)]}]."""
    from ..stages import bib
    cited = {}
    for i, c in enumerate(book.chapters):
        for key in bib.cited_keys(c):
            cited.setdefault(key, []).append((c, section_number(c, i)))
    order = sorted(book.bibliography.values(),
                   key=lambda e: ((e["authors"][0][1] if e["authors"] else "").lower(), e["year"]))
    return [{"key": e["key"], "html": Markup(bib.full(e)), "cited_in": cited.get(e["key"], [])}
            for e in order]


def page_memo(store, code, book, runtime):
    """A memo for render_pages over `store` (a dict kept between builds, e.g. by the preview
    server). A page's key covers everything its templates read: the build's code and templates
    (`code`), the runtime's file names and integrity hashes, the book's title and outline (every
    page lists the chapters), and the page's own chapter -- title, headings, widgets and HTML."""
    def digest(value):
        return hashlib.sha256(json.dumps(value, default=str).encode()).hexdigest()
    outline = [book.title, book.description, book.base_url, book.edit_url, bool(book.glossary),
               bool(book.bibliography),
               [[part, [[c.rel, c.href, c.title, len(c.widgets),
                         [e["name"] for e in c.exercises]] for c in cs]]
                for part, cs in book.parts]]
    shared = digest([code, runtime, outline])
    chapters = [digest([shared, c.rel, c.slug, c.title, c.description, c.outline, str(c.html),
                        [[w["id"], w["name"], w["line"], str(w["html"])] for w in c.widgets]])
                for c in book.chapters]
    fresh = {}  # only this build's pages stay: the store does not grow with every edit
    return {"shared": shared, "chapters": chapters, "old": store, "new": fresh}


def _chapter(memo, i):
    return memo["chapters"][i] if memo else None


def _all(memo):
    """The key of a page that holds every chapter."""
    return hashlib.sha256("".join(memo["chapters"]).encode()).hexdigest() if memo else None


def cached(memo, key, render):
    """render(), or the text the memo (see page_memo) holds for the same key and inputs."""
    if memo is None:
        return render()
    key = "\0".join(map(str, (memo["shared"],) + key))
    html = memo["old"].get(key)
    if html is None:
        html = render()
    memo["new"][key] = html
    return html
