"""The permutation widget's view over the reader's sentence (4 to 12 tokens): the shuffle of
any length, a `perm` made for another sentence, the outputs against attention written with
loops, and the picture's MAX_TOKENS slots against geometry worked out here."""
import math

import numpy as np
import pytest

from pycore import example
from pycore.example import MAX_TOKENS
from pycore.widgets import compute
from pycore.widgets.permutation import seeded_order
from tests.reference import semantic_attention
from tests.page_state import asked, held_after, laid_over

SHORT = ["小猫", "它", "累", "了"]
LONG = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了", "小狗", "饿", "它们"]
CELL, TOP = 22, 40  # the picture's cell and the height of its titles, as the widget draws


def perm_view(tokens, **params):
    return compute("permutation", {"seed": 1, "perm": [], "positions": False,
                                   "example": {"tokens": tokens}, **params})


def features(tokens):
    """X of a sentence from the book's table and the palette, looked up here."""
    rows = {t: list(r) for t, r in zip(example.TOKENS, example.EMBEDDINGS.tolist())}
    return np.array([rows[t] if t in rows else example.PALETTE[t][0] for t in tokens], float)


def pe_by_hand(n, d=6):
    return np.array([[math.sin(p * 10000 ** (-(k - k % 2) / d)) if k % 2 == 0 else
                      math.cos(p * 10000 ** (-(k - k % 2) / d)) for k in range(d)]
                     for p in range(n)])


