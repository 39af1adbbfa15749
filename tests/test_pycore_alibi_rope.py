"""ALiBi and RoPE on the 它 row against slopes, penalties, rotations and softmaxes worked out
by hand."""
import math
from fractions import Fraction

import numpy as np
import pytest

from pycore import alibi_rope as R

A = 1 / math.sqrt(6)
PLAIN = [2 * A, 0, 0, A, 0, 0, 0, 0, 0]  # the 它 row's scores: 小猫, ..., 马路, ...


def softmax(z):
    e = [math.exp(t - max(z)) for t in z]
    return [t / sum(e) for t in e]


def test_slopes_of_eight_heads():
    slopes = R.head_penalties(8)["slopes"]
    assert [Fraction(s) for s in slopes] == [Fraction(1, 2 ** h) for h in range(1, 9)]
    assert R.head_penalties(8)["one_logit"].tolist() == [2, 4, 8, 16, 32, 64, 128, 256]
    assert R.head_penalties(8)["half_weight"][0] == pytest.approx(2 * math.log(2))
    assert round(R.head_penalties(8)["half_weight"][-1]) == 177


def test_penalty_is_linear_in_distance():
    p = R.head_penalties(8, max_distance=20)
    for h, m in enumerate(p["slopes"]):
        assert p["penalty"][h].tolist() == [-m * d for d in range(21)]
        assert np.allclose(np.diff(p["penalty"][h]), -m)  # the same cost for every extra step
    for head in (1, 4, 8):
        row = R.alibi_row(head=head)
        m = 2.0 ** -head
        assert row["bias"].tolist() == pytest.approx([-m * abs(5 - j) for j in range(9)])


def test_zero_slope_leaves_the_row_unchanged():
    row = R.alibi_row(slope=0.0)
    assert np.allclose(row["weights_after"], softmax(PLAIN))
    assert np.allclose(row["weights_after"], row["weights_before"])
    assert [round(w, 4) for w in row["weights_after"][[0, 3, 1]]] == [0.2101, 0.1397, 0.0929]


def test_heads_by_hand():
    for head, top in ((1, "它"), (2, "它"), (3, "小猫"), (8, "小猫")):
        m = 2.0 ** -head
        expected = softmax([s - m * abs(5 - j) for j, s in enumerate(PLAIN)])
        row = R.alibi_row(head=head)
        assert np.allclose(row["weights_after"], expected)
        assert row["top_after"] == top and row["top_before"] == "小猫"
    h3, h1, h8 = (R.alibi_row(head=h)["weights_after"] for h in (3, 1, 8))
    assert (round(h3[0], 3), round(h3[3], 3)) == (0.153, 0.148)
    assert (round(h1[5], 3), round(h1[0], 3)) == (0.256, 0.048)
    assert round(h8[0], 3) == 0.208
    assert np.allclose(R.alibi_rows()[2], h3)
    # 小猫 stays on top while 2A - 5m > A - 2m, i.e. m < A / 3 = 0.136
    assert A / 3 == pytest.approx(0.136, abs=5e-4)
    assert R.alibi_row(slope=A / 3 - 1e-3)["top_after"] == "小猫"
    assert R.alibi_row(slope=A / 3 + 1e-3)["top_after"] == "马路"


def test_causal_alibi():
    row = R.alibi_row(head=2, causal=True)
    assert np.all(row["weights_after"][6:] == 0)
    expected = softmax([s - abs(5 - j) / 4 for j, s in enumerate(PLAIN[:6])])
    assert np.allclose(row["weights_after"][:6], expected)
    assert np.allclose(R.alibi_row(slope=0.0, causal=True)["weights_after"][:6],
                       softmax(PLAIN[:6]))


def test_all_heads_at_once_by_hand():
    both = R.alibi_heads()
    assert both["weights_before"] == pytest.approx(softmax(PLAIN))
    for head in range(1, 9):
        m = 2.0 ** -head
        logits = [s - m * abs(5 - j) for j, s in enumerate(PLAIN)]
        assert both["bias"][head - 1].tolist() == pytest.approx([-m * abs(5 - j)
                                                                 for j in range(9)])
        assert both["logits"][head - 1].tolist() == pytest.approx(logits)
        assert both["weights_after"][head - 1].tolist() == pytest.approx(softmax(logits))
    causal = R.alibi_heads(causal=True)
    assert np.all(causal["weights_after"][:, 6:] == 0) and np.all(causal["bias"][:, 6:] == -np.inf)
    assert causal["weights_after"][1, :6].tolist() == \
        pytest.approx(softmax([s - abs(5 - j) / 4 for j, s in enumerate(PLAIN[:6])]))
    assert causal["weights_before"][:6].tolist() == pytest.approx(softmax(PLAIN[:6]))


def test_rope_by_hand():
    row = R.rope_row()
    # only the first pair (实体, 有生命) is non-zero for the query [1 1] and for 小猫, 马路;
    # it turns by 1 radian per position: q at 5, 小猫 at 0 (offset 5), 马路 at 3 (offset 2)
    def turn(v, a):
        return (v[0] * math.cos(a) - v[1] * math.sin(a), v[0] * math.sin(a) + v[1] * math.cos(a))
    q = turn((1, 1), 5)
    cat, road = turn((1, 1), 0), turn((1, 0), 3)
    dot = lambda a, b: a[0] * b[0] + a[1] * b[1]
    assert row["scores_rotated"][0] == pytest.approx(dot(q, cat) * A)
    assert row["scores_rotated"][0] == pytest.approx(2 * math.cos(5) * A)
    assert row["scores_rotated"][3] == pytest.approx((math.cos(2) - math.sin(2)) * A)
    scores = [2 * math.cos(5) * A, 0, 0, (math.cos(2) - math.sin(2)) * A, 0, 0, 0, 0, 0]
    assert np.allclose(row["weights_after"], softmax(scores))
    assert [round(w, 3) for w in row["weights_after"][[0, 3, 1]]] == [0.143, 0.066, 0.113]
    assert row["top_after"] == "小猫"
    assert round(R.rope_row(theta=0.1)["weights_after"][0], 3) == 0.196


