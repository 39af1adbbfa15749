"""The bpe widget's view (pycore/widgets/bpe/__init__.py) against pycore.bpe's own encoder, counts
worked by hand and the strip's geometry by hand."""
import pytest

from pycore import bpe, bpe_corpus
from pycore.widgets import bpe as W
from pycore.widgets import compute
from tests.page_state import asked, held_after, laid_over

ZH, EN = bpe_corpus.HELD_OUT


@pytest.mark.parametrize("corpus", W.CORPUS_CHOICES)
def test_tokens_at_every_k_are_the_encoders(corpus):
    merges = bpe.book_merges(corpus, bpe.MAX_MERGES)
    for lang, text in (("zh", ZH), ("en", EN)):
        for k in list(range(0, 40)) + [100, 299, 300, 301, 408, 409, 410, 500]:
            assert W.tokens_at(corpus, lang, k) == bpe.encode(text, merges, min(k, len(merges)))
        counts = bpe.token_counts(text, merges)
        assert W.counts(corpus, lang)[:len(counts)] == counts
        assert set(W.counts(corpus, lang)[len(counts):]) <= {counts[-1]}  # merges ran out


def test_the_chapters_numbers():
    v = compute("bpe", {})  # k = 300, English-centric
    assert (v["zh"]["n_tokens"], v["en"]["n_tokens"]) == (39, 18)
    assert (v["zh"]["n_bytes"], v["zh"]["n_chars"], v["en"]["n_bytes"]) == (45, 15, 56)
    assert v["ratio"] == pytest.approx(39 / 18) and v["zh"]["per_char"] == pytest.approx(2.6)
    assert v["vocab_size"] == 556
    b = compute("bpe", {"corpus": "balanced"})
    assert (b["zh"]["n_tokens"], b["en"]["n_tokens"]) == (17, 20)
    zero = compute("bpe", {"k": 0})
    assert (zero["zh"]["n_tokens"], zero["en"]["n_tokens"]) == (45, 56)
    # the English-centric corpus runs out after 409 merges: k = 450 uses 409
    late = compute("bpe", {"k": 450})
    assert late["k_used"] == 409 and late["exhausted"] and "409" in late["latest"]
    assert late["zh"]["labels"] == compute("bpe", {"k": 409})["zh"]["labels"]


def test_boxes_span_the_bytes_of_their_tokens():
    # k = 0: every byte is a box 13 units apart, 11 wide; 小 is bytes 0..2, so its three
    # boxes point at character 0; the strip's first line starts 18 units down (the title)
    v = compute("bpe", {"k": 0})
    boxes = v["zh"]["boxes"]
    assert [(b["x"], b["w"]) for b in boxes[:4]] == [(5, 11), (18, 11), (31, 11), (44, 11)]
    assert all(b["y"] == 18 + 21 for b in boxes[:24])  # 小猫没有过马路， fill the first line
    assert boxes[24]["y"] == 18 + 42 + 21 and boxes[24]["x"] == 5  # 因 starts line 2
    assert [b["tokens"] for b in boxes[:4]] == ["zh0", "zh0", "zh0", "zh1"]
    assert all(b["part"] and b["c"] == 0 for b in boxes)  # a lone byte of a character
    # the balanced vocabulary makes 小猫 one token: one box, 6 bytes wide, both characters
    balanced = compute("bpe", {"corpus": "balanced"})["zh"]["boxes"]
    first = balanced[0]
    assert (first["x"], first["w"], first["tokens"], first["c"]) == (5, 6 * 13 - 2, "zh0 zh1", 5)
    assert not first["part"] and first["say"].startswith("「小猫」：6 个字节")
    # slots for every byte, the unused ones hidden
    assert len(balanced) == 45 and sum(b["hidden"] for b in balanced) == 45 - 17


def test_the_newest_merge_is_marked_where_it_applies():
    v = compute("bpe", {"k": 1})  # merge 1 of the English-centric corpus: h + e -> he
    assert v["latest"].startswith("第 1 次合并：「h」+「e」→「he」")
    new = [b for b in v["en"]["boxes"] if b["new"]]
    assert [b["tokens"] for b in new] == ["en1 en2", "en23 en24"]  # tHE, tHE (the, the)
    assert not any(b["new"] for b in v["zh"]["boxes"])
    assert v["table"][0]["token"] == "he" and v["table"][0]["used"] == "英文"
    assert [r["hidden"] for r in v["table"]] == [False] + [True] * (W.TABLE_ROWS - 1)


def test_the_chart_and_its_mark():
    v = compute("bpe", {"k": 250})
    plot = v["chart"]["plot"]
    x = plot["x"] + plot["w"] * 250 / 500
    y = lambda n: plot["y"] + plot["h"] * (1 - n / 60)  # noqa: E731
    zh, en = W.counts("english_centric", "zh")[250], W.counts("english_centric", "en")[250]
    assert v["chart"]["mark"]["x"] == pytest.approx(x, abs=0.006)
    assert [p["y"] for p in v["chart"]["mark"]["points"]] == [pytest.approx(y(zh), abs=0.006),
                                                             pytest.approx(y(en), abs=0.006)]
    assert v["chart"]["paths"][0]["d"].startswith(f"M{plot['x']}.0,{y(45):.1f}")  # 45 at k=0
    assert len(v["chart"]["probes"]) == 51 and v["chart"]["probes"][30]["say"] == \
        "k = 300：中文 39 个 token，英文 18 个"
    # the page that holds this corpus's chart gets no chart lines, another corpus gets them
    held = held_after("bpe", {"k": 250})
    assert "paths" not in asked("bpe", {"k": 3}, held)[0]["chart"]
    assert "paths" in asked("bpe", {"k": 3, "corpus": "balanced"}, held)[0]["chart"]


def test_a_walk_of_k_brings_the_tokens_and_the_chart_only_with_the_corpus():
    """A walk of k, one merge at a time and in jumps, then the other corpus: each view laid
    over the one the page shows is the whole view; the characters never come again, the
    chart only with another corpus."""
    walk = [("english_centric", k) for k in [*range(0, 40), 120, 119, 500, 3, 3]] + \
        [("balanced", 3), ("balanced", 4), ("english_centric", 4)]
    page = compute("bpe", {})
    held = held_after("bpe", {})
    shown_corpus = "english_centric"
    for corpus, k in walk:
        part, sent = asked("bpe", {"k": k, "corpus": corpus}, held)
        held = {**held, **sent}
        page = laid_over(page, part)
        whole = compute("bpe", {"k": k, "corpus": corpus})
        assert {key: page[key] for key in whole} == whole, (corpus, k)
        assert "strip" not in part and ("paths" in part.get("chart", {})) == \
            (corpus != shown_corpus), (corpus, k)
        shown_corpus = corpus
