"""bookbuild.search: sections cut from chapter HTML, the term rules (ASCII words, Chinese
bigrams), and the index of the real book (its size, its anchors, counts checked against the
text, and the first hit of queries under the ranking of assets/search.js written out again
here). The query side itself is tested in Chromium by tests/browser/test_search.py."""
import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from bookbuild import search
from bookbuild.load import load_book
from bookbuild.pipeline import Tools, compile_chapter, new_env

ROOT = Path(__file__).resolve().parent.parent

HTML = """<h1 id="t">1. 标题 &amp; Title<a class="anchor" href="#t" aria-label="link">#</a></h1>
<p>Intro text with <code>LayerNorm</code> and a formula <math><mi>x</mi><mo>=</mo><mn>42</mn></math> here.</p>
<h2 id="two">Second</h2>
<table><tr><td>cell-a</td><td>cell-b</td></tr></table>
<figure class="widget" data-widget="softmax" aria-label="Widget title"><figcaption>hidden words</figcaption>
<figure><p>nested figure text</p></figure><p>still hidden</p></figure>
<p>after widget</p>
<h4>Not a section</h4><p>tail</p>
<h3 id="three">Third</h3>"""


def test_sections_split_at_anchored_headings_read_math_as_text_and_skip_widget_bodies():
    secs = search.sections(HTML)
    assert [(s["level"], s["anchor"], s["heading"]) for s in secs] == [
        (1, "t", "1. 标题 & Title"), (2, "two", "Second"), (3, "three", "Third")]
    assert secs[0]["text"] == "Intro text with LayerNorm and a formula x=42 here."  # as read
    assert secs[1]["text"] == "cell-a cell-b Widget title after widget Not a section tail"
    assert secs[2]["text"] == ""


def test_heading_text_keeps_tex_source_and_drops_markup():
    assert search.heading_text(r"为什么要除以 $\sqrt{d_k}$") == r"为什么要除以 \sqrt{d_k}"
    assert search.heading_text("**粗体** 与 `code` 和 [链接](a.md#x)") == "粗体 与 code 和 链接"


@pytest.mark.parametrize("word,expected", [
    ("LayerNorm", ["layernorm", "layer", "norm"]),
    ("RMSNorm", ["rmsnorm", "rms", "norm"]),
    ("ViT", ["vit"]),                      # a one-letter hump: no split
    ("softmax", ["softmax"]),
    ("top-k", ["top-k", "top"]),           # "k" alone is too short
    ("d_model", ["d_model", "model"]),
    ("GPT-2", ["gpt-2", "gpt"]),
    ("Pre-LN", ["pre-ln", "pre", "ln"]),
    ("2017", []), ("the", []), ("x", []),
])
def test_ascii_terms(word, expected):
    assert search.ascii_terms(word) == expected


def test_terms_of_ascii_text():
    assert search.terms("The KV cache, ＬａｙｅｒＮｏｒｍ and top-p: 0.25") == [
        "kv", "cache", "layernorm", "layer", "norm", "top-p", "top"]


@pytest.mark.parametrize("run,expected", [
    ("位置编码", ["位置", "置编", "编码"]),
    ("点积", ["点积"]),
    ("它", ["它"]),                        # alone: the character itself
    ("注意注意", ["注意", "意注", "注意"]),  # repeated, in order
])
def test_chinese_terms_are_overlapping_bigrams(run, expected):
    assert search.chinese_terms(run) == expected


def test_terms_of_mixed_text():
    # runs end at ASCII, digits, spaces and punctuation; "“它”" is a lone character
    assert search.terms("6. 位置编码：让 RoPE 把“它”转进Q和K里") == [
        "位置", "置编", "编码", "让", "rope", "ro", "pe", "把", "它", "转进", "和", "里"]
    # NFKC: a compatibility ideograph becomes the unified one
    assert search.terms("\uf9b5\u4f8b") == ["例例"]


def tiny_book(html):
    chapter = SimpleNamespace(href="a.html", title="甲", headings=[(1, "甲", "t")], html=html)
    return SimpleNamespace(chapters=[chapter])


