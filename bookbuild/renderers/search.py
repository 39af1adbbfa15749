"""Stage 6 -- search: every heading section of the compiled chapters becomes one document of
the index in site/search/, which assets/search.js queries in the browser (no server, offline).
The index is cut in parts (build_index): a first search fetches a small table of the sections
and one shard per query term, so its cost grows slowly with the book.

Text comes from the rendered chapter HTML: headings h1-h3 (the ones with anchors) open a
section; a formula, in headings and text alike, contributes the characters a reader sees
(√dₖ, E[qᵢ²]: bookbuild/stages/mathtext.py), a widget block only its title, an exercise only its
title. Terms:

- a Chinese run gives its overlapping character bigrams ("位置编码" -> 位置, 置编, 编码), as
  Lucene's CJKAnalyzer does: no dictionary, no word list, every word of the book findable
  whether or not a dictionary knows it. A character alone between non-Chinese text gives
  itself: the book quotes single-character tokens of its running example ("它", "累"), and a
  reader looking for them should find those sections;
- ASCII words are lowercased; "top-k" and "d_model" also give their parts ("d_k" also dk, as
  the formula dₖ reads after NFKC), camelCase words their humps ("LayerNorm" -> layernorm, layer, norm); pure numbers and one-letter words drop,
  and so do the English stop words below.

A section holding a term of the glossary (book/glossary.toml) under its Chinese name is also
indexed under the words of its English name, as often as the Chinese name occurs ("位置编码"
three times: positional and encoding three times each), so an English query finds the Chinese
text ("position encoding" -> chapter 6). Words the Chinese name already holds ("KV 缓存": kv)
are not counted twice.

Chinese has no stop list: a frequent bigram ("一个") weighs little in BM25 anyway, and some
that look like function words are words of the running example ("没有").
search.js repeats these rules (FORMAT is their version; bump it on any change).

Cutting is cheap, but sections, terms, positions and JSON still cost a fraction of a second a
build; the written files are cached on disk under a hash of this file and the chapters' HTML,
so an unchanged book costs a hash and a copy (write_index).
"""
import functools
import hashlib
import json
import re
import unicodedata
from collections import Counter
from html import unescape
from pathlib import Path

from .. import cache
from ..stages import mathtext

INDEX_DIR = "search"   # site/search/: meta.json and the shards it names
META = "meta.json"
FORMAT = 3             # version of the term rules and the file layout
SNIPPET_TEXT = 2000    # at most this many characters of a section's text kept (snippets)
SHARD_BYTES = 8000     # about this many bytes of postings per term shard
MIN_SHARDS = 16
CACHE_KEEP = 8         # whole indexes kept in the cache folder (oldest go first; ~1 MB each)

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
    """A formula as the characters a reader sees (√dₖ, QKᵀ, bookbuild/stages/mathtext.py)."""
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


# ---------------------------------------------------------------- terms

@functools.lru_cache(maxsize=8192)  # the book repeats its words: most calls are hits
def _ascii_terms(word):
    return tuple(ascii_terms(word))


def ascii_terms(word):
    """One ASCII word -> its terms: lowercased whole, then parts split at - and _ (and a TeX
    subscript joined: d_k -> dk), and the humps of a camelCase word when every hump has two
    letters or more."""
    out = [word.lower()]
    parts = re.split(r"[-_]", word)
    if len(parts) > 1:
        for p in parts:
            out += ascii_terms(p)
        if "_" in word and len(parts[-1]) == 1:  # TeX's d_k: the text reads dₖ, NFKC dk
            out.append("".join(parts).lower())
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

def fnv1a(key):
    """32-bit FNV-1a over the key's code points: the shard a term's key lives in (search.js
    shardOf computes the same)."""
    h = 0x811C9DC5
    for ch in key:
        h = ((h ^ ord(ch)) * 0x01000193) & 0xFFFFFFFF
    return h


def shard_key(term):
    """The part of a term that names its shard: an ASCII term's first two letters (every word a
    query word begins is then in the query word's shard: "layern" -> layernorm), a Chinese term
    whole (a lone character's shard also holds the bigrams around it, see build_index)."""
    return term[:2] if term.isascii() else term


