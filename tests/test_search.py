"""bookbuild.renderers.search: sections cut from chapter HTML (formulas as readable text),
the term rules
(ASCII words, Chinese bigrams; the same in search.js), the index of the real book cut into parts
(their sizes, anchors, postings and positions checked against the text), and queries ranked by
the real assets/search.js, run in Node (tests/search_node.mjs) on the written index: on this
book, and on the book ten times over, where a first search must still fetch little. The search
box itself is tested in Chromium by tests/browser/test_search.py."""
import json
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote

import pytest

from bookbuild.stages import glossary, mathtext
from bookbuild.renderers import search
from bookbuild.stages.load import load_book
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


MATH_HEADING = """<h2 id="sec:why-scale">为什么要除以 <math xmlns="http://www.w3.org/1998/Math/MathML"
display="inline"><mrow><msqrt><mrow><msub><mi>d</mi><mi>k</mi></msub></mrow></msqrt></mrow></math><a
class="anchor" href="#sec:why-scale" aria-label="本节的链接">#</a></h2><p>方差 <math><mrow><mi>E</mi>
<mo>[</mo><msup><mrow><msub><mi>q</mi><mi>i</mi></msub></mrow><mn>2</mn></msup><mo>]</mo></mrow></math>
与 <math><mfrac><mrow><mi>Q</mi><msup><mi>K</mi><mo>⊤</mo></msup></mrow><msqrt><msub><mi>d</mi>
<mi>k</mi></msub></msqrt></mfrac></math></p>"""


def test_a_formula_is_readable_text_in_headings_and_snippets():
    [sec] = search.sections(MATH_HEADING)
    assert sec["heading"] == "为什么要除以 √dₖ"        # not the TeX source \\sqrt{d_k}
    assert sec["text"] == "方差 E[qᵢ²] 与 QKᵀ/√dₖ"     # a script on a group, a fraction


@pytest.mark.parametrize("mathml,expected", [
    ("<math><msup><mn>10</mn><mn>10</mn></msup></math>", "10¹⁰"),
    ("<math><msup><mi>e</mi><mrow><mo>−</mo><mn>5</mn></mrow></msup></math>", "e^(−5)"),
    ("<math><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi>"
     "</munderover><msub><mi>x</mi><mi>i</mi></msub></math>", "∑ᵢ₌₁ⁿxᵢ"),
    ("<math><mfrac><mn>1</mn><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></mfrac></math>",
     "1/(n+1)"),
    ("<math><mover><mi>x</mi><mo>^</mo></mover></math>", "x\u0302"),
    ("<math><semantics><mi>x</mi><annotation encoding='application/x-tex'>x</annotation>"
     "</semantics></math>", "x"),
    ("<math><mi>a</mi><mo>&lt;</mo><mi>b</mi></math>", "a<b"),
])
def test_formula_text(mathml, expected):
    assert mathtext.text(mathml) == expected


