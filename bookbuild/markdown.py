"""Stage 2 -- parse: chapter Markdown -> markdown-it tokens, checked and annotated.

The parser is CommonMark + GFM tables + dollar math + heading anchors. The rules below are plain
functions (chapter, tokens, env) that annotate tokens or raise BuildError with the chapter's file
and line; pipeline.CHAPTER_RULES lists them in order.
"""
import re
import unicodedata
from urllib.parse import unquote

from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from .errors import BuildError

COMMENT = re.compile(r"^\s*<!--.*?-->\s*$", re.S)


def slugify(text):
    """Heading text -> anchor: letters and digits of any script (Chinese kept), '-' between."""
    kept = [c.lower() if unicodedata.category(c)[0] in "LN" else " " for c in text]
    return "-".join("".join(kept).split()) or "section"


def highlight_code(code, lang, _attrs):
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    if lexer is None:
        return ""  # markdown-it escapes and wraps it itself
    return highlight(code, lexer, HtmlFormatter(nowrap=True))


def make_parser():
    md = MarkdownIt("commonmark", {"html": True, "highlight": highlight_code})
    md.enable("table")
    md.use(dollarmath_plugin, allow_labels=False, double_inline=True)
    md.use(anchors_plugin, min_level=1, max_level=3, slug_func=slugify)
    return md


def _line(chapter, token, parent=None):
    m = token.map or (parent.map if parent is not None else None)
    return m[0] + 1 if m else None


def _walk(tokens):
    """Yield (token, parent) for block tokens and the inline children inside them."""
    for t in tokens:
        yield t, None
        for c in t.children or []:
            yield c, t


def check_raw_html(chapter, tokens, env):
    """HTML comments are notes for authors and are dropped; any other raw HTML is refused."""
    for t, parent in _walk(tokens):
        if t.type in ("html_block", "html_inline"):
            if COMMENT.match(t.content):
                t.meta["drop"] = True
            else:
                raise BuildError(f"raw HTML is not allowed in chapters ({t.content.strip()[:40]!r});"
                                 " use Markdown, or a widget block for interactive parts",
                                 chapter.path, _line(chapter, t, parent))


def render_math(chapter, tokens, env):
    """$...$ and $$...$$ -> MathML at build time, so pages need no math JavaScript."""
    for t, parent in _walk(tokens):
        if t.type in ("math_inline", "math_inline_double", "math_block"):
            display = "inline" if t.type == "math_inline" else "block"
            try:
                t.meta["mathml"] = latex_to_mathml(t.content.strip(), display=display)
            except Exception as e:  # latex2mathml raises many types for bad TeX
                raise BuildError(f"cannot render the formula {t.content.strip()[:60]!r}: {e}",
                                 chapter.path, _line(chapter, t, parent))


def collect_headings(chapter, tokens, env):
    """Title = the first level-1 heading; every heading keeps its anchor for the TOC and links."""
    for i, t in enumerate(tokens):
        if t.type == "heading_open":
            text = tokens[i + 1].content
            chapter.headings.append((int(t.tag[1]), text, t.attrs.get("id", "")))
    titles = [text for level, text, _ in chapter.headings if level == 1]
    if not titles:
        raise BuildError("a chapter starts with its title as a level-1 heading: '# Title'",
                         chapter.path, 1)
    chapter.title = titles[0]


def rewrite_links(chapter, tokens, env):
    """[text](04-attention.md#anchor) -> 04-attention.html#anchor; remembered for checking."""
    for t, parent in _walk(tokens):
        if t.type == "link_open":
            href = t.attrs.get("href", "")
            if re.match(r"^[a-z][a-z0-9+.-]*:|^//", href, re.I):
                continue  # absolute URL: left alone
            path, _, anchor = href.partition("#")
            if path.endswith(".md"):
                t.attrs["href"] = path[:-3] + ".html" + ("#" + anchor if anchor else "")
            env["links"].append((chapter, _line(chapter, t, parent), unquote(path), unquote(anchor)))


def check_links(book, env):
    """Every relative link must reach a chapter of the book and, if given, one of its anchors."""
    by_name = {c.rel: c for c in book.chapters}
    for chapter, line, path, anchor in env["links"]:
        target = by_name.get(path) if path else chapter
        if target is None:
            raise BuildError(f"broken link to {path!r}: link to a chapter listed in book.toml, "
                             f"e.g. {book.chapters[0].rel}", chapter.path, line)
        if anchor and anchor not in {a for _, _, a in target.headings}:
            known = ", ".join(a for _, _, a in target.headings[:6])
            raise BuildError(f"broken link: {target.rel} has no heading anchor #{anchor} "
                             f"(anchors there: {known} ...)", chapter.path, line)