def bigram_positions(text, delta=False):
    """{bigram: [positions]} of the text's Chinese bigrams, positions counted so that two
    bigrams are one apart exactly when they overlap in one run ("位置编" -> 位置 0, 置编 1); runs
    are two apart or more, so a phrase never spans a break. delta: each position given as its
    distance from the bigram's previous one (the first from 0), as the index stores them."""
    out, last, at = {}, {}, 0
    for run in RUN.findall(unicodedata.normalize("NFKC", text)):
        if not run[0].isascii() and len(run) > 1:
            for i in range(len(run) - 1):
                b, p = run[i:i + 2], at + i
                out.setdefault(b, []).append(p - last.get(b, 0) if delta else p)
                last[b] = p
            at += len(run)
        at += 1
    return out


CJK_ANY = re.compile(rf"[{CJK}]")


def english_names(book):
    """[(Chinese name, {English word: its count in the English name})] of every glossary term
    with Chinese characters in its name; words of the Chinese name itself left out."""
    out = []
    for term in getattr(book, "glossary", None) or []:
        if CJK_ANY.search(term["zh"]):
            words = Counter(terms(term["en"]))
            for w in terms(term["zh"]):
                words.pop(w, None)
            if words:
                out.append((term["zh"], words))
    return out


def with_english(counts, text, names):
    """A section's Counter of terms with the English words of the glossary terms its text
    holds, each as often as the Chinese name occurs."""
    added = Counter()
    for zh, words in names:
        n = text.count(zh)
        for w, k in words.items():
            added[w] += n * k
    return counts + added if added else counts


def build_index(book, *, log=lambda *a: None):
    """The search index of a compiled book as files: {name: JSON bytes}. A first search
    fetches meta.json and the one shard file of each of its terms; a hit's snippet the text
    file of its chapter. Nothing else.

    meta.json: format; version (a hash of every other part, in their names: such a file never
      changes its bytes, so the service worker and any HTTP cache may keep it, and meta.json,
      which names them, is fetched past the HTTP cache); shards (how many); avg [mean text
      length, mean heading length] (BM25's length normalisation); chapters [[href, title,
      first doc]]; per doc (one per h1-h3 section, in book order): headings (formulas as text:
      √dₖ), lengths [text, heading, ...] counted in terms.
    t<n>.<version>.json, shard n of fnv1a(shard_key(term)) % shards:
      terms {term: [doc, n, doc, n, ...]}, docs ascending, n = count in the doc's text, stored as
        -(n + 1) when the term is also in the doc's heading (df = half the list's length);
      pos {bigram: [[positions in the doc's text, delta-coded], ...]}, one list per posting, for
        the phrase bonus (a query run found verbatim);
      near {character: postings}: where the character occurs at all, alone or inside a run
        (counted as terms are), for a lone character of a query: "码" finds 掩码 and 编码.
    c<chapter>.<version>.json: the anchors of the chapter's docs ("" for its title section) and
      their texts (at most SNIPPET_TEXT characters), for the links and snippets of hits."""
    chapters, anchors, headings, lengths, texts = [], [], [], [], []
    postings, positions, near = {}, {}, {}
    names = english_names(book)
    for ci, chapter in enumerate(book.chapters):
        chapters.append([chapter.href, chapter.title, len(anchors)])
        chapter_texts = []
        for i, s in enumerate(sections(chapter.html)):
            head, body = section_terms(s["heading"], s["text"])
            head = with_english(head, unicodedata.normalize("NFKC", s["heading"]), names)
            body = with_english(body, unicodedata.normalize("NFKC", s["text"]), names)
            doc = len(anchors)
            title = i == 0 and s["level"] == 1  # the chapter's title: link to the page itself
            anchors.append("" if title else s["anchor"])
            headings.append(s["heading"] or chapter.title)
            lengths += [sum(body.values()), sum(head.values())]
            chapter_texts.append(s["text"][:SNIPPET_TEXT])
            for t in body.keys() | head.keys():  # each list grows in doc order; keys sorted below
                postings.setdefault(t, []).extend((doc, -body[t] - 1 if t in head else body[t]))
            for ch, n in characters(s["heading"], s["text"]).items():
                near.setdefault(ch, []).extend((doc, n))
            for b, ps in bigram_positions(s["text"], delta=True).items():
                positions.setdefault(b, []).append(ps)
            for b in head:  # a bigram of the heading only: no positions in the text
                if len(b) == 2 and not b.isascii() and b not in body:
                    positions.setdefault(b, []).append([])
        texts.append(chapter_texts)
    n = max(1, len(anchors))
    avg = [round(sum(lengths[0::2]) / n, 2), round(sum(lengths[1::2]) / n, 2)]
    parts = [_json(s) for s in _shards(postings, positions, near)]
    first = [c[2] for c in chapters] + [len(anchors)]
    parts += [_json({"anchors": anchors[a:b], "texts": t})
              for a, b, t in zip(first, first[1:], texts)]
    version = hashlib.sha256(b"".join(parts)).hexdigest()[:10]
    count = len(parts) - len(texts)
    names = [f"t{i}.{version}.json" for i in range(count)] + \
        [f"c{i}.{version}.json" for i in range(len(texts))]
    meta = {"format": FORMAT, "version": version, "shards": count, "avg": avg,
            "chapters": chapters, "headings": headings, "lengths": lengths}
    return {**dict(zip(names, parts)), META: _json(meta)}


