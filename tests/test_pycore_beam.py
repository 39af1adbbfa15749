"""Beam search against greedy decoding and exhaustive search, written out in the test with its
own probabilities (math.exp over the table's rows), and seeded sampling against its recipe."""
import itertools
import math

import numpy as np
import pytest

from pycore import beam as B, example

V = B.VOCAB


def probs(prev, table=None, temperature=1.0):
    """Next-token probabilities after `prev`, from B.ROWS (or a dense table) by hand."""
    if table is not None:
        row = {V[j]: table[V.index(prev)][j] for j in range(len(V))}
    else:
        row = B.ROWS.get(prev, {})
    e = {t: math.exp(z / temperature) for t, z in row.items() if z != -math.inf}
    total = sum(e.values())
    return {t: x / total for t, x in e.items()}


def greedy_by_hand(max_new):
    cur, out = B.PROMPT[-1], []
    for _ in range(max_new):
        p = probs(cur)
        cur = max(sorted(p, key=V.index), key=lambda t: p[t])  # first of equals in VOCAB order
        out.append(cur)
        if cur == B.EOS:
            break
    return out


def exhaustive(max_new, alpha, table=None):
    """Every sentence: ended by 。 within max_new tokens, or max_new tokens long."""
    best = None
    def walk(prefix, logp, cur):
        nonlocal best
        for tok, p in probs(cur, table).items():
            seq, lp = prefix + [tok], logp + math.log(p)
            if tok == B.EOS or len(seq) == max_new:
                s = lp / len(seq) ** alpha
                if best is None or s > best[0] + 1e-12:
                    best = (s, seq, lp)
            else:
                walk(seq, lp, tok)
    walk([], 0.0, B.PROMPT[-1])
    return best


def test_first_row_is_the_sampling_chapter():
    lp = B.log_probs()
    row = np.exp(lp[V.index("太")])
    e = np.exp(example.NEXT_LOGITS)
    assert np.allclose(row[:10], e / e.sum()) and np.all(row[10:] == 0)
    assert np.allclose(np.exp(lp[:-1]).sum(axis=1), 1.0)  # every row but 。 sums to 1


@pytest.mark.parametrize("max_new", [1, 2, 5, 12])
def test_width_one_is_greedy(max_new):
    expected = greedy_by_hand(max_new)
    assert B.greedy(max_new)["tokens"] == expected
    assert B.beam_search(width=1, max_new=max_new, alpha=0.0)["steps"][-1]["beams"][0]["tokens"] \
        == expected
    assert B.beam_search(width=1, max_new=max_new, alpha=1.0)["best"]["tokens"] == expected


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("max_new", [1, 2, 3, 4, 5, 6, 7])
def test_beam_finds_the_exhaustive_best(alpha, max_new):
    s, seq, lp = exhaustive(max_new, alpha)
    for width in (3, 4):
        best = B.beam_search(width, max_new, alpha)["best"]
        assert best["tokens"] == seq and best["logp"] == pytest.approx(lp)
        assert best["score"] == pytest.approx(s)


def test_unpruned_beam_is_exhaustive_on_random_tables():
    rng = np.random.default_rng(0)
    for trial in range(3):
        table = rng.normal(0, 2, size=(len(V), len(V)))
        for alpha in (0.0, 1.0):
            s, seq, lp = exhaustive(3, alpha, table.tolist())
            best = B.beam_search(len(V) ** 3, 3, alpha, table=table)["best"]
            assert best["tokens"] == seq and best["logp"] == pytest.approx(lp)


def test_the_numbers_of_the_chapter():
    p_tired, p_le, p_end = probs("太")["累"], probs("累")["了"], probs("了")[B.EOS]
    assert (round(p_tired, 3), round(p_le, 3), round(p_end, 3)) == (0.480, 0.736, 0.401)
    loop = "累 了 ， 它 太 累 了 ， 它 太 累 了".split()
    loop_lp = sum(math.log(probs(a)[b]) for a, b in zip(["太"] + loop, loop))
    for width in (1, 2, 3, 5):
        best = B.beam_search(width, 12, alpha=1.0)["best"]
        assert best["tokens"] == loop and best["logp"] == pytest.approx(loop_lp)
    assert round(loop_lp, 2) == -6.53 and round(loop_lp / 12, 3) == -0.544
    assert B.repeated_ngrams(loop) == 5
    short = B.beam_search(3, 12, alpha=0.0)["best"]
    assert short["tokens"] == ["累", "了", B.EOS] and short["finished"]
    assert short["logp"] == pytest.approx(math.log(p_tired * p_le * p_end))
    assert round(short["logp"], 2) == -1.95


