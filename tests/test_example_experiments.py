"""Each chapter's "动手改例子" experiment states numbers for an edited example: they must be
pycore's (computed here from the edit the paragraph describes), never typed by hand."""
import re
from pathlib import Path

import pytest

from pycore import example
from pycore.widgets import compute

BOOK = Path(__file__).resolve().parent.parent / "book"


def edited(token=None, feature=None, value=1, pronoun=None):
    ex = example.default_example()
    if token is not None:
        ex["x"][example.TOKENS.index(token)][example.FEATURES.index(feature)] = value
    if pronoun is not None:
        ex["pronoun"] = pronoun
    return ex


ROAD = edited("马路", "有生命")


def f4(x):
    return f"{x:.4f}"


def experiment(chapter):
    """The chapter's experiment paragraph (it starts with **动手改例子**)."""
    text = (BOOK / chapter).read_text(encoding="utf-8")
    found = re.findall(r"^\*\*动手改例子.*$", text, flags=re.M)
    assert len(found) == 1, f"{chapter}: expected one 动手改例子 paragraph"
    assert "```widget example-editor" in text.split(found[0])[1][:200]
    return found[0]


def numbers_in(paragraph):
    return re.findall(r"\d+\.\d{4}", paragraph)


def views():
    """(chapter, [the numbers the paragraph states, in its order]) from pycore."""
    book_att = compute("attention", {"query": "小猫", "causal": True, "example": ROAD})
    emb_book = compute("embedding", {"a": "小猫", "b": "马路"})
    emb = compute("embedding", {"a": "小猫", "b": "马路", "example": ROAD})
    att = compute("attention", {"query": "它", "example": ROAD})
    att6 = compute("attention", {"query": "它", "scale": 6.0, "example": ROAD})
    only_animate = edited(pronoun=[0, 1, 0, 0, 0, 0])
    mh_book = compute("multi-head", {"query": "它"})
    mh = compute("multi-head", {"query": "它", "example": only_animate})
    perm = compute("permutation", {"seed": 1, "positions": True, "example": ROAD})
    perm_book = compute("permutation", {"seed": 1, "positions": True})
    no_pronoun = edited("它", "代词", 0)
    post = compute("encoder-layer", {"step": 4, "layout": "post", "example": no_pronoun})
    causal = compute("attention", {"query": "它", "causal": True, "example": ROAD})
    return {
        "03-embeddings.md": [f4(emb_book["cos"]), f4(emb["cos"])],
        "04-attention.md": [f4(att["row"][0]), f4(att["row"][1]), f4(att6["row"][0])],
        "05-multi-head.md": [f4(mh["row_a"][3]), f4(mh_book["row_a"][0]), f4(mh["row_a"][0]),
                             f4(mh["top_b"]["weight"])],
        "06-positional-encoding.md": [f4(perm["max_abs_diff"]), f4(perm_book["max_abs_diff"])],
        "07-encoder-layer.md": [f4(post["row_std"][5])],
        "08-decoder.md": [f4(causal["row"][0]), f4(causal["row"][1]), f4(book_att["row"][0])],
    }


def test_the_kv_cache_experiment_is_pycores():
    """Chapter 9 states whole numbers: the edit (0), 小猫's K and V rows, the multiply-adds
    at step 8."""
    cat_inanimate = edited("小猫", "有生命", 0)
    first = compute("kv-cache", {"step": 1, "example": cat_inanimate})["grids"][0]["rows"][0]
    last = compute("kv-cache", {"step": 8, "example": cat_inanimate})
    book = compute("kv-cache", {"step": 8})
    assert (last["total_nocache"], last["total_cache"]) == \
        (book["total_nocache"], book["total_cache"])
    k, v = first["digits"][:6], first["digits"][6:]
    stated = ["0", k, v, str(last["step"]), str(last["total_nocache"]), str(last["total_cache"])]
    assert re.findall(r"\d+", experiment("09-sampling.md")) == stated


@pytest.mark.parametrize("chapter, expected", sorted(views().items()))
def test_the_experiments_numbers_are_pycores(chapter, expected):
    assert numbers_in(experiment(chapter)) == expected


def test_the_stated_facts_behind_the_numbers():
    """What the paragraphs say in words: the dot products, the ties, what does not move."""
    emb = compute("embedding", {"a": "小猫", "b": "马路", "example": ROAD})
    assert emb["dot"] == 2 and compute("embedding", {"a": "小猫", "b": "马路"})["dot"] == 1
    att = compute("attention", {"query": "它", "example": ROAD})
    assert f4(att["row"][0]) == f4(att["row"][3])  # 小猫 and 马路 tie
    mh = compute("multi-head", {"query": "它", "example": edited(pronoun=[0, 1, 0, 0, 0, 0])})
    assert mh["top_b"]["token"] == "因为"
    assert mh["row_b"] == compute("multi-head", {"query": "它"})["row_b"]
    for seed in (1, 2, 3):
        plain = compute("permutation", {"seed": seed, "example": ROAD})
        assert plain["max_abs_diff"] < 1e-12  # only float rounding, whatever the example
    perm = compute("permutation", {"seed": 1, "positions": True, "example": ROAD})
    assert perm["n_changed"] == 9
    pre = compute("encoder-layer", {"step": 2, "layout": "pre",
                                    "example": edited("它", "代词", 0)})
    assert f"{pre['row_std'][5]:.3f}" == f"{pre['row_mean'][5]:.3f}" == "0.000"
    for ex in (ROAD, edited("小猫", "实体", 0), edited(pronoun=[0] * 6)):
        first = compute("attention", {"query": "小猫", "causal": True, "example": ex})
        assert first["row"][0] == 1.0  # the first token sees only itself
