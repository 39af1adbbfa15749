"""Sampling stages against brute force and hand values; seeded counts against a chi-square test."""
import itertools
import math

import numpy as np
import pytest

from pycore import example, sampling as S

LOGITS = example.NEXT_LOGITS


def softmax_loop(z, t=1.0):
    e = [math.exp(x / t) for x in z]
    return [x / sum(e) for x in e]


def test_temperature_by_hand():
    out = S.pipeline([0.0, math.log(3.0)], temperature=1.0, tokens=["a", "b"])
    assert np.allclose(out["final"], [0.25, 0.75])
    out = S.pipeline([0.0, math.log(3.0)], temperature=0.5, tokens=["a", "b"])
    assert np.allclose(out["final"], [0.1, 0.9])  # 1 : 9
    out = S.pipeline(temperature=2.0)
    assert np.allclose(out["after_temperature"], softmax_loop(LOGITS, 2.0))


@pytest.mark.parametrize("k", [1, 3, 5, 9])
def test_top_k_keeps_exactly_k(k):
    out = S.pipeline(top_k=k)
    assert out["keep_top_k"].sum() == k
    assert out["kept"] == example.NEXT_TOKENS[:k]  # the logits are sorted already
    assert out["cut_by_top_k"] == example.NEXT_TOKENS[k:]
    p = softmax_loop(LOGITS)
    assert np.allclose(out["final"][:k], np.array(p[:k]) / sum(p[:k]))
    assert np.all(out["final"][k:] == 0)


def brute_force_nucleus(p, top_p):
    """Smallest set of indices with mass >= top_p; among equal sizes the largest mass."""
    best = None
    for size in range(1, len(p) + 1):
        for subset in itertools.combinations(range(len(p)), size):
            mass = sum(p[i] for i in subset)
            if mass >= top_p and (best is None or mass > best[1]):
                best = (set(subset), mass)
        if best is not None:
            return best[0]


@pytest.mark.parametrize("top_p", [0.05, 0.3, 0.5, 0.7, 0.9, 0.99])
def test_top_p_smallest_set(top_p):
    out = S.pipeline(temperature=1.3, top_p=top_p)
    p = softmax_loop(LOGITS, 1.3)
    expected = brute_force_nucleus(p, top_p)
    assert set(np.flatnonzero(out["keep_top_p"])) == expected
    kept_mass = sum(p[i] for i in expected)
    assert kept_mass >= top_p
    assert out["final"].sum() == pytest.approx(1.0)


def test_top_p_exact_boundary_and_off():
    keep = S.top_p_keep([0.25, 0.25, 0.25, 0.25], 0.5)
    assert keep.tolist() == [True, True, False, False]  # 0.5 reached with two tokens
    assert S.top_p_keep([0.2, 0.5, 0.3], 0.6).tolist() == [False, True, True]
    assert S.top_p_keep([0.2, 0.5, 0.3], 1.0).all()


def test_top_k_then_top_p_on_renormalised():
    out = S.pipeline(top_k=3, top_p=0.9)
    p = softmax_loop(LOGITS)[:3]
    p = [x / sum(p) for x in p]  # renormalised over 3: about 0.590, 0.265, 0.145
    assert p[0] + p[1] < 0.9  # so top-p keeps all three
    assert out["kept"] == ["累", "困", "饿"] and out["cut_by_top_p"] == []
    out = S.pipeline(top_k=3, top_p=0.5)
    assert out["kept"] == ["累"] and out["cut_by_top_p"] == ["困", "饿"]
    assert out["final"].tolist() == [1.0] + [0.0] * 9


def test_sample_recipe_by_hand():
    p = [0.1, 0.0, 0.6, 0.3]
    u = np.random.default_rng(42).random(200)
    by_hand = []
    for x in u:  # walk the cumulative sum
        acc, j = 0.0, 0
        while True:
            acc += p[j]
            if x < acc or j == len(p) - 1:
                break
            j += 1
        by_hand.append(j)
    assert S.sample(p, 200, seed=42).tolist() == by_hand
    assert S.sample_counts(p, 200, seed=42)[1] == 0


