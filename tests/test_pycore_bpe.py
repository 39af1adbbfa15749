"""Byte-pair encoding against merges worked by hand, a naive trainer that recounts every pair
at every step, and a GPT-2-style encoder (lowest-ranked pair first); plus the invariants."""
import random
from collections import Counter

import pytest

from pycore import bpe, bpe_corpus

A, B, C, D = (ord(ch) for ch in "abcd")


def test_merges_by_hand():
    # aaabdaaabac: (a,a) occurs 4 times -> Z; then (Z,a) and (a,b) both occur twice: the
    # smaller pair of ids, (a,b), wins -> Y; then (Z,Y) twice -> X; then every pair occurs once.
    merges = bpe.train("aaabdaaabac", 10)
    assert [m["pair"] for m in merges] == [(A, A), (A, B), (256, 257)]
    assert [m["count"] for m in merges] == [4, 2, 2]
    assert [m["bytes"] for m in merges] == [b"aa", b"ab", b"aaab"]
    assert [m["corpus_tokens"] for m in merges] == [9, 7, 5]  # Z a b d Z a b a c, ..., X d X a c
    assert bpe.encode("aaabdaaabac", merges) == [258, D, 258, A, C]
    assert bpe.encode("aaabdaaabac", merges, k=1) == [256, A, B, D, 256, A, B, A, C]
    assert bpe.token_counts("aaabdaaabac", merges) == [11, 9, 7, 5]


def test_chinese_character_by_hand():
    # 猫 is e7 8c ab. In 猫猫, (e7,8c) and (8c,ab) occur twice: (0x8c, 0xab) is the smaller pair
    # -> 256 = 8c ab; then (e7, 256) twice -> 257 = 猫; then (257, 257) once: stop.
    merges = bpe.train("猫猫", 10)
    assert [m["pair"] for m in merges] == [(0x8C, 0xAB), (0xE7, 256)]
    table = bpe.merge_table(merges)
    assert [r["token"] for r in table] == ["<8c><ab>", "猫"]
    assert [(r["left"], r["right"]) for r in table] == [("<8c>", "<ab>"), ("<e7>", "<8c><ab>")]
    assert bpe.tokenize("猫", merges, k=0)["labels"] == ["<e7>", "<8c>", "<ab>"]
    assert bpe.tokenize("猫", merges)["labels"] == ["猫"]


def test_chunks_keep_words_apart():
    assert bpe.pretokenize("The cat, 小猫没有过马路。") == ["The", " cat", ",", " 小猫没有过马路", "。"]
    # the same pair across a word boundary is never merged: " a a" has no (a, a) pair
    merges = bpe.train("a a a a", 5)
    assert all(m["pair"] != (A, A) for m in merges)
    assert bpe.train("a a a a", 5)[0]["bytes"] == b" a"


def naive_train(text, n_merges):
    """Recount every pair of every chunk at every step (no incremental bookkeeping)."""
    words = Counter(bpe.pretokenize(text))
    seqs = {w: list(w.encode("utf-8")) for w in words}
    merges = []
    for step in range(n_merges):
        counts = Counter()
        for w, ids in seqs.items():
            for p in zip(ids, ids[1:]):
                counts[p] += words[w]
        if not counts:
            break
        best = max(counts.values())
        pair = min(p for p, c in counts.items() if c == best)
        if best < 2:
            break
        new_id = 256 + step
        for w in seqs:
            out, i, ids = [], 0, seqs[w]
            while i < len(ids):
                if tuple(ids[i:i + 2]) == pair:
                    out.append(new_id)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            seqs[w] = out
        merges.append((pair, best))
    return merges


@pytest.mark.parametrize("corpus", sorted(bpe.CORPORA))
def test_incremental_training_equals_naive(corpus):
    text = bpe.CORPORA[corpus]()
    merges = bpe.book_merges(corpus, 150)
    assert [(m["pair"], m["count"]) for m in merges] == naive_train(text, 150)
    # corpus_tokens: the length of the whole corpus encoded with the merges so far
    for k in (0, 1, 40, 150):
        if k:
            assert merges[k - 1]["corpus_tokens"] == len(bpe.encode(text, merges, k))
    assert len(bpe.encode(text, merges, 0)) == len(text.encode("utf-8"))