def test_written_index_comes_from_the_cache_while_the_book_is_unchanged(tmp_path, monkeypatch):
    cache, site = tmp_path / "cache", tmp_path / "site"
    site.mkdir()
    book = tiny_book('<h1 id="t">甲</h1><p>注意力 softmax</p>')
    monkeypatch.setattr(search, "_LAST", {})
    size = search.write_index(site, book, cache_dir=cache)
    first = (site / search.INDEX_NAME).read_bytes()
    assert size == len(first) and len(list(cache.glob("*.json"))) == 1
    assert json.loads(first)["terms"]["意力"] == [0, 1]
    monkeypatch.setattr(search, "build_index", lambda *a, **k: pytest.fail("built again"))
    monkeypatch.setattr(search, "_LAST", {})  # a new process: from the disk
    assert search.write_index(site, book, cache_dir=cache) == size
    assert (site / search.INDEX_NAME).read_bytes() == first
    (site / search.INDEX_NAME).unlink()
    cache.joinpath(f"{search.index_key(book)}.json").unlink()  # same process: from memory
    assert search.write_index(site, book, cache_dir=cache) == size
    assert (site / search.INDEX_NAME).read_bytes() == first
    monkeypatch.undo()
    changed = tiny_book('<h1 id="t">甲</h1><p>注意力 softmax 多头</p>')
    assert search.index_key(changed) != search.index_key(book)
    search.write_index(site, changed, cache_dir=cache)
    assert "多头" in json.loads((site / search.INDEX_NAME).read_bytes())["terms"]


# ---------------------------------------------------------------- the real book

@pytest.fixture(scope="module")
def book():
    book = load_book(ROOT / "book")
    tools = Tools()
    env = new_env()
    for chapter in book.chapters:
        compile_chapter(tools, chapter, env)
    return book


@pytest.fixture(scope="module")
def index(book):
    return search.build_index(book)


def test_written_index_is_compact_json(book, tmp_path):
    size = search.write_index(tmp_path, book, cache_dir=tmp_path / "cache")
    data = (tmp_path / search.INDEX_NAME).read_bytes()
    assert size == len(data) < 520_000, f"search index is {size} bytes"  # ~12k bigrams: ~475 kB
    assert json.loads(data)["format"] == search.FORMAT


def test_one_doc_per_heading_with_its_anchor(book, index):
    assert [c[0] for c in index["chapters"]] == [c.href for c in book.chapters]
    for ci, chapter in enumerate(book.chapters):
        docs = [d for d in index["docs"] if d[0] == ci]
        assert [d[1] for d in docs] == [""] + [a for level, _, a in chapter.headings[1:]]
        assert docs[0][2] == search.heading_text(chapter.title)
    assert len(index["text"]) == len(index["docs"])


CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def test_vocabulary(index):
    vocab = index["terms"]
    for term in ["位置", "置编", "编码", "注意", "意力", "点积", "因果", "果掩", "掩码", "没有", "它",
                 "softmax", "layernorm", "layer", "norm", "kv", "vit", "chinchilla", "rope",
                 "top-p"]:
        assert term in vocab, term
    for term in ["位置编码", "注意力", "the", "of"]:
        assert term not in vocab, term
    assert all(len(t) > 1 and not t.isdigit() for t in vocab if t.isascii())
    assert all(len(t) <= 2 for t in vocab if not t.isascii())


def test_a_one_character_term_stands_alone_in_each_of_its_docs(index):
    singles = [t for t in index["terms"] if len(t) == 1]
    assert "它" in singles and len(singles) > 20
    for t in singles:
        for doc in index["terms"][t][::2]:
            runs = CJK_RUN.findall(index["docs"][doc][2] + " " + index["text"][doc])
            assert t in runs, (t, doc)