CHI2_999 = {9: 27.877, 4: 18.467}  # chi-square quantile 0.999 for 9 and 4 degrees of freedom


@pytest.mark.parametrize("settings,df", [({}, 9), ({"temperature": 0.7, "top_k": 5}, 4)])
def test_seeded_counts_chi_square(settings, df):
    probs = S.pipeline(**settings)["final"]
    n = 10_000
    counts = S.sample_counts(probs, n, seed=2024)
    assert counts.sum() == n
    nz = probs > 0
    assert np.all(counts[~nz] == 0)
    chi2 = sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts[nz], probs[nz]))
    assert chi2 < CHI2_999[df]
    assert np.array_equal(counts, S.sample_counts(probs, n, seed=2024))  # reproducible


# --- the widget's view: its panels of bars (pycore/widgets/sampling/__init__.py) -----------------

def test_sampling_view_draws_each_stage_on_one_unit_axis():
    from pycore.widgets import compute
    v = compute("sampling", {"top_k": 3})
    plot_x, plot_w = 40, 250 - 40 - 48  # the panels' label and value columns
    temp, topk, final = v["stages"]
    assert temp["plot"] == {"x": plot_x, "w": plot_w}
    # chapter 9's 0.480 for 累 at T = 1, and 0.590 after top-k = 3
    assert temp["rows"][0]["w"] == pytest.approx(0.480 * plot_w, abs=0.1)
    assert topk["rows"][0]["w"] == pytest.approx(0.590 * plot_w, abs=0.1)
    assert [r["cut"] for r in topk["rows"]] == [False] * 3 + [True] * 7
    # a cut token's ghost is its bar of the stage before; a kept one has none
    assert [r["gw"] for r in topk["rows"]] == [0] * 3 + [r["w"] for r in temp["rows"][3:]]
    assert [r["text"] for r in topk["rows"][2:4]] == ["0.145", "已截断"]
    assert [r["w"] for r in final["rows"]] == [r["w"] for r in topk["rows"]]  # top-p is off


def test_sampling_view_ticks_the_final_probability_among_the_draws():
    from pycore.widgets import compute
    v = compute("sampling", {"top_k": 2, "seed": 4, "draws": 100})
    rows = v["drawn"]["rows"]
    counts = S.sample_counts(v["p_final"], 100, 4)
    assert [r["text"] for r in rows] == [str(c) for c in counts] and sum(counts) == 100
    assert [r["w"] for r in rows] == [pytest.approx(c / 100 * 162, abs=0.01) for c in counts]
    assert [r["px"] for r in rows[:2]] == [pytest.approx(40 + p * 162, abs=0.01)
                                          for p in v["p_final"][:2]]
    assert rows[0]["say"].startswith(f"累：抽中 {counts[0]} 次")


def test_sampling_view_uses_the_temperature_it_shows():
    from pycore.widgets import compute
    # a log slider at 10^-0.3 = 0.5012 shows T = 0.50 and computes with 0.50 (chapter 9: 0.770)
    v = compute("sampling", {"temperature": 10 ** -0.3})
    assert v["temperature"] == 0.5 and round(v["p_temp"][0], 3) == 0.770
    assert v["titles"][0] == "① 温度 T = 0.50"


def test_a_live_view_carries_what_the_page_rebinds():
    from pycore.widgets import compute
    full = compute("sampling", {"top_k": 3, "seed": 2})
    live = compute("sampling", {"top_k": 3, "seed": 2, "live": True})
    for part in ("stages", "drawn"):
        panels = full[part] if part == "stages" else [full[part]]
        lean = live[part] if part == "stages" else [live[part]]
        for whole, light in zip(panels, lean):
            for row, small in zip(whole["rows"], light["rows"]):
                assert small == {k: row[k] for k in small} and "w" in small and "say" in small
    assert live["stages"][1]["rows"][5]["cut"] and "y" not in live["stages"][1]["rows"][5]
    assert {k: v for k, v in live.items() if k not in ("stages", "drawn")} == \
        {k: v for k, v in full.items() if k not in ("stages", "drawn")}