def lcg_shuffle(seed, n):
    """The widget's shuffle written out again: 4 warm-up steps, then Fisher-Yates from the end
    with j = (state // 2^16) mod (i + 1)."""
    state, order = seed, list(range(n))
    for _ in range(4):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
    for i in range(n - 1, 0, -1):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
        j = (state // 65536) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("n", range(4, MAX_TOKENS + 1))
def test_the_shuffle_of_any_sentence_length(n):
    assert seeded_order(0, n) == list(range(n))
    orders = [seeded_order(s, n) for s in range(1, 300)]
    assert all(sorted(o) == list(range(n)) and o != list(range(n)) for o in orders)
    assert len({tuple(o) for o in orders}) > min(200, math.factorial(n) // 2)
    for seed in (1, 2, 77, 9999):
        by_hand = lcg_shuffle(seed, n)
        if by_hand == list(range(n)):  # the rule for a shuffle that moved nothing
            by_hand = by_hand[1:] + by_hand[:1]
        assert seeded_order(seed, n) == by_hand


def test_seed_1_of_four_tokens_by_hand():
    # states after the warm-up: 4 steps of s -> (1103515245 s + 12345) mod 2^31 from s = 1;
    # then i = 3, 2, 1 draw j = 0, 1, 0 (worked out with the steps below)
    s = 1
    for _ in range(4):
        s = (1103515245 * s + 12345) % 2 ** 31
    js = []
    for i in (3, 2, 1):
        s = (1103515245 * s + 12345) % 2 ** 31
        js.append((s >> 16) % (i + 1))
    order = [0, 1, 2, 3]
    for i, j in zip((3, 2, 1), js):
        order[i], order[j] = order[j], order[i]
    assert perm_view(SHORT)["perm"] == order
    assert perm_view(SHORT)["tokens"] == [SHORT[i] for i in order]


@pytest.mark.parametrize("tokens", [SHORT, LONG], ids=["4", "12"])
@pytest.mark.parametrize("positions", [False, True])
def test_outputs_over_the_sentence_equal_attention_with_loops(tokens, positions):
    n = len(tokens)
    perm = list(range(1, n)) + [0]  # rotate: the first token to the end
    view = perm_view(tokens, perm=perm, positions=positions)
    assert view["perm"] == perm and view["perm_note"] == "" and view["n"] == n
    x = features(tokens)
    pe = pe_by_hand(n) if positions else np.zeros((n, 6))
    original, shuffled = semantic_attention(x + pe), semantic_attention(x[perm] + pe)
    assert np.allclose(view["original"][:n], original)
    assert np.allclose(view["shuffled"][:n], shuffled)
    assert np.allclose(view["moved"][:n], original[perm])
    diff = np.abs(shuffled - original[perm]).max(axis=1)
    assert np.allclose(view["diff_per_slot"], diff)
    assert np.allclose([r[0] for r in view["diff_rows"][:n]], diff)
    # the tables keep MAX_TOKENS rows, zeros below the sentence
    for key in ("original", "shuffled", "moved", "diff_rows"):
        assert len(view[key]) == MAX_TOKENS and not np.any(view[key][n:])
    if positions:
        assert view["max_abs_diff"] > 0.01 and view["n_changed"] == int((diff > 1e-9).sum())
    else:
        assert view["max_abs_diff"] < 1e-12 and view["n_changed"] == 0


@pytest.mark.parametrize("perm, why", [
    ([0, 1, 2, 3, 4, 5, 6, 7, 8], "nine entries: an order of the book's sentence"),
    ([0, 1, 2], "too short"),
    ([0, 1, 1, 2], "a token twice"),
    ([0, 1, 2, 9], "a token the sentence does not have"),
    ([0, 1.5, 2, 3], "not a whole number"),
])
def test_a_perm_of_another_sentence_falls_back_to_the_seed(perm, why):
    view = perm_view(SHORT, seed=3, perm=perm)
    assert view["perm"] == seeded_order(3, 4), why
    shown = "[" + ", ".join(f"{p:g}" for p in perm) + "]"
    assert view["perm_note"] == (f"给定的顺序 perm = {shown} 不是这句话 4 个词的排列"
                                 "（0 到 3 各出现一次），所以按种子 3 打乱。")
    assert perm_view(SHORT, seed=0, perm=perm)["perm"] == [0, 1, 2, 3]
    assert "保持原顺序" in perm_view(SHORT, seed=0, perm=perm)["perm_note"]


def test_a_perm_of_this_sentence_is_used():
    assert perm_view(SHORT, perm=[3, 2, 1, 0])["tokens"] == ["了", "累", "它", "小猫"]
    view = compute("permutation", {"seed": 1, "perm": list(range(8, -1, -1)),
                                   "positions": False})
    assert view["tokens"] == example.TOKENS[::-1] and view["perm_note"] == ""


@pytest.mark.parametrize("tokens", [SHORT, example.TOKENS, LONG], ids=["4", "9", "12"])
def test_the_picture_fills_max_tokens_slots(tokens):
    n = len(tokens)
    view = perm_view(tokens, seed=5)
    fig, perm = view["fig"], view["perm"]
    width = 36 + 6 * CELL + 48 + 6 * CELL + 36  # labels, heatmap, gap, heatmap, labels
    assert fig["viewbox"] == f"0 0 {width} {TOP + n * CELL}"
    assert fig["row_hidden"] == [s >= n for s in range(MAX_TOKENS)]
    assert [s["label"] for s in view["slots"]] == \
        [tokens[i] for i in perm] + [""] * (MAX_TOKENS - n)
    assert [s["label"] for s in view["sentence_slots"]] == tokens + [""] * (MAX_TOKENS - n)
    assert fig["slot_tokens"] == [str(i) for i in perm] + [""] * (MAX_TOKENS - n)
    links = fig["links"]
    assert len(links) == MAX_TOKENS
    for i, link in enumerate(links):
        if i < n:  # from old row i at the first heatmap's right edge to its new slot's row
            s = perm.index(i)
            y0, y1 = TOP + CELL * i + CELL / 2, TOP + CELL * s + CELL / 2
            start, *_, end = link["d"][1:].split(" ")
            assert [float(a) for a in start.split(",")] == [36 + 6 * CELL + 3, y0]
            assert [float(a) for a in end.split(",")] == [36 + 6 * CELL + 48 - 3, y1]
            assert not link["hidden"]
        else:
            assert link["hidden"]
    before, after = np.array(fig["before"]["c"]), np.array(fig["after"]["c"])
    assert before.shape == after.shape == (MAX_TOKENS, 6)
    for s in range(n):  # without positions each new row is the token's old row, moved
        assert (after[s] == before[perm[s]]).all()
        assert fig["after"]["say"][s][1] == \
            f"{tokens[perm[s]]} → 有生命：{view['shuffled'][s][1]:.4f}"
    assert all(say == "" for row in fig["before"]["say"][n:] for say in row)
    assert (before[n:] == 4).all()  # the spare cells: the diverging map's zero, hidden


def test_a_new_order_brings_back_only_what_it_changes():
    """Reorderings, the positions switch and another sentence, each view asked as a page
    holding the parts of the last one and laid over it: the whole view; a new order on the
    same sentence and positions leaves the original outputs and the first heatmap's places
    and readouts out (not its colours: the scale is both heatmaps')."""
    four = {"tokens": ["小狗", "汽车", "它", "饿"]}
    moves = [({"seed": 2}, None), ({"seed": 3}, None),
             ({"perm": [8, 7, 6, 5, 4, 3, 2, 1, 0]}, None),
             ({"seed": 3, "positions": True}, None), ({"seed": 4, "positions": True}, None),
             ({"seed": 4}, None), ({"seed": 5}, four), ({"seed": 6}, four)]
    page, held, before = compute("permutation", {}), held_after("permutation", {}), (None, False)
    lean = 0
    for params, ex in moves:
        ask = {**params, **({"example": ex} if ex else {})}
        whole = compute("permutation", ask)
        part, sent = asked("permutation", ask, held)
        page = laid_over(page, part)
        assert {k: page[k] for k in whole} == whole, params
        unmoved = before == (ex, whole["positions"])
        assert ("say" in part["fig"]["before"]) == (not unmoved) == ("original" in part), params
        assert "c" in part["fig"]["before"], params
        lean += unmoved
        held, before = {**held, **sent}, (ex, whole["positions"])
    assert lean == 5  # seeds 2, 3, the perm, seed 4 with positions, seed 6 of the short sentence