def test_rope_depends_on_offsets_only():
    for theta in (None, 0.3):
        base = R.rope_row(theta=theta)["weights_after"]
        for offset in (1, 7, 100):
            moved = R.rope_row(theta=theta, offset=offset)["weights_after"]
            assert np.allclose(moved, base, atol=1e-12)
    assert np.allclose(R.rope_row(theta=0.0)["weights_after"], softmax(PLAIN))
    causal = R.rope_row(causal=True)
    assert np.all(causal["weights_after"][6:] == 0) and causal["weights_after"].sum() == \
        pytest.approx(1)


def test_bad_inputs():
    with pytest.raises(ValueError, match="exactly one of head"):
        R.alibi_row()
    with pytest.raises(ValueError, match="exactly one of head"):
        R.alibi_row(head=1, slope=0.5)
    with pytest.raises(ValueError, match="head must be between 1 and 8"):
        R.alibi_row(head=9)
    with pytest.raises(ValueError, match="query must be one of"):
        R.rope_row("狗")


# --- the widget's view (pycore/widgets/alibi_rope/__init__.py) -----------------------------------

def test_alibi_rope_view_by_hand():
    """Both heatmaps and the three rows of bars, against math.exp over the scores by hand."""
    from pycore.widgets import compute
    v = compute("alibi-rope", {"query": "它", "head": 2, "theta": 0.5, "causal": False})
    s = [2 * A if j == 0 else A if j == 3 else 0.0 for j in range(9)]  # 它's scores
    for cell in v["penalty"]["cells"]:
        assert cell["v"] == pytest.approx(-abs(5 - cell["j"]) / 2 ** (cell["i"] + 1))
    for h in range(8):
        e = [math.exp(s[j] - abs(5 - j) / 2 ** (h + 1)) for j in range(9)]
        row = [c["v"] for c in v["weights"]["cells"] if c["i"] == h]
        assert row == pytest.approx([x / sum(e) for x in e])
    assert v["penalty"]["row_band"]["y"] == v["penalty"]["label_h"] + v["penalty"]["cell"]
    assert v["penalty"]["col_band"]["x"] == v["penalty"]["label_w"] + 5 * v["penalty"]["cell"]
    # RoPE at theta 0.5: key j turned by 0.5 (j - 5) against q = (1, 1) in pair 0
    rs = [(2 * math.cos(0.5 * (5 - j)) if j == 0 else
           (math.cos(0.5 * (5 - j)) - math.sin(0.5 * (5 - j))) if j == 3 else 0.0) * A
          for j in range(9)]
    e = [math.exp(x) for x in rs]
    assert v["w_rope"] == pytest.approx([x / sum(e) for x in e])
    # bars: one axis for the three rows, a bar as tall as its weight
    top = v["charts"][0]["top"]
    assert all(c["top"] == top for c in v["charts"]) and top >= max(v["w_before"])
    for chart, w in zip(v["charts"], (v["w_before"], v["w_alibi"], v["w_rope"])):
        plot_h = chart["baseline"] - 16
        for bar, x in zip(chart["bars"], w):
            assert bar["h"] == pytest.approx(x / top * plot_h, abs=0.01)
    # m = 1/4 > 1 / (3 sqrt 6): 小猫 loses its lead, and at distance 0 它 itself wins
    assert v["best"]["alibi"] == {"token": "它", "w": pytest.approx(v["w_alibi"][5])}
    assert v["half_weight"] == pytest.approx(4 * math.log(2))


def test_alibi_rope_view_causal():
    from pycore.widgets import compute
    v = compute("alibi-rope", {"query": "它", "head": 3, "causal": True})
    masked = [c for c in v["weights"]["cells"] if c["masked"]]
    assert sorted({c["j"] for c in masked}) == [6, 7, 8] and len(masked) == 24
    assert v["w_alibi"][6:] == [0.0] * 3 and v["mask_text"][6:] == ["挡住"] * 3
    assert [round(v["w_alibi"][j], 3) for j in (0, 3)] == [0.218, 0.211]  # chapter 6
    assert all(math.isfinite(x) for x in v["bias"])  # a masked entry shows 0, not -inf


def test_a_live_view_leaves_out_the_heatmaps_the_page_shows():
    from pycore.widgets import compute
    from tests.page_state import asked, held_after
    ask = {"query": "它", "head": 6, "theta": 0.4, "causal": True, "live": True}
    whole = compute("alibi-rope", ask)
    same, sent = asked("alibi-rope", ask, held_after("alibi-rope", {**ask, "head": 2}))
    assert set(sent) == {"frame", "charts"}
    full = compute("alibi-rope", {k: v for k, v in ask.items() if k != "live"})
    for key in ("penalty", "weights"):  # only the frame, on the sixth head's row
        assert same[key] == {"row_band": whole[key]["row_band"]}
        assert same[key]["row_band"]["y"] == full[key]["label_h"] + 5 * full[key]["cell"]
    assert all(same[k] == whole[k] for k in same if k not in ("penalty", "weights", "best"))
    assert same["best"] == {"alibi": whole["best"]["alibi"]}
    for held in ({"query": "太"}, {"causal": False}):
        part, sent = asked("alibi-rope", ask, held_after("alibi-rope", {**ask, **held}))
        assert part == whole and set(sent) == {"heads", "frame", "rope", "charts"}