def rank_encode(text, merges):
    """GPT-2's loop: in each chunk merge the lowest-ranked pair present, until none is left."""
    rank = {m["pair"]: (r, m["token"]) for r, m in enumerate(merges)}
    out = []
    for chunk in bpe.pretokenize(text):
        ids = list(chunk.encode("utf-8"))
        while True:
            present = [rank[p] for p in zip(ids, ids[1:]) if p in rank]
            if not present:
                break
            r, new_id = min(present)
            ids = bpe.merge_pair(ids, merges[r]["pair"], new_id)
        out += ids
    return out


def random_texts(n, seed=0):
    rng = random.Random(seed)
    alphabet = list("abcdefghijklmnopqrstuvwxyz     ,.!?0123456789") + \
        list("小猫没有过马路因为它太累了的一是在不，。") + ["é", "😀", "\n", "\t"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(n)]


def test_encode_equals_rank_based_encoder():
    merges = bpe.book_merges("balanced", 300)
    texts = [zh for zh, _ in bpe_corpus.PAIRS[:20]] + list(bpe_corpus.HELD_OUT) + random_texts(50)
    for t in texts:
        assert bpe.encode(t, merges) == rank_encode(t, merges)


@pytest.mark.parametrize("corpus", sorted(bpe.CORPORA))
def test_round_trip_and_monotone_counts(corpus):
    merges = bpe.book_merges(corpus)
    for t in random_texts(80, seed=1) + list(bpe_corpus.HELD_OUT) + [""]:
        for k in (0, 1, 7, 100, None):
            assert bpe.decode(bpe.encode(t, merges, k), merges) == t
        counts = bpe.token_counts(t, merges)
        assert counts[0] == len(t.encode("utf-8"))
        assert all(a >= b for a, b in zip(counts, counts[1:]))  # never more tokens
        for k in (0, 3, 50, len(merges)):
            assert counts[k] == len(bpe.encode(t, merges, k))


def test_token_labels():
    assert bpe.token_label(b" the") == "␣the"
    assert bpe.token_label("猫".encode()) == "猫"
    assert bpe.token_label(b"\xe5\xb0") == "<e5><b0>"  # the first two bytes of 小
    assert bpe.token_label(b"\xab\xe5\xb0\x8f") == "<ab>小"
    assert bpe.token_label(b"a\n") == "a↵"


def test_chinese_costs_more_in_an_english_centric_vocabulary():
    cost = bpe.language_cost()
    zh, en = bpe_corpus.HELD_OUT
    for corpus in bpe.CORPORA.values():  # measured on text the merges never saw
        assert zh not in corpus() and en not in corpus()
    assert len(bpe.book_merges("english_centric", 500)) == 409  # then no pair occurs twice
    assert bpe.tokenize(zh, bpe.book_merges("english_centric"))["labels"][1] == "<8f><e7>"
    assert (len(zh), len(zh.encode()), len(en), len(en.split())) == (15, 45, 56, 12)
    ec, bal = cost["english_centric"], cost["balanced"]
    assert (ec["zh"]["tokens"], ec["en"]["tokens"]) == (39, 18)  # the module docstring's figures
    assert (bal["zh"]["tokens"], bal["en"]["tokens"]) == (17, 20)
    assert ec["zh"]["tokens_per_char"] == pytest.approx(39 / 15)
    assert ec["zh_over_en"] == pytest.approx(39 / 18)
    merges = bpe.book_merges("english_centric")
    # almost every Chinese character is still cut into byte tokens (labels like <e6>)
    labels = bpe.tokenize(zh, merges)["labels"]
    assert sum(lab.startswith("<") for lab in labels) >= 35
    # and the English sentence has whole-word tokens
    assert {"␣the", "␣road", "␣not", "␣tired"} <= set(bpe.tokenize(en, merges)["labels"])


def test_bad_inputs():
    with pytest.raises(TypeError, match="must be a str"):
        bpe.train(b"bytes", 3)
    with pytest.raises(ValueError, match="n_merges must be >= 0"):
        bpe.train("abc", -1)
    with pytest.raises(ValueError, match="corpus must be one of"):
        bpe.book_merges("french")
    with pytest.raises(ValueError, match="between 0 and 500"):
        bpe.book_merges("balanced", 501)
