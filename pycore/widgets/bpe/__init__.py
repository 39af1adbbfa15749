"""Widget bpe: byte-pair merges learned on the book's small corpus, applied one by one to the
running example and its English translation.

The reader sets k, the number of merges used (a slider, or one merge at a time), and the
training corpus: English-centric (every English sentence, one Chinese sentence in ten) or
balanced (both halves of every pair). The math is pycore.bpe (training, encoding) on
pycore.bpe_corpus; this module lays out the picture:
- each sentence's characters on a strip one unit per UTF-8 byte (a Chinese character is three
  units wide, a letter one), wrapped between pre-tokenisation chunks, which no token crosses;
  under it one box per token, spanning the bytes it covers, its colour the number of bytes;
- the token count of both sentences against k (a staircase: most merges touch neither), the
  current k marked;
- the last merges learned up to k, and which of them changed a sentence.

Each corpus is trained once (pycore.bpe caches it); the tokens of each sentence are kept at
every k where they change, so moving k costs a look-up, not an encoding (those per-corpus
tables are cached below: every part reads them). The view is in parts (PARTS,
pycore/view_parts.py): the characters never change, the chart changes only with the
corpus, the tokens with the corpus and k.
"""
import bisect
from functools import lru_cache

from ... import bpe, bpe_corpus, figure

CORPUS_CHOICES = list(bpe.CORPORA)  # english_centric, balanced
CORPUS_NAMES = {"english_centric": "以英文为主", "balanced": "中英各半"}
LANGS = {"zh": bpe_corpus.HELD_OUT[0], "en": bpe_corpus.HELD_OUT[1]}
LANG_NAMES = {"zh": "中文", "en": "英文"}

UNIT = 13        # SVG units per byte
LINE_BYTES = 24  # bytes per line of the strip (lines break between chunks)
PAD = 4          # left and right margin of the strip
LINE_H = 42      # a line: the characters (baseline at +15), the token boxes (+21 .. +35)
TITLE_H = 18     # each sentence's title line above its strip
WIDTH = 2 * PAD + LINE_BYTES * UNIT
TABLE_ROWS = 8   # the merge table shows the last TABLE_ROWS merges up to k
K_MAX = bpe.MAX_MERGES
CHART_X = (0, K_MAX)
CHART_Y = (0, 60)
PROBE_EVERY = 10

PARAMS = {
    "k": {"type": "int", "min": 0, "max": K_MAX, "default": bpe.N_MERGES,
          "help": "how many of the learned merges are applied (0: every byte is a token)"},
    "corpus": {"type": "choice", "choices": CORPUS_CHOICES, "default": "english_centric",
               "help": "the corpus the merges are learned on: mostly English, or half Chinese"},
}


@lru_cache(maxsize=None)
def layout():
    """Where every byte and character of both sentences sits: fixed. Returns {lang: {bytes
    [(line, col)] per byte, chars [{x, y, label, tokens}], char_of [character index per
    byte], top (the strip's first line's y), lines}}, and the SVG's height."""
    out, y = {}, 0
    for lang, text in LANGS.items():
        top = y + TITLE_H
        places, chars, char_of = [], [], []
        line = col = 0
        for chunk in bpe.pretokenize(text):
            size = len(chunk.encode("utf-8"))
            if size > LINE_BYTES:
                raise ValueError(f"a chunk of {size} bytes does not fit a line of {LINE_BYTES}")
            if col + size > LINE_BYTES:
                line, col = line + 1, 0
            for ch in chunk:
                n = len(ch.encode("utf-8"))
                x = PAD + (col + n / 2) * UNIT
                label = "␣" if ch == " " else ch
                chars.append({"x": figure.r(x), "y": top + line * LINE_H + 15, "label": label,
                              "space": ch == " ", "tokens": f"{lang}{len(chars)}"})
                for _ in range(n):
                    places.append((line, col))
                    char_of.append(len(chars) - 1)
                    col += 1
        out[lang] = {"bytes": places, "chars": chars, "char_of": char_of, "top": top,
                     "lines": line + 1, "title_y": top - 5}
        y = top + (line + 1) * LINE_H + 6
    return out, y


@lru_cache(maxsize=None)
def trained(corpus):
    """The corpus's merges (up to MAX_MERGES) and its vocabulary: id -> bytes."""
    merges = bpe.book_merges(corpus, K_MAX)
    return merges, bpe.vocabulary(merges)


