"""Stage 6 -- search: every heading section of the compiled chapters becomes one document of
site/search-index.json, which assets/search.js queries in the browser (no server, offline).

Text comes from the rendered chapter HTML: headings h1-h3 (the ones with anchors) open a
section; a formula contributes its characters (√dk), a widget block only its title, an
exercise only its title. Terms:

- a Chinese run gives its overlapping character bigrams ("位置编码" -> 位置, 置编, 编码), as
  Lucene's CJKAnalyzer does: no dictionary, no word list, every word of the book findable
  whether or not a dictionary knows it. A character alone between non-Chinese text gives
  itself: the book quotes single-character tokens of its running example ("它", "累"), and a
  reader looking for them should find those sections;
- ASCII words are lowercased; "top-k" and "d_model" also give their parts, camelCase words
  their humps ("LayerNorm" -> layernorm, layer, norm); pure numbers and one-letter words drop,
  and so do the English stop words below.

Chinese has no stop list: a frequent bigram ("一个") weighs little in BM25 anyway, and some
that look like function words are words of the running example ("没有").
search.js repeats these rules (FORMAT is their version; bump it on any change).

Cutting is cheap, but sections, terms and JSON still cost ~60 ms a build; the written bytes are
cached on disk under a hash of this file and the chapters' HTML, so an unchanged book costs a
hash and a copy (write_index).
"""
import functools
import hashlib
import json
import re
import unicodedata
from collections import Counter
from html import unescape
from pathlib import Path

from . import chapter_cache, mathtext
from .vendor import runtime_cache

INDEX_NAME = "search-index.json"
FORMAT = 2             # version of the term rules and the file layout
SNIPPET_TEXT = 2000    # at most this many characters of a section's text kept (snippets, phrases)
CACHE_KEEP = 8         # whole indexes kept in the cache folder (oldest go first; ~400 kB each)

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
RUN = re.compile(rf"[{CJK}]+|[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*")
HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
STOP_EN = set("an and are as at be by for from in is it its of on or that the this to "
              "with we you".split())
BLOCK_TAGS = {"p", "li", "ul", "ol", "td", "th", "tr", "table", "pre", "div", "br", "blockquote",
              "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "figure", "figcaption", "hr"}


# ---------------------------------------------------------------- sections from chapter HTML

TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>|([^<]+)")
MATH = re.compile(r"<math\b.*?</math>", re.S)
ATTR = re.compile(r'([a-zA-Z-]+)="([^"]*)"')


def _squash(parts):
    return " ".join("".join(parts).split())


def math_text(m):
    """A formula as the characters a reader sees (√dₖ, QKᵀ, bookbuild/mathtext.py)."""
    return " " + mathtext.text(m.group(0)) + " "


@functools.lru_cache(maxsize=256)  # the preview server rebuilds unchanged chapters often
def sections(html):
    """Chapter HTML -> [{"level", "anchor", "heading", "text"}], one per h1-h3 heading with an
    id; a formula leaves its characters, a widget block its title (its aria-label), a
    heading's permalink (a.anchor) nothing."""
    secs = [{"level": 0, "anchor": "", "heading": [], "text": []}]
    heading, widget, permalink, box = None, 0, False, None  # box: the widget's or exercise's tag
    for m in TAG.finditer(MATH.sub(math_text, str(html))):
        close, tag, attrs, data = m.groups()
        out = secs[-1]["heading" if heading else "text"]
        if data is not None:
            if not widget and not permalink:
                out.append(unescape(data))
        elif tag == "a" and not widget:
            permalink = not close and 'class="anchor"' in attrs  # a heading's "#" link
        elif widget:
            widget += (-1 if close else 1) * (tag == box)
        elif not close and ((tag == "figure" and "data-widget" in attrs) or
                            (tag == "section" and "data-exercise" in attrs)):
            widget, box = 1, tag
            named = dict(ATTR.findall(attrs))
            out.append(f" {unescape(named.get('aria-label') or named.get('data-title', ''))} ")
        elif tag in ("h1", "h2", "h3") and not close and 'id="' in attrs:
            secs.append({"level": int(tag[1]), "anchor": unescape(dict(ATTR.findall(attrs))["id"]),
                         "heading": [], "text": []})
            heading = tag
        elif close and tag == heading:
            heading = None
        elif tag in BLOCK_TAGS:
            out.append(" ")
    return [{**s, "heading": _squash(s["heading"]), "text": _squash(s["text"])}
            for s in secs if s["level"] or _squash(s["text"])]


def heading_text(source):
    """A heading's Markdown -> the text a reader sees, a formula as its TeX source
    ("为什么要除以 $\\sqrt{d_k}$" -> "为什么要除以 \\sqrt{d_k}")."""
    text = re.sub(r"\$+([^$]+)\$+", r"\1", source)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.replace("`", "").replace("**", "").split())


# ---------------------------------------------------------------- terms

