"""The numbers the prose quotes beside the book's figures of weights × V (chapter 4) and of
image-text matching (chapter 12) are the numbers their widgets show: each sentence is looked
up in the chapter with pycore's value written in."""
from pathlib import Path

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
