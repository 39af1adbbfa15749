"""The book's bibliography: book/references.bib (BibTeX), cited with [@key]
(bookbuild/stages/xref.py).

BibTeX because it is what arXiv, publishers and Google Scholar hand out for every paper, so an
author pastes an entry and is done; bibtexparser (v2, well kept) reads it and decodes its
LaTeX ({\\"o} -> ö, {T}ransformer -> Transformer). The book formats entries itself, in one
short author-year style that suits Chinese text:

    in the text   （Vaswani 等，2017）   （Ba 和 Kiros，2016）   （Shazeer，2019）
    in the list   Ashish Vaswani, Noam Shazeer, … Attention Is All You Need. NeurIPS, 2017.
                  arXiv:1706.03762

Every citation links to its entry in the chapter's reference list (a hover or focus shows it
as a card, assets/popover.js); entries link out to the paper (DOI, else arXiv, else url) as
plain links: the page itself still loads nothing from elsewhere.
"""
import re
from html import escape
from pathlib import Path

from ..errors import BuildError, clip
from .load import read_text
from .sanitize import web_address
from .xref import KEY

FILE = "references.bib"
NEEDED = ("author", "title", "year")
MAX_AUTHORS = 6  # the list names this many, then 等
MAX_FILE = 1_000_000  # characters of references.bib: thousands of entries
MAX_FIELD = 10_000    # characters of one field: a long abstract has 2,000


def load(book_root):
    """{key: entry} from book/references.bib ({} when the book has none). An entry without
    author, title or year, a duplicate key, a key that is not plain, a url that is not a web
    address, a field too long to decode or a block that is not BibTeX stops the build."""
    path = Path(book_root) / FILE
    if not path.is_file():
        return {}
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors, SplitNameParts
    from bibtexparser.model import DuplicateBlockKeyBlock
    text = read_text(path, str(path))
    if len(text) > MAX_FILE:
        raise BuildError(f"the bibliography is {len(text):,} characters long, more than "
                         f"{MAX_FILE:,} (passed at this line); keep one entry per cited work, "
                         "without abstracts", path, text.count("\n", 0, MAX_FILE) + 1)
    library = bibtexparser.parse_string(text)  # split, not decoded yet: see _check_sizes
    _check_sizes(library, path)
    for middleware in (LatexDecodingMiddleware(), SeparateCoAuthors(), SplitNameParts()):
        library = middleware.transform(library=library)
    for block in library.failed_blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, DuplicateBlockKeyBlock):
            raise BuildError(f"the key {block.key!r} is defined twice, at line "
                             f"{block.previous_block.start_line + 1} and at line {line}; give "
                             "each entry its own key (or delete the copy)", path, line)
        raise BuildError(f"not a valid BibTeX entry ({type(block).__name__}: {block.error}); "
                         "write @type{key, field = {value}, ...}", path, line)
    entries = {}
    for e in library.entries:
        line = e.start_line + 1
        if not KEY.match(e.key):
            raise BuildError(f"the key {e.key!r} may hold only letters, digits and _ : . + - "
                             "(it becomes a link target and is cited as [@key]); rename it",
                             path, line)
        fields = {k.lower(): v for k, v in e.fields_dict.items()}
        missing = [f for f in NEEDED if f not in fields]
        if missing:
            raise BuildError(f"the entry {e.key!r} has no {', '.join(missing)}", path, line)
        entries[e.key] = {"key": e.key, "type": e.entry_type.lower(), "line": line,
                          "authors": [_name(a) for a in fields["author"].value],
                          **{k: _text(v.value) for k, v in fields.items() if k != "author"}}
        if "url" in fields:
            entries[e.key]["url"] = _url(e.key, fields["url"], path)
    return entries


def _check_sizes(library, path):
    """Decoding LaTeX takes time that grows with the square of a field's length: a field (or
    @string) longer than MAX_FIELD stops the build at its line before it is decoded."""
    values = [(f"the field {f.key} of {e.key!r}", f.value, f.start_line)
              for e in library.entries for f in e.fields]
    values += [(f"@string {s.key}", s.value, s.start_line) for s in library.strings]
    for what, value, line in values:
        if len(str(value)) > MAX_FIELD:
            raise BuildError(f"{what} is {len(str(value)):,} characters long, more than "
                             f"{MAX_FIELD:,}; a reference needs only its authors, title, venue, "
                             "year and link", path, (line or 0) + 1)


