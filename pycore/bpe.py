"""Byte-pair encoding (BPE), learned merge by merge, at the byte level as in GPT-2.

Text is first cut into chunks (pre-tokenisation): a run of letters, a run of digits or a run
of punctuation, each with the space before it, so " road" is one chunk and merges never join
two words. Chinese characters count as letters, so 「小猫没有过马路」 is a single chunk. Each
chunk becomes its UTF-8 bytes: the starting vocabulary is the 256 byte values (ids 0..255),
so any text at all can be encoded, and a Chinese character starts as 3 tokens (its 3 bytes).

Training repeats one step: count every adjacent pair of tokens in the corpus (weighted by how
often each chunk occurs; overlapping pairs all count), take the most frequent pair (ties: the
smaller pair of ids), give it the next id (256, 257, ...) and replace it, left to right,
wherever it occurs. Encoding new text with the first k merges applies them in the order they
were learned. Decoding joins the tokens' bytes, so decode(encode(s)) == s for every string.

Why Chinese costs more in an English-centric vocabulary: the merges go to what the corpus
repeats. Trained mostly on English, the merges spend themselves on English words and
pieces of words; the bytes of a Chinese character stay mostly unmerged, so a Chinese
character still costs close to its 3 bytes, while an English word costs one or two tokens.
(Byte tokens need not stop at a character's edge: <8f><e7> is the end of 小 and the start
of 猫.)

Numbers the chapter quotes (pycore.bpe_corpus, N_MERGES = 300; tests/test_pycore_bpe.py):
- 「小猫没有过马路，因为它太累了。」 is 15 characters, 45 UTF-8 bytes: 45 tokens before any
  merge. After the 300 merges of the English-centric corpus it is still 39 tokens (2.6 a
  character); after the 300 merges of the balanced corpus, 17 tokens (1.13 a character).
- Its English translation, 56 characters (12 words), falls from 56 tokens to 18 with the
  English-centric merges: the same meaning costs 39 / 18 = 2.17 times as many tokens in
  Chinese. With the balanced merges it is 17 against 20.
"""
import functools
import re
from collections import Counter, defaultdict

from . import bpe_corpus

N_BYTES = 256
N_MERGES = 300  # the chapter's vocabulary: 256 bytes + 300 merges = 556 tokens
# How far the book's corpora are trained (the widget's slider range). The English-centric
# corpus runs out after 409 merges: then no pair occurs twice.
MAX_MERGES = 500

# A run of letters (Chinese characters included), of digits, or of other non-space symbols,
# each with one optional leading space; then whitespace. [^\W\d_] is "a letter" in `re`.
CHUNK = re.compile(r" ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+")

CORPORA = {"english_centric": bpe_corpus.english_centric, "balanced": bpe_corpus.balanced}


def pretokenize(text):
    """The chunks merges stay inside; "".join(pretokenize(s)) == s."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    return CHUNK.findall(text)


def merge_pair(ids, pair, new_id):
    """Replace every occurrence of `pair` in `ids`, scanning left to right (no overlaps)."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _pairs(ids):
    return zip(ids, ids[1:])


def train(text, n_merges):
    """Learn up to n_merges merges on `text`. Returns a list, one dict per merge:
    step (1-based), pair (a, b), token (the new id), bytes, count (the pair's frequency when
    it was chosen) and corpus_tokens (the corpus's length in tokens after the merge).

    Stops early when no pair occurs twice or more (nothing left worth merging).
    Pair counts are kept up to date incrementally: a merge only changes the chunks that
    contained the pair, so only their pairs are recounted.
    """
    if n_merges < 0:
        raise ValueError(f"n_merges must be >= 0, not {n_merges}")
    chunks = Counter(pretokenize(text))
    seqs = [list(c.encode("utf-8")) for c in chunks]
    freqs = list(chunks.values())
    vocab = [bytes([b]) for b in range(N_BYTES)]
    counts = Counter()  # pair -> occurrences in the corpus
    where = defaultdict(set)  # pair -> indices of the chunks that contain it (maybe stale)
    for idx, ids in enumerate(seqs):
        for p in _pairs(ids):
            counts[p] += freqs[idx]
            where[p].add(idx)
    total = sum(f * len(ids) for f, ids in zip(freqs, seqs))
    merges = []
    for step in range(1, n_merges + 1):
        if not counts:
            break
        pair, count = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if count < 2:
            break
        new_id = len(vocab)
        vocab.append(vocab[pair[0]] + vocab[pair[1]])
        for idx in where.pop(pair):
            old, f = seqs[idx], freqs[idx]
            new = merge_pair(old, pair, new_id)
            if len(new) == len(old):
                continue  # a stale entry: the chunk no longer holds the pair
            for p in _pairs(old):
                counts[p] -= f
                if counts[p] == 0:
                    del counts[p]
            for p in _pairs(new):
                counts[p] += f
                where[p].add(idx)
            total -= f * (len(old) - len(new))
            seqs[idx] = new
        merges.append({"step": step, "pair": pair, "token": new_id, "bytes": vocab[new_id],
                       "count": count, "corpus_tokens": total})
    return merges


