"""The numbers the prose quotes beside the book's figures of weights × V (chapter 4) and of
image-text matching (chapter 12) are the numbers their widgets show: each sentence is looked
up in the chapter with pycore's value written in."""
from pathlib import Path

import numpy as np
import pytest

from pycore.widgets import compute

BOOK = Path(__file__).resolve().parent.parent / "book"


def f3(x):
    return f"{x:.3f}"


def quotes():
    one = compute("weighted-sum", {"query": "它", "scale": 1.0})
    six = compute("weighted-sum", {"query": "它", "scale": 6.0})
    w, o, o6 = one["weights"], one["output"], six["output"]
    return [
        ("04-attention.md", f"“实体”一维是 {f3(o[0])}，由小猫的 {f3(w[0])} 和马路的 {f3(w[3])} 拼成"),
        ("04-attention.md", f"“有生命”一维只有小猫给的 {f3(o[1])}"),
        ("04-attention.md", f"“功能词”，{f3(o[3])}——四个功能词每个只给 {f3(w[1])}"),
        ("04-attention.md", f"“实体”涨到 {f3(o6[0])}，“有生命”涨到 {f3(o6[1])}，“功能词”缩成 {f3(o6[3])}"),
    ]


@pytest.mark.parametrize("chapter,sentence", quotes())
def test_the_chapter_quotes_the_widget(chapter, sentence):
    text = (BOOK / chapter).read_text(encoding="utf-8")
    assert sentence in text, f"book/{chapter} should say {sentence!r} (pycore's numbers)"


def clip_quotes():
    right = compute("clip-matrix", {"tau": 0.2, "captions": "right"})
    swap = compute("clip-matrix", {"tau": 0.2, "captions": "swap"})
    edit = compute("clip-matrix", {"tau": 0.2, "captions": "edit"})
    flat = compute("clip-matrix", {"tau": 1.0, "captions": "right"})
    return [
        f"损失只有 {f3(right['loss'])}",
        f"图1 和文5 的余弦也有 {f3(right['cos'][0][4])}",
        f"概率跌到 {f3(swap['right_i2t'][0])}，损失跳到 {f3(swap['loss'])}",
        f"损失升到 {f3(edit['loss'])}",
        f"损失也有 {f3(flat['loss'])}，离闭眼瞎猜的 $\\ln 5\\approx {f3(np.log(5))}$",
    ]


@pytest.mark.parametrize("sentence", clip_quotes())
def test_chapter_12_quotes_the_clip_widget(sentence):
    text = (BOOK / "12-matching-multimodal.md").read_text(encoding="utf-8")
    assert sentence in text, f"book/12-matching-multimodal.md should say {sentence!r}"


def test_chapter_12_the_diagonal_cosines_lie_where_the_prose_says():
    cos = compute("clip-matrix", {"tau": 0.2})["cos"]
    assert all(0.92 <= cos[i][i] <= 0.95 for i in range(5))
    assert "对角线上的余弦都在 0.92 到 0.95 之间" in (BOOK / "12-matching-multimodal.md").read_text()