@lru_cache(maxsize=None)
def history(corpus, lang):
    """The sentence's token ids at every k where they change: (ks, ids) with ks ascending
    from 0. The merges are applied one at a time to every chunk (pycore.bpe.encode applies
    the first k of them the same way), so the whole history costs one encoding."""
    merges, _ = trained(corpus)
    seqs = [list(c.encode("utf-8")) for c in bpe.pretokenize(LANGS[lang])]
    ks, ids = [0], [[i for s in seqs for i in s]]
    for m in merges:
        new = [bpe.merge_pair(s, m["pair"], m["token"]) if len(s) > 1 else s for s in seqs]
        if sum(map(len, new)) != sum(map(len, seqs)):
            ks.append(m["step"])
            ids.append([i for s in new for i in s])
        seqs = new
    return ks, ids


def tokens_at(corpus, lang, k):
    """The sentence's token ids after the first k merges."""
    ks, ids = history(corpus, lang)
    return ids[bisect.bisect_right(ks, k) - 1]


def counts(corpus, lang):
    """(K_MAX + 1,) token counts for k = 0 .. K_MAX (constant once the merges run out)."""
    ks, ids = history(corpus, lang)
    return [len(ids[bisect.bisect_right(ks, k) - 1]) for k in range(K_MAX + 1)]


def boxes(corpus, lang, k):
    """One box per token (slots for every byte, the unused ones hidden): its span on the
    strip, its colour (bytes per token, 1 .. 9+), its label and readout, the characters it
    covers (for pointing), and whether merge k made it."""
    merges, vocab = trained(corpus)
    place = layout()[0][lang]
    newest = merges[k - 1]["token"] if 0 < k <= len(merges) else None
    out, start = [], 0
    for t in tokens_at(corpus, lang, k):
        size = len(vocab[t])
        line, col = place["bytes"][start]
        label = bpe.token_label(vocab[t])
        chars = sorted(set(place["char_of"][start:start + size]))
        whole = "<" not in label
        out.append({"x": figure.r(PAD + col * UNIT + 1), "y": place["top"] + line * LINE_H + 21,
                    "w": size * UNIT - 2, "c": figure.seq_class(min(size, 9), 1, 10),
                    "label": label, "part": not whole,
                    "new": t == newest, "hidden": False,
                    "tokens": " ".join(f"{lang}{c}" for c in chars),
                    "say": f"「{label}」：{size} 个字节，id {t}"
                           + ("" if whole else "（不是完整的字）")})
        start += size
    blank = {"x": 0, "y": 0, "w": 0, "c": 0, "label": "", "part": False, "new": False,
             "hidden": True, "tokens": "", "say": False}
    return out + [dict(blank) for _ in range(len(place["bytes"]) - len(out))]


def sentence(corpus, lang, k):
    """The sentence's token counts, its boxes and their labels (the 数值 table's; the boxes
    say theirs)."""
    text = LANGS[lang]
    n = len(tokens_at(corpus, lang, k))
    out = {"text": text, "name": LANG_NAMES[lang], "n_tokens": n, "n_chars": len(text),
           "n_bytes": len(text.encode("utf-8")), "per_char": n / len(text)}
    b = boxes(corpus, lang, k)
    out.update(boxes=b, labels=[x.pop("label") for x in b])
    return out


@lru_cache(maxsize=None)
def merge_list(corpus):
    """Every merge of the corpus as a row (pycore.bpe.merge_table): step, left, right, token,
    count. Computed once per corpus; callers must not modify it."""
    return bpe.merge_table(trained(corpus)[0])


def merge_rows(corpus, k):
    """The last TABLE_ROWS merges up to k, newest first (empty slots hidden), each with the
    sentences it changed."""
    changed = {lang: set(history(corpus, lang)[0]) for lang in LANGS}
    rows = []
    for row in reversed(merge_list(corpus)[max(0, k - TABLE_ROWS):k]):
        hit = [LANG_NAMES[lang] for lang in LANGS if row["step"] in changed[lang]]
        rows.append({**row, "hidden": False, "count_text": f"{row['count']}",
                     "step_text": f"{row['step']}", "used": "、".join(hit) or "—"})
    blank = {"step_text": "", "left": "", "right": "", "token": "", "count_text": "",
             "used": "", "hidden": True}
    return rows + [dict(blank) for _ in range(TABLE_ROWS - len(rows))]


