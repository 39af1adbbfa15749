"""Stage 6 -- search: every heading section of the compiled chapters becomes one document of
site/search-index.json, which assets/search.js queries in the browser (no server, offline).

Text comes from the rendered chapter HTML: headings h1-h3 (the ones with anchors) open a
section; formulas (MathML) are skipped, a widget block contributes only its title. Terms:

- Chinese runs are cut by jieba (dictionary only, no guessing of unknown words, plus the book's
  own vocabulary in WORDS); a word of three or more characters also gives every shorter word of
  the dictionary inside it ("位置编码" -> 位置编码, 位置, 编码). The browser has no jieba: the
  index ships its terms, and search.js cuts a query by longest match against them and adds the
  same inner words;
- ASCII words are lowercased; "top-k" and "d_model" also give their parts, camelCase words
  their humps ("LayerNorm" -> layernorm, layer, norm); pure numbers and one-letter words drop;
- one-character Chinese words and the stop words below are left out.

search.js repeats these rules (FORMAT is their version; bump it on any change).

Cutting Chinese needs jieba's dictionary (a second or more to load), so the terms of each
chapter are cached on disk under the hash of its extracted text: an unchanged book loads no
jieba at all.
"""
import functools
import hashlib
import json
import os
import re
import time
import unicodedata
from collections import Counter
from html import unescape
from importlib.metadata import version

from .vendor import runtime_cache

INDEX_NAME = "search-index.json"
FORMAT = 1             # version of the term rules and the file layout
SNIPPET_TEXT = 2000    # at most this many characters of a section's text kept for snippets
CACHE_KEEP = 200       # per-chapter term files kept in the cache folder (oldest go first)

# Terms of the book that jieba's general dictionary lacks or would cut apart.
WORDS = ("点积 余弦相似度 注意力 自注意力 交叉注意力 位置编码 词嵌入 嵌入 编码器 解码器 "
         "前馈网络 残差 残差连接 归一化 层归一化 因果掩码 掩码 自回归 词表 分词 参数量 "
         "多头 单头 查询 缩放 温度 采样 缓存 图像块 局部性 等变 归纳偏置 多模态 对比学习 "
         "学习率 预热 交叉熵 反向传播 梯度 批量 语义头 位置头 功能词 代词").split()
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
RUN = re.compile(rf"[{CJK}]+|[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*")
HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
STOP_ZH = set("这个 那个 这些 那些 这里 那里 一个 一种 一些 每个 我们 你们 他们 它们 没有 "
              "可以 可能 如果 因为 所以 然后 于是 已经 只是 并且 而且 就是 还是 不是 什么 "
              "怎么 为什么 这样 那样 之后 之前 时候 等等 也就是 也是 都是 这是 那么 比如 例如 "
              "其中 得到 一样 不会 需要 只有 自己 这种 那种 一下 一起 所有 里面".split())
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


@functools.lru_cache(maxsize=256)  # the preview server rebuilds unchanged chapters often
def sections(html):
    """Chapter HTML -> [{"level", "anchor", "heading", "text"}], one per h1-h3 heading with an
    id; a formula leaves nothing, a widget block leaves its title (its aria-label), a heading's
    permalink (a.anchor) leaves nothing."""
    secs = [{"level": 0, "anchor": "", "heading": [], "text": []}]
    heading, widget, permalink = None, 0, False
    for m in TAG.finditer(MATH.sub(" ", str(html))):
        close, tag, attrs, data = m.groups()
        out = secs[-1]["heading" if heading else "text"]
        if data is not None:
            if not widget and not permalink:
                out.append(unescape(data))
        elif tag == "a" and not widget:
            permalink = not close and 'class="anchor"' in attrs  # a heading's "#" link
        elif widget:
            widget += (-1 if close else 1) * (tag == "figure")
        elif tag == "figure" and not close and "data-widget" in attrs:
            widget = 1
            out.append(f" {unescape(dict(ATTR.findall(attrs)).get('aria-label', ''))} ")
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


_jieba = None


def _load_jieba(log):
    """jieba with its dictionary and WORDS loaded, once per process; the load time is logged."""
    global _jieba
    if _jieba is None:
        start = time.perf_counter()
        import logging

        import jieba
        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        for w in WORDS:
            jieba.add_word(w)
        _jieba = jieba
        log(f"search: jieba dictionary loaded in {time.perf_counter() - start:.2f} s")
    return _jieba