CJK_CHAR = re.compile(rf"[{CJK}]")


def characters(heading, text):
    """{character: its count in the text, stored as -(count + 1) when it is also in the
    heading} of every Chinese character of a section, alone or inside a run."""
    count = Counter(CJK_CHAR.findall(unicodedata.normalize("NFKC", text)))
    head = set(CJK_CHAR.findall(unicodedata.normalize("NFKC", heading)))
    return {ch: -count[ch] - 1 if ch in head else count[ch] for ch in sorted(count.keys() | head)}


def _shards(postings, positions, near):
    """The terms dealt into shards of about SHARD_BYTES each (a power of two of them)."""
    size = sum(len(t) * 3 + 4 * len(p) for t, p in postings.items()) + \
        sum(3 * len(d) + 3 for ds in positions.values() for d in ds) + \
        sum(4 * len(p) for p in near.values())
    count = max(MIN_SHARDS, 1 << max(0, (size // SHARD_BYTES).bit_length()))
    shards = [{"terms": {}, "pos": {}, "near": {}} for _ in range(count)]
    for term in sorted(postings):
        shard = shards[fnv1a(shard_key(term)) % count]
        shard["terms"][term] = postings[term]
        if term in positions:
            shard["pos"][term] = positions[term]
    for ch in sorted(near):
        shards[fnv1a(ch) % count]["near"][ch] = near[ch]
    return shards


def _json(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def index_key(book):
    """sha256 over what the index depends on: these rules (this file), the formula-as-text
    rules, the glossary's names, and every chapter's href, title, headings and HTML."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(Path(mathtext.__file__).read_bytes())
    h.update(json.dumps(english_names(book), ensure_ascii=False).encode())
    for c in book.chapters:
        h.update(json.dumps([c.href, c.title, c.headings], ensure_ascii=False).encode())
        h.update(str(c.html).encode())
    return h.hexdigest()[:32]


_LAST = {}  # this process's last index: key -> {name: bytes} (the preview server rebuilds often)


def write_index(site, book, *, cache_dir=None, log=lambda *a: None):
    """Write site/search/ for the compiled book; return the index's size in bytes (all files).

    The files are kept on disk under index_key(book), so a build of an unchanged book only
    hashes its chapters (milliseconds, against sections, terms, positions and JSON); cache_dir:
    default bookbuild/cache.py search()."""
    key = index_key(book)
    folder = Path(cache_dir) if cache_dir is not None else cache.search()
    files = _LAST.get(key)
    if files is None:
        try:
            files = _unbundle((folder / f"{key}.index").read_bytes())
        except (OSError, ValueError):
            files = build_index(book, log=log)
            _store(folder / f"{key}.index", _bundle(files))
        _LAST.clear()
        _LAST[key] = files
    out = site / INDEX_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
    return sum(map(len, files.values()))


def _bundle(files):
    """The index's files as one cache file: a line of JSON [[name, size], ...], then the bytes."""
    head = json.dumps([[name, len(data)] for name, data in files.items()]).encode()
    return b"\n".join([head, *files.values()])


def _unbundle(data):
    head, _, rest = data.partition(b"\n")
    files, at = {}, 0
    for name, size in json.loads(head):
        files[name] = rest[at:at + size]
        at += size + 1
    if at != len(rest) + 1:
        raise ValueError("a search cache file cut short")
    return files


def _store(path, data):
    """Keep the bundle; leave the CACHE_KEEP newest of them in its folder."""
    cache.write(path, data)
    try:
        old = sorted(path.parent.glob("*.index"), key=lambda p: p.stat().st_mtime)
        for p in old[:-CACHE_KEEP]:
            p.unlink(missing_ok=True)
    except OSError:  # another build pruned it first: an unwritable cache only costs time
        pass
