"""Stage 2 -- parse: chapter Markdown -> markdown-it tokens, checked and annotated.

The parser is CommonMark + GFM tables + dollar math + heading anchors. The rules below are plain
functions (chapter, tokens, env) that annotate tokens or raise BuildError with the chapter's file
and line; pipeline.CHAPTER_RULES lists them in order.
"""
import functools
import itertools
import posixpath
import re
import shutil
import unicodedata
from html import unescape
from pathlib import Path
from urllib.parse import quote, unquote

from . import xref
from ..errors import BuildError, clip, short
from .mathtext import plain_text
from .sanitize import check_image, clean_mathml

# A block or inline span of nothing but HTML comments (each "<!-- ... -->" with no "-->" inside).
COMMENTS = re.compile(r"\s*(?:<!--(?:(?!-->).)*-->\s*)+", re.S)
UNKNOWN_TEX = re.compile(r"<m[io]>(\\[A-Za-z]+)</m[io]>")  # latex2mathml passes these through
ASSETS = Path(__file__).resolve().parents[2] / "assets"
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif")
SITE_FOLDERS = ("assets", "pyodide")  # the site's own folders: book images may not shadow them


# The ids the page around a chapter uses itself (templates/base.html, page.html, embed.html):
# no heading anchor or widget may take one (tests check that the list is whole).
PAGE_IDS = frozenset(("top", "toc", "content", "toc-chapters", "tbook-search",
                      "tbook-search-results", "tbook-embed", "tbook-embed-heading",
                      "tbook-embed-help", "tbook-embed-code", "tbook-keys", "tbook-keys-heading"))


def slugify(text):
    """Heading text -> anchor: letters and digits of any script (Chinese kept), '-' between;
    never one of the page's own ids ("## Content" -> content-section)."""
    kept = [c.lower() if unicodedata.category(c)[0] in "LN" else " " for c in text]
    slug = "-".join("".join(kept).split()) or "section"
    return slug + "-section" if slug in PAGE_IDS else slug


# markdown-it, latex2mathml and pygments are imported where they are used: a build whose chapters
# all come from the cache (bookbuild/chapter_cache.py) never loads them.

def highlight_code(code, lang, _attrs):
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    if lexer is None:
        return ""  # markdown-it escapes and wraps it itself
    return highlight(code, lexer, HtmlFormatter(nowrap=True))


def make_parser():
    """CommonMark + tables + dollar math (with `(eq:label)` after a display formula) +
    footnotes + heading anchors + the book's labels and [@...] references and citations
    (bookbuild/stages/xref.py). No plugin that lets a chapter set HTML attributes: a label is the
    only attribute a chapter gives."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.anchors import anchors_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin

    md = MarkdownIt("commonmark", {"html": True, "highlight": highlight_code})
    md.enable("table")
    md.use(dollarmath_plugin, allow_labels=True, double_inline=True,
           label_normalizer=lambda label: label.strip())
    md.use(footnote_plugin)
    md.use(anchors_plugin, min_level=1, max_level=3, slug_func=slugify)
    xref.install(md)
    # before text_join merges an escaped \$ (text_special) into the text around it
    md.core.ruler.before("text_join", "lone_dollars", mark_lone_dollars)
    return md


def mark_lone_dollars(state):
    """Core rule: note on each inline token the lines (from its first) of the dollar signs its
    text still holds. dollarmath leaves a $ or $$ that it finds no closing for as plain text, so
    a formula left open is printed as raw TeX; check_dollars refuses it. A dollar sign written
    \\$ is a text_special token here, and an autolink's address is not prose."""
    for block in state.tokens:
        if block.type != "inline":
            continue
        line, in_autolink, children = 0, False, block.children or []
        for i, t in enumerate(children):
            if t.type in ("softbreak", "hardbreak"):
                line += 1
            elif t.type == "link_open":
                in_autolink = t.markup in ("autolink", "linkify")
            elif t.type == "link_close":
                in_autolink = False
            elif t.type == "text" and "$" in t.content and not in_autolink:
                # what follows it on its line, for the message
                rest = "".join(c.content for c in itertools.takewhile(
                    lambda c: c.type not in ("softbreak", "hardbreak"), children[i + 1:]))
                block.meta.setdefault("lone_dollars", []).append((line, t.content + rest))
            elif t.type.startswith("math_inline"):
                line += t.content.count("\n")  # a formula may go on over a line break


