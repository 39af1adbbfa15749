"""`python3 build.py epub`: the book as an EPUB 3 (site/book.epub), checked by epubcheck in the
tests.

One XHTML document per chapter, in book order, with the book's MathML kept as MathML and every
widget as its figure in its default state (its pre-rendered SVG and key numbers; the controls,
which need the live page, are left out, and so are the 数值 tables); images the chapters and
widgets show are packed in; links between chapters point into the EPUB. Metadata in Chinese
(dc:language zh-CN). Two libraries do the hard parts: html5lib parses the pages as a browser
does (SVG and MathML in their own namespaces), and ebooklib writes the container (mimetype,
OPF package, navigation document, NCX) that EPUB readers and epubcheck expect.
"""
import hashlib
import re
import uuid
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from .. import pagenames
from ..errors import BuildError

NAME = "book.epub"
NAV = pagenames.EPUB_NAV
XHTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"
DROP = {"button", "input", "select", "script", "template", "dialog"}  # the live page's parts
LIVE_ATTRS = {"tabindex", "for", "aria-valuenow", "aria-valuemin", "aria-valuemax",
              "aria-valuetext", "aria-controls", "aria-pressed", "aria-checked", "aria-expanded",
              "aria-haspopup", "aria-busy", "autocomplete", "autocorrect", "autocapitalize",
              "spellcheck", "wrap", "rows", "cols", "maxlength", "minlength", "readonly", "disabled",
              "contenteditable",
              "draggable", "focusable", "aria-selected", "aria-activedescendant", "aria-multiselectable",
              "aria-orientation"}
LIVE_ROLES = {"group", "radiogroup", "radio", "switch", "spinbutton", "slider", "listbox",
              "option", "progressbar", "button", "tab", "tablist", "combobox"}
DROP_CLASSES = {"numbers", "widget-status", "readout", "widget-how", "lab-actions",
                "runtime-notice", "anchor", "embed-open", "notebook-open"}
# the build pages an EPUB reader needs too, after the chapters (the notation page: every
# symbol of the formulas with its meaning, as the site has it)
EXTRA_PAGES = (("notation.html", "符号表"), ("glossary.html", "术语表"),
               ("bibliography.html", "参考文献"))
ARTICLE = re.compile(r'<article class="chapter[^"]*">(.*?)</article>', re.S)
CSS = """body { font-family: serif; line-height: 1.7; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; } h3 { font-size: 1.1em; }
figure.widget { border: 1px solid #999; padding: .5em; margin: 1em 0; }
figure.widget svg { max-width: 100%; height: auto; }
.fig-number, .eq-number { color: #555; }
.equation { margin: 1em 0; }
table { border-collapse: collapse; } th, td { border: 1px solid #999; padding: .2em .4em; }
pre { white-space: pre-wrap; font-size: .85em; }
[data-seq="0"] { fill: #fde725; } [data-seq="1"] { fill: #b5de2b; } [data-seq="2"] { fill: #6ece58; }
[data-seq="3"] { fill: #35b779; } [data-seq="4"] { fill: #1f9e89; } [data-seq="5"] { fill: #26828e; }
[data-seq="6"] { fill: #31688e; } [data-seq="7"] { fill: #3e4989; } [data-seq="8"] { fill: #482878; }
[data-div="0"] { fill: #542788; } [data-div="1"] { fill: #8073ac; } [data-div="2"] { fill: #b2abd2; }
[data-div="3"] { fill: #d8daeb; } [data-div="4"] { fill: #f4f4f2; } [data-div="5"] { fill: #fee0b6; }
[data-div="6"] { fill: #fdb863; } [data-div="7"] { fill: #e08214; } [data-div="8"] { fill: #b35806; }
svg text { font-size: 12px; } svg .mark, svg .bar rect { fill: #2357b5; }
svg .curve { fill: none; stroke: #2357b5; } svg .grid { stroke: #ccc; } svg [data-hidden] { display: none; }
"""


def _local(tag):
    ns, _, name = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    return ns, name


def _dropped(el):
    ns, name = _local(el.tag)
    classes = set(el.get("class", "").split())
    return (ns == XHTML and name in DROP) or bool(classes & DROP_CLASSES)