def test_beam_bookkeeping():
    run = B.beam_search(3, 12, alpha=1.0)
    lp = B.log_probs()
    for st in run["steps"]:
        assert 1 <= len(st["beams"]) <= 3
        logps = [b["logp"] for b in st["beams"]]
        assert logps == sorted(logps, reverse=True)
        for hyp in st["beams"] + st["finished"]:
            assert len(hyp["tokens"]) == st["step"]
            ids = [V.index(t) for t in [B.PROMPT[-1]] + hyp["tokens"]]
            assert hyp["logp"] == pytest.approx(sum(lp[a, b] for a, b in zip(ids, ids[1:])))
        assert all(h["tokens"][-1] == B.EOS for h in st["finished"])
        assert all(h["tokens"][-1] != B.EOS for h in st["beams"])


def sample_by_hand(seed, max_new=12, temperature=1.0):
    """The recipe of pycore.sampling, one draw per step from default_rng([seed, step])."""
    cur, out = B.PROMPT[-1], []
    for step in range(max_new):
        p = probs(cur, temperature=temperature)
        toks = sorted(p, key=V.index)
        c = np.cumsum([p[t] for t in toks])
        u = np.random.default_rng([seed, step]).random()
        cur = toks[int(np.searchsorted(c / c[-1], u, side="right"))]
        out.append(cur)
        if cur == B.EOS:
            break
    return out


def test_sampling_follows_the_seeded_recipe():
    for seed in range(40):
        assert B.sample_sentence(seed)["tokens"] == sample_by_hand(seed)
        assert B.sample_sentence(seed, temperature=0.7)["tokens"] == \
            sample_by_hand(seed, temperature=0.7)
    assert B.sample_sentence(3, top_k=1)["tokens"] == greedy_by_hand(12)  # top-1 is greedy
    share = B.repeat_share(1000)
    by_hand = [sample_by_hand(s) for s in range(1000)]
    assert share["repeated"] == sum(B.repeated_ngrams(t) > 0 for t in by_hand) / 1000
    assert share["repeated"] == 0.147 and share["ended"] == 0.789  # the module docstring's


def test_repeated_ngrams_by_hand():
    assert B.repeated_ngrams(list("abcabc"), 3) == 1  # abc again; bca and cab are new
    assert B.repeated_ngrams(list("aaaa"), 2) == 2
    assert B.repeated_ngrams(list("ab"), 3) == 0


def test_bad_inputs():
    with pytest.raises(ValueError, match="width and max_new must be >= 1"):
        B.beam_search(0)


# --- the widget's view: the lattice, the ranking, the samples (pycore/widgets/beam_search/) ---

def beam_view(**changes):
    from pycore.widgets import compute
    params = {"width": 3, "alpha": 1.0, "max_new": 12, "temperature": 1.0, "seed": 0}
    params.update(changes)
    return compute("beam-search", params)


def test_beam_view_joins_every_node_to_the_beam_it_grew_from():
    from pycore.widgets import beam_search as W
    v = beam_view(width=4)
    lat, run = v["lattice"], B.beam_search(4, 12, 1.0)
    bottom = {(): (lat["start"]["x"] + W.NODE_W / 2, lat["start"]["y"] + W.NODE_H)}
    for st in run["steps"]:
        for k in range(W.MAX_WIDTH):
            node = lat["nodes"][(st["step"] - 1) * W.MAX_WIDTH + k]
            assert node["off"] == (k >= len(st["beams"]))
            if node["off"]:
                continue
            hyp = tuple(st["beams"][k]["tokens"])
            assert node["x"] == W.LEFT + k * W.COL + 3  # the grid: a column per rank
            assert node["y"] == W.TOP + (st["step"] - 1) * W.ROW + 5
            x1, y1 = bottom[hyp[:-1]]  # the parent's bottom centre (by its tokens)
            e = node  # its edge: from the parent's bottom to its own top
            assert (e["x1"], e["y1"]) == (x1, y1)
            assert (e["x2"], e["y2"]) == (node["x"] + 29, node["y"])
            assert node["token"] == hyp[-1]
        bottom.update({tuple(b["tokens"]): (W.LEFT + k * W.COL + 32,
                                            W.TOP + (st["step"] - 1) * W.ROW + 27)
                       for k, b in enumerate(st["beams"])})
    # the answer's path: one node per step, its last 5 tokens close a repeated trigram
    assert sum(n["best"] for n in lat["nodes"]) == 12
    assert [n["token"] for n in lat["nodes"] if n["rep"]] == list("，它太累了")
    assert lat["box"] == f"0 0 {W.LEFT + 4 * W.COL + W.FIN_GAP + W.COL + 6} {lat['height']}"