def _line(chapter, token, parent=None):
    m = token.map or (parent.map if parent is not None else None)
    return m[0] + 1 if m else None


def _walk(tokens):
    """Yield (token, parent) for block tokens and the inline children inside them."""
    for t in tokens:
        yield t, None
        for c in t.children or []:
            yield c, t


def _source_lines(chapter):
    """The chapter's lines as markdown-it numbers them (it splits on \\n, \\r\\n and \\r only)."""
    return re.split(r"\r\n?|\n", chapter.source)


def check_fences(chapter, tokens, env):
    """A fence that is never closed runs to the end of the file (CommonMark) and swallows the
    rest of the chapter: refuse it, naming the line where it starts."""
    lines = _source_lines(chapter)
    for t in tokens:
        if t.type != "fence" or not t.map:
            continue
        start, end = t.map
        last = lines[end - 1] if 0 < end <= len(lines) else ""
        close = r"[ \t>]*" + re.escape(t.markup[0]) + "{%d,}[ \t]*" % len(t.markup)
        if end - 1 <= start or not re.fullmatch(close, last):
            raise BuildError(f"the block starting at line {start + 1} is not closed with "
                             f"{t.markup}: add a line {t.markup} after its last line (an unclosed "
                             "block runs to the end of the file)", chapter.path, start + 1)


def check_raw_html(chapter, tokens, env):
    """HTML comments are notes for authors and are dropped; any other raw HTML is refused."""
    for t, parent in _walk(tokens):
        if t.type in ("html_block", "html_inline"):
            if COMMENTS.fullmatch(t.content):
                t.meta["drop"] = True
            elif t.content.lstrip().startswith("<!--"):
                raise BuildError("text after an HTML comment on the same line would be dropped "
                                 "with the comment (Markdown treats the whole line as HTML): put "
                                 "the comment on a line of its own", chapter.path,
                                 _line(chapter, t, parent))
            else:
                raise BuildError(f"raw HTML is not allowed in chapters ({t.content.strip()[:40]!r});"
                                 " use Markdown, or a widget block for interactive parts",
                                 chapter.path, _line(chapter, t, parent))


def check_dollars(chapter, tokens, env):
    """A $ or $$ that opens no formula (its closing one is missing, or in another paragraph)
    stops the build at its line: left alone it shows the reader raw TeX."""
    for t in tokens:
        for offset, text in t.meta.get("lone_dollars", []) if t.type == "inline" else ():
            opened = text[text.index("$"):]
            sign = "$$" if opened.startswith("$$") else "$"
            raise BuildError(f"{sign} opens a formula that is never closed: `{clip(opened, 40)}`; "
                             f"close it with {sign} in the same paragraph" +
                             (" (a display formula may not hold a blank line)" if sign == "$$"
                              else "") + ", or write \\$ for a literal dollar sign",
                             chapter.path, _line(chapter, t) + offset)