def _xml(el, parent_ns, out, fix_href):
    """Serialise an html5lib element as XHTML: each namespace declared where it begins
    (svg, math), boolean attributes spelled out, data-* kept, links fixed for the EPUB."""
    ns, name = _local(el.tag)
    if name == "textarea":  # the code lab's code: text to read
        ns, name = XHTML, "pre"
    attrs = []
    if ns != parent_ns:
        attrs.append(f"xmlns={quoteattr(ns)}")
    if ns == SVG and name == "a" and not any(_local(k)[1] == "title" for k in el.attrib):
        # a link inside a figure is named by its title for EPUB reading systems (ACC-011)
        attrs.append(f"xmlns:xlink={quoteattr(XLINK)}")
        attrs.append(f"xlink:title={quoteattr(' '.join(''.join(el.itertext()).split()))}")
    for key, value in el.attrib.items():
        kns, kname = _local(key)
        if kname == "xmlns":
            continue  # declared above, where the namespace begins
        if kns == XLINK or kname in ("href", "src"):
            value = fix_href(value)
            if value is None:
                continue  # a page of the site the EPUB does not hold: the text stays, unlinked
        if kns == XLINK:
            kname = "xlink:" + kname
            if "xmlns:xlink" not in " ".join(attrs):
                attrs.append(f"xmlns:xlink={quoteattr(XLINK)}")
        if kname.startswith("on") or kname in LIVE_ATTRS or \
                (ns == SVG and name != "svg" and kname in ("role", "aria-label")):
            continue  # a static figure: no focus, no states, no parts to point at
        if kname == "role" and (name == "svg" or value in LIVE_ROLES):
            value = "img" if name == "svg" else None  # a figure now, no longer a control
            if value is None:
                continue
        attrs.append(f"{kname}={quoteattr(value)}")
    out.append(f"<{name}" + "".join(" " + a for a in attrs) + ">")
    if el.text:
        out.append(escape(el.text))
    for child in el:
        if not _dropped(child):
            _xml(child, ns, out, fix_href)
        if child.tail:
            out.append(escape(child.tail))
    out.append(f"</{name}>")


def xhtml_body(html, fix_href):
    """A chapter's HTML -> the XHTML inside its <body> (parsed as a browser would)."""
    import html5lib
    fragment = html5lib.parseFragment(str(html), treebuilder="etree", namespaceHTMLElements=True)
    out = [escape(fragment.text or "")]
    for el in fragment:
        if not _dropped(el):
            _xml(el, XHTML, out, fix_href)
        if el.tail:
            out.append(escape(el.tail))
    return "".join(out)


def document(title, body):
    return ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
            f'<html xmlns="{XHTML}" xmlns:epub="http://www.idpf.org/2007/ops" '
            f'xml:lang="zh-CN" lang="zh-CN"><head><meta charset="utf-8"/>'
            f'<title>{escape(title)}</title><link rel="stylesheet" href="book.css" '
            f'type="text/css"/></head><body>{body}</body></html>')


def write(site, book, number_of):
    """site/book.epub from the built site (its chapters' HTML and the files they show)."""
    from ebooklib import epub
    site = Path(site)
    pages = {c.href: c.slug + ".xhtml" for c in book.chapters}
    extras = [(name, title) for name, title in EXTRA_PAGES if (site / name).is_file()]
    pages.update({name: name.replace(".html", ".xhtml") for name, _ in extras})
    images = {}

    def fix_href(value):
        path, _, rest = value.partition("?")
        page, hash_, anchor = path.partition("#")
        if page in pages:
            return pages[page] + (hash_ + anchor if hash_ else "")
        if (site / page).is_file() and re.search(r"\.(png|jpe?g|gif|svg|webp)$", page, re.I):
            images[page] = site / page
            return page
        if re.match(r"^[a-z][a-z0-9+.-]*:", value, re.I) or not page:
            return value  # another site, or a place in this document
        return None

    ebook = epub.EpubBook()
    ident = uuid.UUID(hashlib.sha256(book.title.encode()).hexdigest()[:32])
    ebook.set_identifier(f"urn:uuid:{ident}")
    ebook.set_title(book.title)
    ebook.set_language("zh-CN")
    ebook.add_author("《交互式 Transformer》的作者们")
    if book.description:
        ebook.add_metadata("DC", "description", book.description)
    style = epub.EpubItem(uid="css", file_name="book.css", media_type="text/css", content=CSS)
    ebook.add_item(style)
    documents = [(c.slug, c.title, c.html, pages[c.href]) for c in book.chapters]
    for name, title in extras:  # the notation, glossary and bibliography, from the built pages
        html = (site / name).read_text(encoding="utf-8")
        article = ARTICLE.search(html)
        documents.append((name[:-5], title, article.group(1) if article else "", pages[name]))
    items = []
    for slug, title, html, file_name in documents:
        body = xhtml_body(html, fix_href)
        item = epub.EpubItem(uid="ch-" + slug, file_name=file_name,
                             media_type="application/xhtml+xml",
                             content=document(title, body).encode("utf-8"))
        item.properties = [p for p, mark in (("mathml", "<math"), ("svg", "<svg")) if mark in body]
        ebook.add_item(item)
        items.append((slug, title, item))
    for rel, file in sorted(images.items()):
        kind = {".svg": "image/svg+xml", ".png": "image/png", ".gif": "image/gif",
                ".webp": "image/webp"}.get(file.suffix.lower(), "image/jpeg")
        ebook.add_item(epub.EpubItem(uid="img-" + hashlib.sha1(rel.encode()).hexdigest()[:10],
                                     file_name=rel, media_type=kind, content=file.read_bytes()))
    ebook.toc = [epub.Link(item.file_name, title, "toc-" + slug) for slug, title, item in items]
    ebook.add_item(epub.EpubNcx())
    nav = epub.EpubNav(file_name=NAV)
    ebook.add_item(nav)
    ebook.spine = ["nav"] + [item for _, _, item in items]
    out = site / NAME
    try:
        epub.write_epub(str(out), ebook)
    except Exception as e:  # ebooklib raises plain exceptions for what it cannot write
        raise BuildError(f"could not write the EPUB: {type(e).__name__}: {e}")
    return out