def latest(corpus, k):
    """One sentence about the k-th merge (or why there is none)."""
    merges, _ = trained(corpus)
    name = CORPUS_NAMES[corpus]
    if k == 0:
        return "还没有合并：每个字节都是一个 token（词表只有 256 个字节）"
    if k > len(merges):
        return (f"「{name}」的语料只学得出 {len(merges)} 次合并：再往后，没有哪一对相邻的 "
                "token 出现两次以上，k 再大也不会改变任何东西")
    row = merge_list(corpus)[k - 1]
    return (f"第 {k} 次合并：「{row['left']}」+「{row['right']}」→「{row['token']}」"
            f"（这一对在语料里出现 {row['count']} 次）")


def say_counts(corpus, k):
    zh, en = counts(corpus, "zh")[k], counts(corpus, "en")[k]
    return f"k = {k}：中文 {zh} 个 token，英文 {en} 个"


def chart(corpus):
    """Both sentences' token counts against k, as staircases, with a crosshair every
    PROBE_EVERY merges."""
    ks = list(range(K_MAX + 1))
    series = []
    for lang in LANGS:
        xs, ys = figure.step_points(ks, counts(corpus, lang))
        series.append({"name": LANG_NAMES[lang], "x": xs, "y": ys})
    fig = figure.line_chart(series, width=460, height=210, x_domain=CHART_X, y_domain=CHART_Y,
                            margin=(14, 14, 32, 40), x_ticks=list(range(0, K_MAX + 1, 100)),
                            y_ticks=list(range(0, 61, 10)), x_label="合并次数 k",
                            y_label="token 数")
    zh = counts(corpus, "zh")
    probes = [(k, zh[k]) for k in range(0, K_MAX + 1, PROBE_EVERY)]
    fig["probes"] = figure.crosshair(fig, probes, [say_counts(corpus, k) for k, _ in probes],
                                     x_domain=CHART_X, y_domain=CHART_Y)
    return fig


def mark(fig, corpus, k):
    """The current k on the chart fig: a rule and a dot on each sentence's staircase."""
    dom = {"x_domain": CHART_X, "y_domain": CHART_Y}
    x = figure.chart_point(fig, k, 0, **dom)[0]
    return {"x": x, "points": [{"y": figure.chart_point(fig, k, counts(corpus, lang)[k],
                                                        **dom)[1]} for lang in LANGS]}


def strip():
    """What never changes: the characters' places, the colours' legend, the corpora's names."""
    places, height = layout()
    return {"strip": {"width": WIDTH, "height": height,
                      **{lang: {"chars": places[lang]["chars"],
                                "title_y": places[lang]["title_y"]} for lang in LANGS}},
            "legend": {**figure.legend(1, 9, digits=0), "hi": "≥9", "note": "每个 token 的字节数"},
            "corpus_names": CORPUS_NAMES}


def corpus_chart(corpus):
    """The corpus's chart of token counts against k (its mark is the tokens')."""
    return {"corpus": corpus, "corpus_name": CORPUS_NAMES[corpus], "chart": chart(corpus)}


def tokens(corpus_chart, corpus, k):
    """Both sentences' tokens after k merges, their counts, the latest merges, the mark."""
    merges, _ = trained(corpus)
    zh, en = (sentence(corpus, lang, k) for lang in ("zh", "en"))
    used = min(k, len(merges))
    return {
        "k": k, "k_used": used, "vocab_size": bpe.N_BYTES + used, "exhausted": k > len(merges),
        "zh": zh, "en": en, "ratio": zh["n_tokens"] / en["n_tokens"],
        "latest": latest(corpus, k), "table": merge_rows(corpus, k),
        "chart": {"mark": mark(corpus_chart["chart"], corpus, k)},
        "summary": (f"k = {k}：中文 {zh['n_tokens']} 个 token（{zh['n_bytes']} 个字节），"
                    f"英文 {en['n_tokens']} 个（{en['n_bytes']} 个字节）；每个框是一个 token，"
                    "框上方是它覆盖的字符（数值见「数值」）"),
    }


PARTS = (strip, corpus_chart, tokens)
