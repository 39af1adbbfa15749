"""bookbuild.search: sections cut from chapter HTML, the term rules, the per-chapter cache, and
the index of the real book (its size, its anchors, counts checked against the text, and the
first hit of single-term queries under a BM25 written out here). The query side (assets/
search.js) is tested in Chromium by tests/browser/test_search.py."""
import json
import math
import re
from pathlib import Path

import pytest

from bookbuild import search
from bookbuild.load import load_book
from bookbuild.pipeline import Tools, compile_chapter

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


def test_sections_split_at_anchored_headings_and_skip_math_and_widget_bodies():
    secs = search.sections(HTML)
    assert [(s["level"], s["anchor"], s["heading"]) for s in secs] == [
        (1, "t", "1. 标题 & Title"), (2, "two", "Second"), (3, "three", "Third")]
    assert secs[0]["text"] == "Intro text with LayerNorm and a formula here."
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


def test_terms_of_ascii_text_need_no_jieba(monkeypatch):
    monkeypatch.setattr(search, "_load_jieba", lambda log: pytest.fail("jieba loaded"))
    assert search.terms("The KV cache, ＬａｙｅｒＮｏｒｍ and top-p: 0.25") == [
        "kv", "cache", "layernorm", "layer", "norm", "top-p", "top"]


def test_chapter_terms_come_from_the_disk_cache_the_second_time(tmp_path, monkeypatch):
    secs = [{"heading": "Softmax Basics", "text": "softmax softmax of logits"}]
    first = search.chapter_terms(secs, cache_dir=tmp_path)
    assert first == [({"softmax": 1, "basics": 1}, {"softmax": 2, "logits": 1})]
    assert len(list(tmp_path.glob("*.json"))) == 1
    monkeypatch.setattr(search, "_MEMO", {})
    monkeypatch.setattr(search, "terms", lambda *a: pytest.fail("recomputed"))
    assert search.chapter_terms(secs, cache_dir=tmp_path) == first


# ---------------------------------------------------------------- the real book

@pytest.fixture(scope="module")
def book():
    book = load_book(ROOT / "book")
    tools = Tools()
    env = {"links": [], "widget_ids": {}}
    for chapter in book.chapters:
        compile_chapter(tools, chapter, env)
    return book


@pytest.fixture(scope="module")
def index(book):
    return search.build_index(book)


def test_written_index_is_compact_json(book, tmp_path):
    size = search.write_index(tmp_path, book)
    data = (tmp_path / search.INDEX_NAME).read_bytes()
    assert size == len(data) < 300_000, f"search index is {size} bytes"
    assert json.loads(data)["format"] == search.FORMAT


def test_one_doc_per_heading_with_its_anchor(book, index):
    assert [c[0] for c in index["chapters"]] == [c.href for c in book.chapters]
    for ci, chapter in enumerate(book.chapters):
        docs = [d for d in index["docs"] if d[0] == ci]
        assert [d[1] for d in docs] == [""] + [a for level, _, a in chapter.headings[1:]]
        assert docs[0][2] == search.heading_text(chapter.title)
    assert len(index["text"]) == len(index["docs"])


def test_vocabulary(index):
    vocab = index["terms"]
    for term in ["位置编码", "位置", "编码", "注意力", "点积", "因果掩码", "softmax", "layernorm",
                 "layer", "norm", "kv", "vit", "chinchilla", "rope", "top-p"]:
        assert term in vocab, term
    for term in ["的", "一个", "没有", "the", "of"]:
        assert term not in vocab, term
    assert all(len(t) > 1 and not t.isdigit() for t in vocab)


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


def best_doc(index, term, k1=1.2, b=0.75, head=2.5, b_head=0.75):
    """The top section for a one-term query: BM25 on the text, plus the heading bonus."""
    postings, docs = index["terms"][term], index["docs"]
    df, n = len(postings) // 2, len(docs)
    idf = math.log((n - df + 0.5) / (df + 0.5) + 1)
    best = (-1.0, None)
    for doc, v in zip(postings[::2], postings[1::2]):
        tf = -v - 1 if v < 0 else v
        t = tf / (1 - b + b * docs[doc][3] / index["avg"][0])
        bonus = head / (1 - b_head + b_head * docs[doc][4] / index["avg"][1]) if v < 0 else 0
        best = max(best, (idf * (t * (k1 + 1) / (t + k1) + bonus), -doc))
    return docs[-best[1]]


@pytest.mark.parametrize("term,chapter", [
    ("softmax", "02-softmax.html"), ("注意力", "04-attention.html"),
    ("多头", "05-multi-head.html"), ("layernorm", "07-encoder-layer.html"),
    ("因果掩码", "08-decoder.html"), ("kv", "09-sampling.html"), ("vit", "11-vit.html"),
    ("chinchilla", "13-training.html"),
])
def test_first_hit_of_one_term(index, term, chapter):
    doc = best_doc(index, term)
    assert index["chapters"][doc[0]][0] == chapter, doc