@functools.lru_cache(maxsize=None)
def _trained(corpus):
    return tuple(train(CORPORA[corpus](), MAX_MERGES))


def book_merges(corpus="english_centric", n_merges=N_MERGES):
    """The first n_merges merges learned on one of the book's corpora.

    Training is greedy, so the first n merges of a longer run are exactly the merges of a run
    of n: each corpus is trained once, to MAX_MERGES, and cut.
    """
    if corpus not in CORPORA:
        raise ValueError(f"corpus must be one of {sorted(CORPORA)}, not {corpus!r}")
    if not 0 <= n_merges <= MAX_MERGES:
        raise ValueError(f"n_merges must be between 0 and {MAX_MERGES}, not {n_merges}")
    return list(_trained(corpus)[:n_merges])


def vocabulary(merges):
    """Token id -> bytes, for the 256 bytes and every merge."""
    vocab = [bytes([b]) for b in range(N_BYTES)]
    for m in merges:
        a, b = m["pair"]
        vocab.append(vocab[a] + vocab[b])
    return vocab


def encode(text, merges, k=None):
    """Token ids of `text` using the first k merges (all of them when k is None)."""
    chosen = merges if k is None else merges[:k]
    ids = []
    for chunk in pretokenize(text):
        seq = list(chunk.encode("utf-8"))
        for m in chosen:
            if len(seq) < 2:
                break
            seq = merge_pair(seq, m["pair"], m["token"])
        ids += seq
    return ids


def decode(ids, merges):
    """The text of token ids: their bytes joined, read as UTF-8."""
    vocab = vocabulary(merges)
    return b"".join(vocab[i] for i in ids).decode("utf-8")


def token_label(b):
    """A readable label for a token's bytes: UTF-8 where the bytes form whole characters,
    <e5> for a byte that is only part of one; a space shows as ␣ and a newline as ↵."""
    out, i = [], 0
    while i < len(b):
        for size in (1, 2, 3, 4):
            try:
                ch = b[i:i + size].decode("utf-8")
            except UnicodeDecodeError:
                continue
            out.append(ch.replace(" ", "␣").replace("\n", "↵"))
            i += size
            break
        else:
            out.append(f"<{b[i]:02x}>")
            i += 1
    return "".join(out)


def tokenize(text, merges, k=None):
    """What a widget shows for `text` after k merges: ids, labels and counts."""
    ids = encode(text, merges, k)
    vocab = vocabulary(merges)
    return {"text": text, "k": len(merges) if k is None else min(k, len(merges)),
            "ids": ids, "labels": [token_label(vocab[i]) for i in ids],
            "n_tokens": len(ids), "n_chars": len(text),
            "n_bytes": len(text.encode("utf-8"))}


def token_counts(text, merges):
    """(K + 1,) list: the number of tokens of `text` after k = 0, 1, ..., K merges.

    Applies the merges one at a time to every chunk, so the whole curve costs one encoding.
    """
    seqs = [list(c.encode("utf-8")) for c in pretokenize(text)]
    counts = [sum(map(len, seqs))]
    for m in merges:
        seqs = [merge_pair(s, m["pair"], m["token"]) if len(s) > 1 else s for s in seqs]
        counts.append(sum(map(len, seqs)))
    return counts


def merge_table(merges):
    """The merges as rows a page can list: step, the two parts, the new token, its count."""
    vocab = vocabulary(merges)
    return [{"step": m["step"], "left": token_label(vocab[m["pair"][0]]),
             "right": token_label(vocab[m["pair"][1]]), "token": token_label(m["bytes"]),
             "id": m["token"], "count": m["count"], "corpus_tokens": m["corpus_tokens"]}
            for m in merges]


def language_cost(n_merges=N_MERGES, pair=None):
    """The same meaning in Chinese and in English, tokenised by both book vocabularies.

    pair: (chinese, english); default the running example (bpe_corpus.HELD_OUT). Returns,
    per corpus and per language: characters, UTF-8 bytes, tokens, tokens per character,
    and the ratio of Chinese tokens to English tokens.
    """
    zh, en = bpe_corpus.HELD_OUT if pair is None else pair
    out = {"zh": zh, "en": en, "n_merges": n_merges}
    for corpus in CORPORA:
        merges = book_merges(corpus, n_merges)
        row = {}
        for lang, text in (("zh", zh), ("en", en)):
            n = len(encode(text, merges))
            row[lang] = {"chars": len(text), "bytes": len(text.encode("utf-8")), "tokens": n,
                         "tokens_per_char": n / len(text)}
        row["zh_over_en"] = row["zh"]["tokens"] / row["en"]["tokens"]
        out[corpus] = row
    return out