@functools.lru_cache(maxsize=8192)  # the book repeats its words: most calls are hits
def _ascii_terms(word):
    return tuple(ascii_terms(word))


def ascii_terms(word):
    """One ASCII word -> its terms: lowercased whole, then parts split at - and _, and the humps
    of a camelCase word when every hump has two letters or more."""
    out = [word.lower()]
    parts = re.split(r"[-_]", word)
    if len(parts) > 1:
        for p in parts:
            out += ascii_terms(p)
    else:
        humps = HUMP.findall(word)
        if len(humps) > 1 and all(len(h) >= 2 for h in humps):
            out += [h.lower() for h in humps]
    return [t for t in out if len(t) > 1 and not t.isdigit() and t not in STOP_EN]


def chinese_terms(run):
    """A run of Chinese characters -> its overlapping bigrams ("位置编码" -> 位置, 置编, 编码),
    or the character itself when it stands alone ("它" between quotes)."""
    if len(run) == 1:
        return [run]
    return list(map(str.__add__, run, run[1:]))


def terms(text):
    """Text -> its index terms, in order, repeated as often as they occur."""
    out = []
    for run in RUN.findall(unicodedata.normalize("NFKC", text)):
        out += _ascii_terms(run) if run[0].isascii() else chinese_terms(run)
    return out


@functools.lru_cache(maxsize=1024)  # the preview server rebuilds unchanged sections often
def section_terms(heading, text):
    """A section's (heading Counter, text Counter) of terms; shared between builds: read only."""
    return Counter(terms(heading)), Counter(terms(text))


# ---------------------------------------------------------------- the index

def build_index(book, *, log=lambda *a: None):
    """The search index of a compiled book, as a JSON-ready dict:

    chapters: [[href, title]];
    docs: [[chapter, anchor, heading, text length, heading length]], one per h1-h3 section
      (anchor "" for the chapter's title section); lengths are counted in terms;
    text: each doc's plain text (at most SNIPPET_TEXT characters; the book's longest section has
      ~1300), for snippets and for search.js's phrase bonus (a query run found verbatim);
    terms: {term: [doc, n, doc, n, ...]}, docs ascending, n = count in the doc's text, stored
      as -(n + 1) when the term is also in the doc's heading (df = half the list's length);
    avg: [mean text length, mean heading length] for BM25's length normalisation."""
    chapters, docs, text, postings = [], [], [], {}
    for ci, chapter in enumerate(book.chapters):
        chapters.append([chapter.href, chapter.title])
        titles = {anchor: heading_text(src) for _, src, anchor in chapter.headings}
        secs = [{**s, "heading": titles.get(s["anchor"]) or s["heading"]}
                for s in sections(chapter.html)]
        for i, s in enumerate(secs):
            head, body = section_terms(s["heading"], s["text"])
            doc = len(docs)
            title = i == 0 and s["level"] == 1  # the chapter's title: link to the page itself
            docs.append([ci, "" if title else s["anchor"], s["heading"] or chapter.title,
                         sum(body.values()), sum(head.values())])
            text.append(s["text"][:SNIPPET_TEXT])
            for t in body.keys() | head.keys():  # each list grows in doc order; keys sorted below
                postings.setdefault(t, []).extend((doc, -body[t] - 1 if t in head else body[t]))
    n = max(1, len(docs))
    avg = [round(sum(d[3] for d in docs) / n, 2), round(sum(d[4] for d in docs) / n, 2)]
    return {"format": FORMAT, "avg": avg, "chapters": chapters, "docs": docs, "text": text,
            "terms": dict(sorted(postings.items()))}


def index_key(book):
    """sha256 over what the index depends on: these rules (this file) and every chapter's href,
    title, headings and HTML."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    for c in book.chapters:
        h.update(json.dumps([c.href, c.title, c.headings], ensure_ascii=False).encode())
        h.update(str(c.html).encode())
    return h.hexdigest()[:32]


_LAST = {}  # this process's last index: key -> bytes (the preview server rebuilds often)


def write_index(site, book, *, cache_dir=None, log=lambda *a: None):
    """Write site/search-index.json for the compiled book; return the index's size in bytes.

    The bytes are kept on disk under index_key(book), so a build of an unchanged book only
    hashes its chapters (~5 ms instead of ~60 ms of sections, terms and JSON); cache_dir:
    default <TBOOK_CACHE or ~/.cache/transformer-book>/search."""
    key = index_key(book)
    folder = Path(cache_dir) if cache_dir is not None else runtime_cache().parent / "search"
    data = _LAST.get(key)
    if data is None:
        try:
            data = (folder / f"{key}.json").read_bytes()
        except OSError:
            index = build_index(book, log=log)
            data = json.dumps(index, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            _store(folder / f"{key}.json", data)
        _LAST.clear()
        _LAST[key] = data
    (site / INDEX_NAME).write_bytes(data)
    return len(data)


def _store(path, data):
    chapter_cache.write(path, data, keep=CACHE_KEEP)