def _tex_problem(e):
    """latex2mathml's exceptions carry their meaning in the class name, often with no text."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(e).__name__).lower().removesuffix(" error")
    return f"{words}: {e}" if str(e) else words


@functools.lru_cache(maxsize=4096)  # an edited chapter keeps most of its formulas
def _mathml(tex, display):
    from latex2mathml.converter import convert as latex_to_mathml
    return latex_to_mathml(tex, display=display)


def render_math(chapter, tokens, env):
    """$...$ and $$...$$ -> MathML at build time, so pages need no math JavaScript."""
    for t, parent in _walk(tokens):
        if t.type in ("math_inline", "math_inline_double", "math_block", "math_block_label"):
            display = "inline" if t.type == "math_inline" else "block"
            tex, where = t.content.strip(), (chapter.path, _line(chapter, t, parent))
            if not tex:
                raise BuildError("an empty formula: write TeX between the dollar signs, or write "
                                 "\\$ for a literal dollar sign", *where)
            try:
                mathml = _mathml(tex, display)
            except Exception as e:  # latex2mathml raises many types for bad TeX
                raise BuildError(f"cannot render the formula `{tex[:60]}`: {_tex_problem(e)}", *where)
            unknown = UNKNOWN_TEX.search(mathml)
            if unknown:
                raise BuildError(f"cannot render the formula `{tex[:60]}`: unknown TeX command "
                                 f"{unknown.group(1)}", *where)
            try:
                t.meta["mathml"] = clean_mathml(mathml)
            except ValueError as e:
                raise BuildError(f"the formula `{tex[:60]}`: {e}", *where)


DESCRIPTION = 120  # characters of a chapter's first paragraph in its meta description


def collect_headings(chapter, tokens, env):
    """Title = the first level-1 heading, as plain text; every heading keeps its Markdown and
    its anchor for the TOC, search and links."""
    title = None
    for i, t in enumerate(tokens):
        if t.type == "heading_open":
            text = tokens[i + 1].content
            if not text.strip():
                raise BuildError(f"an empty heading: write its text after {t.markup}",
                                 chapter.path, _line(chapter, t))
            chapter.headings.append((int(t.tag[1]), text, t.attrs.get("id", "")))
            chapter.outline.append((int(t.tag[1]), plain_text(tokens[i + 1]), t.attrs.get("id", "")))
            if t.tag == "h1" and title is None:
                title = plain_text(tokens[i + 1])
    if title is None:
        raise BuildError("a chapter starts with its title as a level-1 heading: '# Title'",
                         chapter.path, 1)
    chapter.title = title
    first = next((tokens[i + 1] for i, t in enumerate(tokens)
                  if t.type == "paragraph_open" and i + 1 < len(tokens)), None)
    text = plain_text(first) if first is not None else ""
    chapter.description = text if len(text) <= DESCRIPTION else text[:DESCRIPTION - 1] + "…"


def rewrite_links(chapter, tokens, env):
    """[text](04-attention.md#anchor) -> 04-attention.html#anchor; remembered for checking."""
    for t, parent in _walk(tokens):
        if t.type == "link_open":
            href = t.attrs.get("href", "")
            if re.match(r"^[a-z][a-z0-9+.-]*:|^//", href, re.I):
                continue  # absolute URL: left alone
            path, _, anchor = href.partition("#")
            if path:
                path = posixpath.normpath(path)  # ./02-softmax.md is 02-softmax.md
            if path.endswith(".md"):
                t.attrs["href"] = path[:-3] + ".html" + ("#" + anchor if anchor else "")
            env["links"].append((chapter, _line(chapter, t, parent), unquote(path), unquote(anchor)))


def anchors(chapter):
    """The places a link may point to in a chapter: its headings, widgets and exercises."""
    return [a for _, _, a in chapter.headings] + [w["id"] for w in chapter.widgets] + \
        [e["id"] for e in chapter.exercises]


def check_links(book, env):
    """Every relative link must reach a chapter of the book and, if given, one of its anchors
    (a heading or a widget)."""
    by_name = {c.rel: c for c in book.chapters}
    for chapter, line, path, anchor in env["links"]:
        target = by_name.get(path) if path else chapter
        if target is None:
            raise BuildError(f"broken link to {clip(path)!r}: link to a chapter listed in "
                             f"book.toml, e.g. {book.chapters[0].rel}", chapter.path, line)
        if anchor and anchor not in anchors(target):
            known = ", ".join(anchors(target)[:6])
            raise BuildError(f"broken link: {target.rel} has no heading or widget #{clip(anchor)} "
                             f"(anchors there: {known} ...)", chapter.path, line)


def _image_target(book_root, src):
    """An image path as written (relative to book/) -> (file, href in the site), or raise
    ValueError saying what is wrong. Pages sit at the site's top level like chapters in book/,
    so a path inside book/ stays as it is; ../assets/x is the site's assets/x."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^/", src, re.I):
        raise ValueError("images are files of the book (pages load nothing from other sites); "
                         "save it under book/images/ and write images/<name>")
    path = posixpath.normpath(src)
    if path.startswith("../assets/"):
        file, href = ASSETS / path[len("../assets/"):], path[len("../"):]
    elif path == ".." or path.startswith("../"):
        raise ValueError("an image must be a file in book/ or in assets/ (paths relative to book/)")
    elif path.split("/")[0] in SITE_FOLDERS:
        raise ValueError(f"book/{path.split('/')[0]}/ would clash with the site's own folder; "
                         "keep book images in book/images/")
    else:
        file, href = book_root / path, path
    if Path(path).suffix.lower() not in IMAGE_TYPES:
        raise ValueError(f"not an image file; use one of {', '.join(IMAGE_TYPES)}")
    if not file.is_file():
        raise ValueError(f"there is no file {file}; images are files in book/ (images/x.png) or "
                         "in assets/ (../assets/images/x.png), paths relative to book/")
    return file, href


def check_images(chapter, tokens, env):
    """![description](path): the file must exist in book/ or assets/, and the reader gets a
    description. The page asks for path?v=<content hash> (a changed image is a new URL); the
    files themselves are checked and copied by check_image_files and copy_images. A chapter
    records each image as [href, line, version], href being the image's place in the site
    (images/x.png, or assets/images/x.png), so that a record holds no absolute path."""
    from ..renderers.output import file_version
    for t, parent in _walk(tokens):
        if t.type != "image":
            continue
        src, line = unquote(t.attrs.get("src", "")), _line(chapter, t, parent)
        if not t.content.strip():
            raise BuildError(f"the image {short(src)} needs a short description for readers who "
                             "cannot see it: ![描述](path)", chapter.path, line)
        try:
            file, href = _image_target(chapter.path.parent, src)
        except ValueError as e:
            raise BuildError(f"image {short(src)}: {e}", chapter.path, line)
        version = file_version(file)
        t.attrs["src"] = f"{quote(href)}?v={version}"
        env["images"].append([href, line, version])


def image_file(book_root, href):
    """The file behind an image's place in the site (see check_images)."""
    if href.startswith("assets/"):
        return ASSETS / href[len("assets/"):]
    return Path(book_root) / href


def image_is_current(book_root, image):
    """A compiled chapter's image still has the bytes it was compiled with (else the chapter
    is compiled again, for a new ?v= and a fresh check)."""
    from ..renderers.output import file_version
    file = image_file(book_root, image[0])
    return file.is_file() and file_version(file) == image[2]


def check_image_files(book, images):
    """Every image a chapter shows, [(chapter, [href, line, version])]: a file inside book/
    (or assets/) once symlinks are followed, and safe to publish (sanitize.check_image).
    Runs on every build: for cached chapters too."""
    roots = [Path(book.root).resolve(), ASSETS.resolve()]
    for chapter, (href, line, _) in images:
        file = image_file(book.root, href)
        real = file.resolve()
        if not any(real.is_relative_to(r) for r in roots):
            raise BuildError(f"image {short(href)}: {file} is a link to {real}, outside book/: "
                             "the book publishes only its own files; copy the image into "
                             "book/images/", chapter.path, line)
        try:
            check_image(real, real.read_bytes())
        except ValueError as e:
            raise BuildError(f"image {short(href)}: {e}", chapter.path, line)


def copy_images(book, site_dir, images):
    """Copy the book images that chapters show (and only those) to the same place in the
    site; images of assets/ come with the assets."""
    for _, (href, _, _) in images:
        if not href.startswith("assets/"):
            (site_dir / href).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(image_file(book.root, href).resolve(), site_dir / href)