@pytest.mark.parametrize("word", ["softmax", "vit", "chinchilla"])
def test_postings_count_the_word_in_each_text(index, word):
    expected = {}
    for doc, text in enumerate(index["text"]):
        n = len(re.findall(rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])", text, re.I))
        in_head = re.search(rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])", index["docs"][doc][2], re.I)
        if n or in_head:
            expected[doc] = -n - 1 if in_head else n
    postings = index["terms"][word]
    assert dict(zip(postings[::2], postings[1::2])) == expected


@pytest.mark.parametrize("bigram", ["注意", "掩码", "小猫"])
def test_postings_count_overlapping_bigrams(index, bigram):
    expected = {}
    for doc, text in enumerate(index["text"]):
        n = len(re.findall(f"(?={bigram})", text))  # overlapping: "注意注意" holds 注意 twice
        if n or bigram in index["docs"][doc][2]:
            expected[doc] = -n - 1 if bigram in index["docs"][doc][2] else n
    postings = index["terms"][bigram]
    assert dict(zip(postings[::2], postings[1::2])) == expected


def bigrams(run):
    return [a + b for a, b in zip(run, run[1:])]


def best_doc(index, query, k1=1.2, b=0.75, head=2.5, b_head=0.75, coord=2, phrase=1, head_run=1):
    """The top section for a query of whole ASCII words and Chinese runs, ranked as search.js
    ranks: per unit (an ASCII word, a bigram of a run) BM25 on the text plus the heading bonus;
    the sum times (units matched / units the book has) ** coord; a Chinese run's part times
    1 + head_run when the run is a whole run of the heading, and times 1 + phrase * (the share of
    its bigrams covered by its longest stretch found verbatim in heading or text)."""
    docs, n = index["docs"], len(index["docs"])
    units = []  # (term, run or None)
    for word in query.split():
        if word.isascii():
            units.append((word.lower(), None))
        else:
            units += [(g, word) for g in bigrams(word)]
    known = sum(1 for t, _ in units if t in index["terms"])
    score = {}  # doc -> {run or None: summed BM25}, and doc -> units matched
    matched = {}
    for term, run in units:
        postings = index["terms"].get(term, [])
        df = len(postings) // 2
        idf = math.log((n - df + 0.5) / (df + 0.5) + 1)
        for doc, v in zip(postings[::2], postings[1::2]):
            tf = -v - 1 if v < 0 else v
            t = tf / (1 - b + b * docs[doc][3] / index["avg"][0])
            bonus = head / (1 - b_head + b_head * docs[doc][4] / index["avg"][1]) if v < 0 else 0
            part = score.setdefault(doc, {})
            part[run] = part.get(run, 0) + idf * (t * (k1 + 1) / (t + k1) + bonus)
            matched[doc] = matched.get(doc, 0) + 1
    best = (-1.0, None)
    for doc, parts in score.items():
        heading, text = docs[doc][2], index["text"][doc]
        total = 0
        for run, s in parts.items():
            if run is not None:
                if run in CJK_RUN.findall(heading):
                    s *= 1 + head_run
                longest = max((j - i for i in range(len(run)) for j in range(i + 3, len(run) + 1)
                               if run[i:j] in heading + "\n" + text), default=0)
                s *= 1 + phrase * (max(longest - 2, 0) / (len(run) - 2) if len(run) > 2 else 0)
            total += s
        best = max(best, (total * (matched[doc] / known) ** coord, -doc))
    return docs[-best[1]]


@pytest.mark.parametrize("query,chapter", [
    ("softmax", "02-softmax.html"), ("注意力", "04-attention.html"),
    ("多头", "05-multi-head.html"), ("layernorm", "07-encoder-layer.html"),
    ("因果掩码", "08-decoder.html"), ("kv", "09-sampling.html"), ("vit", "11-vit.html"),
    ("chinchilla", "13-training.html"), ("位置编码", "06-positional-encoding.html"),
    ("多头注意力", "05-multi-head.html"), ("kv 缓存", "09-sampling.html"),
    ("参数量", "10-parameters.html"),
])
def test_first_hit(index, query, chapter):
    doc = best_doc(index, query)
    assert index["chapters"][doc[0]][0] == chapter, doc
