"""The numbers the chapters quote about tokenisation (3), online softmax (4), padding and
cross-attention (8) are the numbers their widgets show: each sentence below is looked up in
the chapter with the value pycore computes written in, so a change on either side fails here."""
from pathlib import Path

import pytest

from pycore.widgets import compute

BOOK = Path(__file__).resolve().parent.parent / "book"


def f3(x):
    return f"{x:.3f}"


def quotes():
    bpe0 = compute("bpe", {"k": 0})
    bpe1 = compute("bpe", {"k": 1})
    bpe = compute("bpe", {})
    bal = compute("bpe", {"corpus": "balanced"})
    it = [compute("online-softmax", {"step": s}) for s in (1, 2, 3)]
    tired = compute("online-softmax", {"query": "累", "step": 3})
    pad = compute("padding-mask", {})
    nopad = compute("padding-mask", {"mask": False})
    left = compute("padding-mask", {"mask": False, "causal": True, "side": "left"})
    cat = compute("cross-attention", {"step": 2})
    no = compute("cross-attention", {"step": 4})
    flat = compute("cross-attention", {"step": 2, "scale": 1.0})
    return [
        ("03-embeddings.md", f"就是 {bpe0['zh']['n_tokens']} 个 token；英文句子 56 个字符，"
                             f"{bpe0['en']['n_tokens']} 个 token"),
        ("03-embeddings.md", f"变成 {bpe1['en']['n_tokens']} 个 token"),
        ("03-embeddings.md", f"英文降到 {bpe['en']['n_tokens']} 个 token，中文只降到 "
                             f"{bpe['zh']['n_tokens']} 个"),
        ("03-embeddings.md", f"中文要花英文的 {bpe['ratio']:.2f} 倍"),
        ("03-embeddings.md", f"中文只要 {bal['zh']['n_tokens']} 个 token，英文 "
                             f"{bal['en']['n_tokens']} 个"),
        ("04-attention.md", "$l$ 依次是 " + "、".join(f3(v["l"]) for v in it)),
        ("04-attention.md", f"$1/{f3(it[2]['l'])}={it[2]['so_far'][0]:.4f}$"),
        ("04-attention.md", f"$e^{{-{f3(tired['m'])}}}={tired['eq']['scale'].split('= ')[-1][:5]}$"),
        ("04-attention.md", f"得到 {f3(tired['l'])}"),
        ("04-attention.md", f"要 {it[0]['memory']['full_text'].replace('.00', '')}；一块"),
        ("08-decoder.md", f"给自己的权重是 {f3(pad['self_weight'])}"),
        ("08-decoder.md", f"它给自己的权重跌到 {f3(nopad['self_weight'])}，5 个 pad 合计分走 "
                          f"{f3(nopad['pad_share'])}"),
        ("08-decoder.md", f"本该是 {f3(pad['outputs'][1][3])}，现在只剩 "
                          f"{f3(nopad['outputs'][1][3])}，少了 {f3(nopad['change'])}"),
        ("08-decoder.md", "依次是 " + "、".join(f3(x) for x in nopad["pad_weight"])),
        ("08-decoder.md", f"分走它 {f3(left['pad_share'])} 的注意力"),
        ("08-decoder.md", f"最大差是 {f3(pad['change'])}"),
        ("08-decoder.md", f"=0.765$，“马路”{f3(cat['second_weight'])}"),
        ("08-decoder.md", f"$e^{{2a}}/(e^{{2a}}+e^{{a}}+7)={f3(cat['attended_weight'])}$"),
        ("08-decoder.md", f"“没有”{f3(no['attended_weight'])}，“因为”“太”“了”各 "
                          f"{f3(no['weights'][4])}"),
        ("08-decoder.md", f"“小猫”只剩 {f3(flat['attended_weight'])}"),
    ]


@pytest.mark.parametrize("chapter,sentence", quotes())
def test_the_chapter_quotes_the_widget(chapter, sentence):
    text = (BOOK / chapter).read_text(encoding="utf-8")
    assert sentence in text, f"book/{chapter} should say {sentence!r} (pycore's numbers)"
