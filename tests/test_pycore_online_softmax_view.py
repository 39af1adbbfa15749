"""The online-softmax widget's view (pycore/widgets/online_softmax/__init__.py) against the running
example's row of 它 and of 累 worked by hand, the full softmax, and the memory counted by hand."""
import math

import numpy as np
import pytest

from pycore import attention as ATT, example
from pycore.widgets import compute
from pycore.widgets import online_softmax as W

A = 1 / math.sqrt(6)  # the score of one shared feature
E = math.exp(-2 * A)  # a zero score relative to the maximum 2 / sqrt 6


def full_row(query):
    qkv = (example.EMBEDDINGS @ w for w in example.semantic_head())
    return ATT.attention(*qkv)[0][example.TOKENS.index(query)]


def test_the_row_of_it_tile_by_tile():
    l1 = 1 + 2 * E  # 小猫 (2a) and two zeros, relative to m = 2a
    l2 = l1 + math.exp(-A) + 2 * E  # 马路 scores a
    l3 = l2 + 3 * E
    for step, l in zip((1, 2, 3), (l1, l2, l3)):
        v = compute("online-softmax", {"step": step})
        assert v["m"] == pytest.approx(2 * A) and v["l"] == pytest.approx(l)
        assert v["keys_read"] == 3 * step and v["n_tiles"] == 3
    assert [round(x, 3) for x in (l1, l2, l3)] == [1.884, 3.433, 4.759]
    first = compute("online-softmax", {"step": 1})
    assert first["so_far"][:3] == pytest.approx([1 / l1, E / l1, E / l1])  # 0.531, 0.235
    assert first["so_far"][3:] == [0] * 6
    assert first["eq"]["l"] == "l = Σ e^(s − s_max) = 1.884"
    last = compute("online-softmax", {"step": 3})
    assert last["so_far"] == pytest.approx(full_row("它"), abs=1e-15)
    assert last["so_far"][0] == pytest.approx(1 / l3) and round(1 / l3, 4) == 0.2101
    assert last["eq"]["l"] == "l = 3.433 × 1.000 + 1.326 = 4.759"  # 1.326 = 3 e^(-2a)
    assert round(3 * E, 3) == 1.326
    assert last["max_diff"] < 1e-15 and 0 <= last["random_diff"] < 1e-14
    assert last["ledger"][2] == {"tile": "3", "tokens": "太 累 了", "m": f"{2 * A:.4f}",
                                 "l": f"{l3:.4f}", "rescale": "1.0000", "hidden": False}
    assert [r["hidden"] for r in last["ledger"]] == [False] * 3 + [True] * 6


def test_the_row_of_tired_finds_its_maximum_late():
    # 累 scores a against itself and 0 against the others: m is 0 for two tiles, then a;
    # the six earlier keys' sum 6 is rescaled by e^(-a)
    v = compute("online-softmax", {"query": "累", "step": 3})
    assert v["rescale"] == pytest.approx(math.exp(-A)) and round(math.exp(-A), 3) == 0.665
    assert v["l"] == pytest.approx(6 * math.exp(-A) + 2 * math.exp(-A) + 1)
    assert v["eq"]["m"] == "s_max = max(0.000, 0.408) = 0.408"
    assert v["eq"]["scale"].startswith("缩放因子 e^(旧 s_max − 新 s_max) = e^(−0.408) = 0.665")
    assert v["eq"]["l"] == "l = 6.000 × 0.665 + 2.330 = 6.319"
    assert v["so_far"] == pytest.approx(full_row("累"), abs=1e-15)


def test_every_tile_size_ends_on_the_full_softmax():
    for query in example.TOKENS:
        for tile in range(1, 10):
            v = compute("online-softmax", {"query": query, "tile": tile, "step": 9})
            assert v["step"] == v["n_tiles"] == math.ceil(9 / tile)  # clamped to the last
            assert np.max(np.abs(np.array(v["so_far"]) - full_row(query))) < 1e-15
            assert v["done"]


def test_the_picture():
    v = compute("online-softmax", {"step": 2})
    # bars on a 0-1 axis from y = 132 (0) up to y = 16 (1): 116 units per unit of weight
    bars = v["bars"]["bars"]
    assert bars[0]["h"] == pytest.approx(116 * v["so_far"][0], abs=0.006)
    assert bars[0]["ref"] == pytest.approx(132 - 116 * full_row("它")[0], abs=0.006)
    assert bars[6]["h"] == 0 and bars[6]["text"] == "" and "还没读到" in bars[6]["say"]
    # frames round keys 0-2, 3-5, 6-8; the second is current, the third not read yet
    frames = v["frames"]
    assert [(f["x"], f["w"]) for f in frames[:3]] == [(47, 106), (155, 106), (263, 106)]
    assert [(f["current"], f["future"]) for f in frames[:3]] == \
        [(False, False), (True, False), (False, True)]
    assert all(f["hidden"] for f in frames[3:])
    l_row = v["state"][1]["cells"]
    assert [c["text"] for c in l_row[:3]] == ["1.884", "3.433", ""]
    assert l_row[2]["masked"] and not l_row[1]["masked"] and l_row[3]["hidden"]
    acc = v["state"][2 + 3]["cells"]  # 功能词: 没有 in tile 1, 因为 in tile 2, each e^(-2a)
    assert acc[1]["say"] == f"第 2 块之后 acc·功能词：{2 * E:.4f}"


def test_memory_by_hand():
    v = compute("online-softmax", {})  # n = 4096, B = 128, d = 64, fp16
    mem = v["memory"]
    assert (mem["full_text"], mem["tile_text"], mem["ratio_text"]) == \
        ("32.00 MiB", "32.00 KiB", "1,024")
    assert mem["tile_total"] == 128 * 128 * 2 + 3 * 128 * 64 * 2 + (2 * 128 + 128 * 64) * 4
    assert mem["square"]["tile"] == pytest.approx(150 * 128 / 4096, abs=0.006)
    big = compute("online-softmax", {"n": 131072, "block": 32, "dtype": "fp32"})["memory"]
    assert big["full_text"] == "64.00 GiB" and big["ratio_text"] == f"{(131072 // 32) ** 2:,}"
    assert big["square"]["tile"] == 1.5  # smaller than that is drawn as a visible dot