def chinese_terms(run, log=lambda *a: None):
    """A run of Chinese characters -> its words (jieba, dictionary only) and, for a word of 3+
    characters, the dictionary words of 2+ characters inside it."""
    jieba = _load_jieba(log)
    known = lambda w: jieba.dt.FREQ.get(w, 0) > 0  # noqa: E731
    out = []
    for w in jieba.cut(run, HMM=False):
        out.append(w)
        out += [w[i:j] for i in range(len(w)) for j in range(i + 2, len(w) + 1)
                if j - i < len(w) and known(w[i:j])]
    return [w for w in out if len(w) > 1 and w not in STOP_ZH]


def terms(text, log=lambda *a: None):
    """Text -> its index terms, in order, repeated as often as they occur."""
    out = []
    for run in RUN.findall(unicodedata.normalize("NFKC", text)):
        out += ascii_terms(run) if run[0].isascii() else chinese_terms(run, log)
    return out


# ---------------------------------------------------------------- per-chapter terms, cached

_MEMO = {}  # this process's chapter terms by key (the preview server rebuilds often)


@functools.cache
def jieba_version():
    return version("jieba")  # reads package metadata: ~1 ms a call


def chapter_terms(secs, *, cache_dir=None, log=lambda *a: None):
    """[(heading Counter, text Counter)] for a chapter's sections: from the cache when the
    extracted text is unchanged (jieba is not even loaded then), else computed and stored.
    cache_dir: default <TBOOK_CACHE or ~/.cache/transformer-book>/search."""
    blob = json.dumps([FORMAT, jieba_version(), WORDS, [[s["heading"], s["text"]] for s in secs]],
                      ensure_ascii=False)
    key = hashlib.sha256(blob.encode()).hexdigest()[:24]
    if key not in _MEMO:
        folder = cache_dir if cache_dir is not None else runtime_cache().parent / "search"
        path = folder / f"{key}.json"
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = [[Counter(terms(s["heading"], log)), Counter(terms(s["text"], log))]
                      for s in secs]
            _store(path, stored)
        _MEMO[key] = [(Counter(h), Counter(t)) for h, t in stored]
    return _MEMO[key]  # shared between builds: callers only read it


def _store(path, value):
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")  # builds may run side by side
        tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
        old = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for p in old[:-CACHE_KEEP]:
            p.unlink(missing_ok=True)
    except OSError:
        pass  # an unwritable cache only costs time


# ---------------------------------------------------------------- the index

def build_index(book, *, cache_dir=None, log=lambda *a: None):
    """The search index of a compiled book, as a JSON-ready dict:

    chapters: [[href, title]];
    docs: [[chapter, anchor, heading, text length, heading length]], one per h1-h3 section
      (anchor "" for the chapter's title section); lengths are counted in terms;
    text: each doc's plain text (at most SNIPPET_TEXT characters), for snippets;
    terms: {term: [doc, n, doc, n, ...]}, docs ascending, n = count in the doc's text, stored
      as -(n + 1) when the term is also in the doc's heading (df = half the list's length);
    avg: [mean text length, mean heading length] for BM25's length normalisation."""
    chapters, docs, text, postings = [], [], [], {}
    for ci, chapter in enumerate(book.chapters):
        chapters.append([chapter.href, chapter.title])
        titles = {anchor: heading_text(src) for _, src, anchor in chapter.headings}
        secs = [{**s, "heading": titles.get(s["anchor"]) or s["heading"]}
                for s in sections(chapter.html)]
        for i, (s, (head, body)) in enumerate(zip(secs, chapter_terms(secs, cache_dir=cache_dir,
                                                                      log=log))):
            doc = len(docs)
            title = i == 0 and s["level"] == 1  # the chapter's title: link to the page itself
            docs.append([ci, "" if title else s["anchor"], s["heading"] or chapter.title,
                         sum(body.values()), sum(head.values())])
            text.append(s["text"][:SNIPPET_TEXT])
            for t in sorted(body.keys() | head.keys()):
                postings.setdefault(t, []).extend((doc, -body[t] - 1 if t in head else body[t]))
    n = max(1, len(docs))
    avg = [round(sum(d[3] for d in docs) / n, 2), round(sum(d[4] for d in docs) / n, 2)]
    return {"format": FORMAT, "avg": avg, "chapters": chapters, "docs": docs, "text": text,
            "terms": dict(sorted(postings.items()))}


def write_index(site, book, *, cache_dir=None, log=lambda *a: None):
    """Write site/search-index.json for the compiled book; return the index's size in bytes."""
    index = build_index(book, cache_dir=cache_dir, log=log)
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    (site / INDEX_NAME).write_bytes(data)
    return len(data)
