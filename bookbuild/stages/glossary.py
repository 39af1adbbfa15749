"""The glossary: book/glossary.toml defines each term once; a chapter marks its first use.

    [[terms]]
    zh = "因果掩码"
    en = "causal mask"
    definition = "…"              # one line, in the book's words
    chapter = "08-decoder.md"     # where the book explains it

The first time a chapter's text uses a term (not in a heading, a link, code or a formula), the
word becomes a link to the term on the glossary page, with the definition as its hover or
focus card (assets/popover.js; on a touch screen the first tap opens the card, a second
follows the link). The search index finds a section holding a term under its English name too
(bookbuild/renderers/search.py). Where two terms start at the same
place the longer wins (多头注意力 before 注意力). A term listed twice, a chapter that is not in
the book, or a missing field stops the build at its line of glossary.toml.
"""
import hashlib
import re
import tomllib
from html import escape
from pathlib import Path

from .. import pagenames
from ..errors import BuildError, toml_error
from .load import read_text

FILE = "glossary.toml"
FIELDS = ("zh", "en", "definition", "chapter")
PAGE = pagenames.GLOSSARY


def version(book_root):
    """A hash of the glossary file: compiled chapters depend on it (their marked terms)."""
    path = Path(book_root) / FILE
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else ""


def anchor(term):
    return "term-" + re.sub(r"\s+", "-", term["en"].strip().lower())


def load(book):
    """The book's terms, [{zh, en, definition, chapter, line, anchor}] ([] without a file)."""
    path = Path(book.root) / FILE
    if not path.is_file():
        return []
    text = read_text(path, str(path))
    try:
        conf = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        what, line = toml_error(e)
        raise BuildError(f"invalid TOML ({what})", path, line)
    except (RecursionError, ValueError) as e:
        raise BuildError(f"invalid TOML ({e})", path)
    chapters = {c.rel for c in book.chapters}
    lines = [n for n, row in enumerate(text.split("\n"), 1) if row.strip() == "[[terms]]"]
    listed = conf.get("terms", [])
    if not isinstance(listed, list) or not all(isinstance(t, dict) for t in listed):
        raise BuildError("terms are tables: write [[terms]], then zh = \"...\", en = \"...\", "
                         "definition = \"...\" and chapter = \"NN-name.md\" on their own lines",
                         path, next((n for n, row in enumerate(text.split("\n"), 1)
                                     if re.match(r"\s*\[*\s*terms\b", row)), None))
    terms, seen, anchors = [], {}, {}
    for n, term in enumerate(listed):
        line = lines[n] if n < len(lines) else None
        missing = [f for f in FIELDS if not isinstance(term.get(f), str) or not term[f].strip()]
        if missing:
            raise BuildError(f"a term needs {', '.join(missing)} (strings): {', '.join(FIELDS)}",
                             path, line)
        if term["chapter"] not in chapters:
            raise BuildError(f"term {term['zh']!r}: chapter {term['chapter']!r} is not in the "
                             "book (book.toml)", path, line)
        if term["zh"] in seen:
            raise BuildError(f"term {term['zh']!r} is defined twice (first at line "
                             f"{seen[term['zh']]})", path, line)
        seen[term["zh"]] = line
        # the glossary page's id of the term: two terms with one id would share one entry
        if anchor(term) in anchors:
            first = anchors[anchor(term)]
            raise BuildError(f"term {term['zh']!r} (en = {term['en']!r}) has the glossary page's "
                             f"link #{anchor(term)} of term {first['zh']!r} (en = {first['en']!r}, "
                             f"line {first['line']}): their English names differ only in case or "
                             "spaces; make them differ in words", path, line)
        anchors[anchor(term)] = {**term, "line": line}
        terms.append({**{f: term[f].strip() for f in FIELDS}, "line": line,
                      "anchor": anchor(term)})
    return terms


def _first_uses(text, terms, marked):
    """Split text at the first use of each term not yet marked: [(piece, term or None)]."""
    out, at = [], 0
    while True:
        best = None
        for term in terms:
            if term["zh"] in marked:
                continue
            i = text.find(term["zh"], at)
            if i >= 0 and (best is None or i < best[0] or
                           (i == best[0] and len(term["zh"]) > len(best[1]["zh"]))):
                best = (i, term)
        if best is None:
            break
        i, term = best
        if i > at:
            out.append((text[at:i], None))
        out.append((term["zh"], term))
        marked.add(term["zh"])
        at = i + len(term["zh"])
    if at < len(text):
        out.append((text[at:], None))
    return out


def mark_terms(chapter, tokens, env):
    """Token rule: the first use of each glossary term in the chapter's text becomes a
    glossary_term token (rendered by render.install_rules)."""
    terms = env.get("glossary") or []
    if not terms:
        return
    from markdown_it.token import Token
    marked, in_heading = set(), False
    for t in tokens:
        if t.type in ("heading_open", "heading_close"):
            in_heading = t.type == "heading_open"
        if t.type != "inline" or in_heading or not t.children:
            continue
        children, in_link = [], 0
        for c in t.children:
            if c.type == "link_open":
                in_link += 1
            elif c.type == "link_close":
                in_link -= 1
            if c.type != "text" or in_link:
                children.append(c)
                continue
            for piece, term in _first_uses(c.content, terms, marked):
                if term is None:
                    text = Token("text", "", 0)
                    text.content = piece
                    children.append(text)
                else:
                    mark = Token("glossary_term", "", 0)
                    mark.content, mark.meta["term"] = piece, term
                    children.append(mark)
        t.children = children


def render_term(token, root=""):
    term = token.meta["term"]
    card = f"{term['en']}：{term['definition']}"
    return (f'<a class="term" href="{root}{PAGE}#{escape(term["anchor"])}" '
            f'data-def="{escape(card)}">{escape(token.content)}</a>')