def _url(key, field, path):
    """An entry's url, as a browser reads it: only a web address (http or https) becomes a link
    in the reference lists, the bibliography and the EPUB."""
    url = web_address(str(field.value))
    if url is None:
        raise BuildError(f"the url of {key!r} is {clip(str(field.value))!r}, not a web address; "
                         "write url = {https://...} (http or https, nothing else)", path,
                         field.start_line + 1)
    return url


def _text(value):
    """A field's text: braces that only protect case dropped, spaces squeezed."""
    return " ".join(str(value).replace("{", "").replace("}", "").split())


def _name(person):
    """bibtexparser's name parts -> (first names, last name with its particle: van den Oord)."""
    if not hasattr(person, "last"):
        return "", _text(str(person))
    return _text(" ".join(person.first)), _text(" ".join(person.von + person.last))


def short(entry):
    """The citation's text: Vaswani 等，2017 / Ba 和 Kiros，2016 / Shazeer，2019."""
    lasts = [last for _, last in entry["authors"] if last != "others"]
    etal = len(entry["authors"]) > 2 or any(last == "others" for _, last in entry["authors"])
    who = (f"{lasts[0]} 等" if etal else " 和 ".join(lasts)) if lasts else "佚名"
    return f"{who}，{entry['year']}"


def link(entry):
    """Where the paper is: its DOI, else its arXiv page, else its url."""
    if entry.get("doi"):
        return "https://doi.org/" + entry["doi"]
    arxiv = entry.get("eprint") if entry.get("archiveprefix", "arXiv").lower() == "arxiv" else None
    if arxiv:
        return "https://arxiv.org/abs/" + arxiv
    return entry.get("url", "")


def venue(entry):
    return entry.get("booktitle") or entry.get("journal") or entry.get("publisher") or \
        entry.get("institution") or entry.get("howpublished") or ""


def full(entry):
    """The reference list's HTML for one entry (authors, title, venue, year, link)."""
    names = [f"{first} {last}".strip() for first, last in entry["authors"] if last != "others"]
    more = len(names) > MAX_AUTHORS or any(last == "others" for _, last in entry["authors"])
    authors = ", ".join(names[:MAX_AUTHORS]) + (" 等" if more else "")
    parts = [f'<span class="ref-authors">{escape(authors)}</span>.',
             f'<cite class="ref-title">{escape(entry["title"])}</cite>.']
    where = ", ".join(x for x in (venue(entry), entry["year"]) if x)
    parts.append(f'<span class="ref-venue">{escape(where)}</span>.')
    href = link(entry)
    if href:
        shown = ("arXiv:" + entry["eprint"]) if "arxiv.org" in href else href
        parts.append(f'<a class="ref-link" href="{escape(href)}">{escape(shown)}</a>')
    return " ".join(parts)


def cite_html(keys, bibliography):
    """A citation in the text: （A 等，2017；B，2014）, each part a link to its entry."""
    links = [f'<a class="cite-ref" href="#ref-{escape(k)}" data-ref="ref-{escape(k)}">'
             f"{escape(short(bibliography[k]))}</a>" for k in keys]
    return f'<span class="cite">（{"；".join(links)}）</span>'


def cited_keys(chapter):
    """The bibliography keys a chapter cites, in the order of their first citation."""
    seen = []
    for key, _ in chapter.refs:
        if not re.match(r"^(eq|fig|sec):", key) and key not in seen:
            seen.append(key)
    return seen


def reference_list(keys, bibliography, heading="参考文献"):
    """The chapter's list: one <li id="ref-key"> per cited entry."""
    if not keys:
        return ""
    items = "".join(f'<li id="ref-{escape(k)}">{full(bibliography[k])}</li>' for k in keys)
    return (f'<section class="references" aria-labelledby="references-heading">'
            f'<h2 id="references-heading">{heading}</h2><ol>{items}</ol></section>')