def test_beam_view_ranking_by_hand():
    """The chapter's ranking at width 3: scores worked out from the table's probabilities."""
    v = beam_view()
    rows = [r for r in v["ranking"]["rows"] if not r["off"]]
    by_hand = []
    for r in rows:
        toks = r["sentence"].split()
        lp = sum(math.log(probs(a)[b]) for a, b in zip([B.PROMPT[-1]] + toks, toks))
        by_hand.append(lp / len(toks))
    assert [float(r["text"]) for r in rows] == [round(s, 3) for s in by_hand]
    assert by_hand == sorted(by_hand, reverse=True)
    assert [r["text"] for r in rows] == ["-0.544", "-0.556", "-0.590", "-0.592", "-0.651"]
    assert rows[4]["sentence"] == "累 了 。" and rows[4]["ended"]  # the chapter's fifth
    lo, zero, left = float(v["ranking"]["lo"]), v["ranking"]["zero"], v["ranking"]["left"]
    assert lo == -0.8
    for r, s in zip(rows, by_hand):  # a bar's length is its score on the axis lo .. 0
        assert abs(r["w"] - s / lo * (zero - left)) < 0.01 and abs(r["x"] + r["w"] - zero) < 0.01
    assert beam_view(alpha=0.0)["best"]["sentence"] == "累 了 。"
    assert round(beam_view(alpha=0.5)["best"]["score"], 3) == round(-1.953 / math.sqrt(3), 3)


def test_beam_view_ties_keep_the_candidates_order():
    """At width 5 two sentences hold the same transitions in another order: equal scores in
    exact arithmetic, whatever the last bits say; the beam keeps them in candidate order."""
    v = beam_view(width=5)
    a, b = v["ranking"]["rows"][1:3]
    assert a["text"] == b["text"] == "-0.556"
    assert sorted([a["sentence"], b["sentence"]]) == sorted(
        ["累 了 ， 它 想 睡 了 ， 它 太 累 了", "累 了 ， 它 太 累 了 ， 它 想 睡 了"])
    assert B.tie(-6.6731234567891) == B.tie(-6.6731234567893)


def test_beam_view_samples_and_the_chapter_figures():
    v = beam_view()
    for k, s in enumerate(v["samples"]):
        assert s["sentence"].split() == sample_by_hand(k)
        assert [c["t"] for c in s["chips"] if not c["off"]] == sample_by_hand(k)
    assert round(v["sample_per_token"], 3) == -0.770 and v["sample_repeats"] == 1
    assert v["summary"] == B.repeat_share(1000)
    hot = [sample_by_hand(s, temperature=0.5) for s in range(1000)]
    assert sum(B.repeated_ngrams(t) > 0 for t in hot) / 1000 == 0.292  # chapter 9
    assert B.repeat_share(1000, temperature=2.0)["repeated"] == 0.104
    assert "summary" not in beam_view(live=True)


def test_the_transitions_chapter_9_quotes():
    """The table's rows, by hand (math.exp over ROWS): the loop 太 累 了 ， 它 太 is made of
    each row's most probable token, and the sampling summary's mean length."""
    quoted = {("累", "了"): 0.736, ("累", "，"): 0.164, ("累", B.EOS): 0.100,
              ("了", "，"): 0.599, ("了", B.EOS): 0.401, ("，", "它"): 0.507,
              ("它", "太"): 0.599}
    for (a, b), p in quoted.items():
        assert round(probs(a)[b], 3) == p
    for a, b in zip("太 累 了 ， 它".split(), "累 了 ， 它 太".split()):
        assert max(probs(a), key=probs(a).get) == b
    assert round(B.repeat_share(1000)["mean_length"], 1) == 6.7


def test_a_live_view_brings_only_the_parts_a_move_changes():
    """The beam depends on width, length and alpha, the samples on seed, temperature and
    length: the view of the last parameters updated with what a move brings is the whole one."""
    from pycore.widgets import compute
    from tests.page_state import asked, held_after
    before = {"width": 3, "alpha": 1.0, "max_new": 12, "temperature": 1.0, "seed": 0,
              "live": True}
    old, held = compute("beam-search", before), held_after("beam-search", before)
    for change, beam, samples in [({"temperature": 1.7}, False, True), ({"seed": 4}, False, True),
                                  ({"width": 5}, True, False), ({"alpha": 0.0}, True, False),
                                  ({"max_new": 9}, True, True), ({}, False, False)]:
        now = {**before, **change}
        part, _ = asked("beam-search", now, held)
        assert ("lattice" in part) == beam and ("samples" in part) == samples, change
        assert {**old, **part} == compute("beam-search", now), change
    assert "summary" not in old and "summary" in compute("beam-search", {**before, "live": False})