@pytest.mark.parametrize("word,expected", [
    ("LayerNorm", ["layernorm", "layer", "norm"]),
    ("RMSNorm", ["rmsnorm", "rms", "norm"]),
    ("ViT", ["vit"]),                      # a one-letter hump: no split
    ("softmax", ["softmax"]),
    ("top-k", ["top-k", "top"]),           # "k" alone is too short
    ("d_model", ["d_model", "model"]),
    ("GPT-2", ["gpt-2", "gpt"]),
    ("Pre-LN", ["pre-ln", "pre", "ln"]),
    ("d_k", ["d_k", "dk"]),                # as the formula dₖ reads after NFKC
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


def read_index(folder):
    """site/search/ -> (meta, {term: postings}, {term: positions}, {character: postings}, texts
    of every doc in order), the shards merged."""
    meta = json.loads((folder / search.META).read_text(encoding="utf-8"))
    terms, pos, near = {}, {}, {}
    for name in shard_names(meta):
        shard = json.loads((folder / name).read_text(encoding="utf-8"))
        for key, into in (("terms", terms), ("pos", pos), ("near", near)):
            assert not into.keys() & shard[key].keys(), f"{key} in two shards"
            into.update(shard[key])
    chapters = [json.loads((folder / name).read_text(encoding="utf-8"))
                for name in text_names(meta)]
    meta["anchors"] = [a for c in chapters for a in c["anchors"]]
    texts = [t for c in chapters for t in c["texts"]]
    return meta, terms, pos, near, texts


def shard_names(meta):
    return [f"t{i}.{meta['version']}.json" for i in range(meta["shards"])]


def text_names(meta):
    return [f"c{i}.{meta['version']}.json" for i in range(len(meta["chapters"]))]


def test_written_index_comes_from_the_cache_while_the_book_is_unchanged(tmp_path, monkeypatch):
    cache, site = tmp_path / "cache", tmp_path / "site"
    site.mkdir()
    book = tiny_book('<h1 id="t">甲</h1><p>注意力 softmax</p>')
    monkeypatch.setattr(search, "_LAST", {})
    folder = site / search.INDEX_DIR
    size = search.write_index(site, book, cache_dir=cache)
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert size == sum(map(len, first.values())) and len(list(cache.glob("*.index"))) == 1
    assert read_index(folder)[1]["意力"] == [0, 1]
    monkeypatch.setattr(search, "build_index", lambda *a, **k: pytest.fail("built again"))
    monkeypatch.setattr(search, "_LAST", {})  # a new process: from the disk
    assert search.write_index(site, book, cache_dir=cache) == size
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first
    for p in folder.iterdir():
        p.unlink()
    cache.joinpath(f"{search.index_key(book)}.index").unlink()  # same process: from memory
    assert search.write_index(site, book, cache_dir=cache) == size
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first
    monkeypatch.undo()
    changed = tiny_book('<h1 id="t">甲</h1><p>注意力 softmax 多头</p>')
    assert search.index_key(changed) != search.index_key(book)
    search.write_index(site / "new", changed, cache_dir=cache)
    assert "多头" in read_index(site / "new" / search.INDEX_DIR)[1]


def test_a_section_holding_a_glossary_term_is_indexed_under_its_english_name(tmp_path):
    book = tiny_book('<h1 id="t">位置编码</h1><p>位置编码和 KV 缓存，再说一次位置编码</p>'
                     '<h2 id="u">别的</h2><p>没有术语</p>')
    book.glossary = [{"zh": "位置编码", "en": "positional encoding"},
                     {"zh": "KV 缓存", "en": "KV cache"}, {"zh": "top-k", "en": "top-k sampling"}]
    folder = write(book, tmp_path)[1]
    terms = read_index(folder)[1]
    assert terms["positional"] == terms["encoding"] == [0, -2 - 1]  # twice, and in the heading
    assert terms["cache"] == [0, 1] and terms["kv"] == [0, 1]  # kv: the Chinese name's own
    assert "sampling" not in terms  # an English-named term adds nothing
    without = tiny_book(book.chapters[0].html)
    assert search.index_key(without) != search.index_key(book)


def test_bigram_positions_are_one_apart_only_within_a_run():
    assert search.bigram_positions("位置编码，位置 x 编码") == {
        "位置": [0, 5], "置编": [1], "编码": [2, 9]}


# ---------------------------------------------------------------- the real book

@pytest.fixture(scope="module")
def book():
    book = load_book(ROOT / "book")
    book.glossary = glossary.load(book)  # as the build does (pipeline.build)
    tools = Tools()
    env = new_env()
    for chapter in book.chapters:
        compile_chapter(tools, chapter, env)
    return book


def write(book, folder):
    search._LAST.clear()
    size = search.write_index(folder, book, cache_dir=folder / "cache")
    return size, folder / search.INDEX_DIR


@pytest.fixture(scope="module")
def site(book, tmp_path_factory):
    """The index of the real book written as a build writes it, and its size."""
    return write(book, tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def index(site):
    return read_index(site[1])


def run_search(folder, queries):
    """The queries ranked by assets/search.js in Node, each as a first search (see
    tests/search_node.mjs)."""
    done = subprocess.run(["node", str(ROOT / "tests" / "search_node.mjs"),
                           str(folder / search.META)], input=json.dumps(queries),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def fetched(folder, result):
    return sum((folder.parent / f).stat().st_size for f in result["files"])


def test_written_index_is_small_parts(site, index):
    size, folder = site
    meta = index[0]
    assert meta["format"] == search.FORMAT
    files = {p.name: p.stat().st_size for p in folder.iterdir()}
    assert set(files) == {search.META, *shard_names(meta), *text_names(meta)}
    # ~1.2 MB for the 19 chapters: it grows with the book; a query fetches a few parts of it
    assert size == sum(files.values()) < 1_500_000, f"search index is {size} bytes"
    assert files[search.META] < 30_000                           # ~14 kB: the sections
    assert max(files[n] for n in shard_names(meta)) < 30_000     # ~8 kB each
    assert all(re.fullmatch(r"[ct]\d+\.[0-9a-f]{10}\.json", n) for n in files if n != search.META)


def test_one_doc_per_heading_with_its_anchor_and_no_tex(book, index):
    meta, texts = index[0], index[4]
    assert [c[0] for c in meta["chapters"]] == [c.href for c in book.chapters]
    docs = [c for c, (_, _, first) in enumerate(meta["chapters"])
            for _ in range(first, (meta["chapters"] + [[0, 0, len(meta["anchors"])]])[c + 1][2])]
    for ci, chapter in enumerate(book.chapters):
        anchors = [a for d, a in zip(docs, meta["anchors"]) if d == ci]
        assert anchors == [""] + [a for level, _, a in chapter.headings[1:]]
    assert len(texts) == len(meta["anchors"]) == len(meta["headings"]) == len(meta["lengths"]) / 2
    assert not [h for h in meta["headings"] if "\\" in h or "$" in h]  # no raw TeX shown
    assert "为什么要除以 √dₖ" in meta["headings"]
    assert not [t for t in texts if re.search(r"\\(frac|sqrt|mathbf)|\$", t)]


CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def test_vocabulary(index):
    vocab = index[1]
    for term in ["位置", "置编", "编码", "注意", "意力", "点积", "因果", "果掩", "掩码", "没有", "它",
                 "softmax", "layernorm", "layer", "norm", "kv", "vit", "chinchilla", "rope",
                 "top-p", "dk"]:
        assert term in vocab, term
    for term in ["位置编码", "注意力", "the", "of"]:
        assert term not in vocab, term
    assert all(len(t) > 1 and not t.isdigit() for t in vocab if t.isascii())
    assert all(len(t) <= 2 for t in vocab if not t.isascii())


def test_every_term_is_in_the_shard_search_js_looks_in(site, index):
    meta, terms = index[0], index[1]
    sample = sorted(terms)[::97] + ["它", "位置", "layernorm"]
    script = ("import(%s).then((m) => process.stdout.write(JSON.stringify(%s.map((t) => "
              "m.shardOf(t, %d)))))" % (json.dumps((ROOT / "assets" / "search.js").as_uri()),
                                        json.dumps(sample), meta["shards"]))
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for term, shard in zip(sample, json.loads(done.stdout)):
        held = json.loads((site[1] / shard_names(meta)[shard]).read_text(encoding="utf-8"))
        assert term in held["terms"], term


def test_a_one_character_term_stands_alone_in_each_of_its_docs(index):
    meta, terms, texts = index[0], index[1], index[4]
    singles = [t for t in terms if len(t) == 1]
    assert "它" in singles and len(singles) > 20
    for t in singles:
        # a section longer than a snippet is kept cut: the term may stand past the cut
        for doc in (d for d in terms[t][::2] if len(texts[d]) < search.SNIPPET_TEXT):
            runs = CJK_RUN.findall(meta["headings"][doc] + " " + texts[doc])
            assert t in runs, (t, doc)

def same_counts(found, expected, texts):
    """The index counts a term over a section's whole text; the texts the test reads are the
    ones kept for snippets, cut at SNIPPET_TEXT characters: the counts agree exactly for a
    section kept whole and the index counts at least as many in a longer one."""
    cut = {doc for doc, text in enumerate(texts) if len(text) >= search.SNIPPET_TEXT}
    assert {d: n for d, n in found.items() if d not in cut} == \
        {d: n for d, n in expected.items() if d not in cut}
    for doc in cut:
        assert abs(found.get(doc, 0)) >= abs(expected.get(doc, 0)), doc


@pytest.mark.parametrize("word", ["softmax", "vit", "chinchilla"])
def test_postings_count_the_word_in_each_text(index, word):
    meta, terms, texts = index[0], index[1], index[4]
    expected = {}
    for doc, text in enumerate(texts):
        n = len(re.findall(rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])", text, re.I))
        in_head = re.search(rf"(?<![A-Za-z0-9]){word}(?![A-Za-z0-9])", meta["headings"][doc], re.I)
        if n or in_head:
            expected[doc] = -n - 1 if in_head else n
    postings = terms[word]
    same_counts(dict(zip(postings[::2], postings[1::2])), expected, texts)


@pytest.mark.parametrize("bigram", ["注意", "掩码", "小猫"])
def test_postings_and_positions_of_overlapping_bigrams(index, bigram):
    meta, terms, pos, texts = index[0], index[1], index[2], index[4]
    expected = {}
    for doc, text in enumerate(texts):
        n = len(re.findall(f"(?={bigram})", text))  # overlapping: "注意注意" holds 注意 twice
        if n or bigram in meta["headings"][doc]:
            expected[doc] = -n - 1 if bigram in meta["headings"][doc] else n
    postings = terms[bigram]
    same_counts(dict(zip(postings[::2], postings[1::2])), expected, texts)
    assert len(pos[bigram]) == len(postings) // 2
    for doc, deltas in zip(postings[::2], pos[bigram]):
        seen = len(re.findall(f"(?={bigram})", texts[doc]))
        assert len(deltas) == seen or len(texts[doc]) >= search.SNIPPET_TEXT and len(deltas) > seen
        assert all(d > 0 for d in deltas[1:])


@pytest.mark.parametrize("ch", ["码", "它", "猫"])
def test_a_character_is_counted_wherever_it_occurs(index, ch):
    meta, near, texts = index[0], index[3], index[4]
    expected = {doc: (-t.count(ch) - 1 if ch in meta["headings"][doc] else t.count(ch))
                for doc, t in enumerate(texts) if ch in t or ch in meta["headings"][doc]}
    same_counts(dict(zip(near[ch][::2], near[ch][1::2])), expected, texts)


def test_query_terms_in_search_js_follow_the_build_rules(site):
    texts = ["6. 位置编码：让 RoPE 把“它”转进Q和K里", "The KV cache, ＬａｙｅｒＮｏｒｍ and top-p",
             "d_k 与 d_model、GPT-2 的 Pre-LN", "\uf9b5\u4f8b 注意注意"]
    for text, got in zip(texts, run_search(site[1], [{"terms": t} for t in texts])):
        assert [t for word in got["terms"] for t in word] == search.terms(text), text


# (query, the first hit's page and, if given, words its #anchor must hold): those of the
# browser test, which checks the same ranking through the box, and more
QUERIES = [
    ("softmax", "02-softmax.html", None), ("注意力", "04-attention.html", None),
    ("多头", "05-multi-head.html", None), ("layernorm", "07-encoder-layer.html", "layernorm"),
    ("layern", "07-encoder-layer.html", "layernorm"), ("因果掩码", "08-decoder.html", None),
    ("kv", "09-sampling.html", "kv"), ("vit", "11-vit.html", None),
    ("chinchilla", "13-training.html", None), ("位置编码", "06-positional-encoding.html", None),
    ("多头注意力", "05-multi-head.html", None), ("kv 缓存", "09-sampling.html", "kv"),
    ("参数量", "10-parameters.html", "参数量"), ("键值缓存", "09-sampling.html", "kv"),
    ("温度采样", "09-sampling.html", "温度"),
    ("它", ("04-attention.html", "13b-trained-model.html"), None),
    ("d_k", "04-attention.html", None), ("n²", "04-attention.html", "sec:attention-cost"),
    ("正弦位置编码", "06-positional-encoding.html", "sec:sinusoidal"),
    ("梯度裁剪", "13-training.html", None), ("GQA", ("05-multi-head.html", "10b-llms-2026.html"), "gqa"),
    ("softmx", "02-softmax.html", None), ("Chinchila", "13-training.html", None),  # typos
    # English names of the glossary's terms find the Chinese text
    ("position encoding", "06-positional-encoding.html", None),
    ("positional encoding", "06-positional-encoding.html", None),
    ("causal mask", "08-decoder.html", None), ("beam search", "09-sampling.html", None),
]


@pytest.fixture(scope="module")
def ranked(site):
    return dict(zip([q for q, *_ in QUERIES], run_search(site[1], [q for q, *_ in QUERIES])))


@pytest.mark.parametrize("query,page,anchor", QUERIES)
def test_first_hit(ranked, query, page, anchor):
    hits = ranked[query]["hits"]
    assert hits, query
    href, heading, _ = hits[0]
    path, _, fragment = href.partition("#")
    pages = (page,) if isinstance(page, str) else page  # a query two chapters answer
    assert path in pages, f"{query!r}: first hit {href} ({heading}); then {hits[1:4]}"
    if anchor:
        assert anchor.lower() in unquote(fragment).lower(), f"{query!r}: first hit {href}"


def test_a_typo_finds_the_word_and_marks_it_but_nonsense_finds_nothing(ranked, site):
    assert ["chinchilla"] in ranked["Chinchila"]["marks"]
    [nonsense, exact] = run_search(site[1], ["zzqxj", "softmax"])
    assert nonsense["total"] == 0
    assert exact["marks"] == [["softmax"]]  # a word the book has: no neighbours added


def test_every_hit_is_ranked_not_only_the_first_eight(ranked):
    hits = ranked["softmax"]["hits"]
    assert ranked["softmax"]["total"] == len(hits) > 20
    scores = [s for *_, s in hits]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0


def test_snippets_show_formulas_as_text(ranked):
    snippets = ranked["d_k"]["snippets"]
    assert "√dₖ" in snippets[0] and "\\sqrt" not in snippets[0]


def test_a_first_search_fetches_a_few_small_files(site, ranked):
    for query, result in ranked.items():
        assert result["files"][0] == f"{search.INDEX_DIR}/{search.META}"
        assert fetched(site[1], result) < 150_000, (query, result["files"])


def copies(book, times):
    """The compiled book `times` times over, every copy of a chapter under a new name."""
    chapters = [SimpleNamespace(href=f"c{k}-{c.href}", title=f"{c.title}（第 {k} 册）",
                                headings=c.headings, html=c.html)
                for k in range(1, times + 1) for c in book.chapters]
    return SimpleNamespace(chapters=chapters)


def test_a_first_search_on_the_book_ten_times_over_fetches_at_most_300_kb(book, tmp_path):
    _, folder = write(copies(book, 10), tmp_path)
    queries = [q for q, *_ in QUERIES]
    for query, result in zip(queries, run_search(folder, queries)):
        assert fetched(folder, result) <= 300_000, (query, fetched(folder, result))
        assert result["hits"][0][0].startswith("c1-"), query  # ties go to book order
