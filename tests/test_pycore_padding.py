"""Padding masks against attention on each sentence alone, written as plain loops, and the
effect of leaving the mask out against values worked by hand."""
import math
import random

import numpy as np
import pytest

from pycore import example, padding as P

E1, E2 = math.exp(1 / math.sqrt(6)), math.exp(2 / math.sqrt(6))


def loop_attention(tokens, causal):
    """The semantic head on one unpadded sentence, query by query, with math and lists."""
    vec = dict(zip(example.TOKENS, example.EMBEDDINGS.tolist()))
    xs = [vec[t] for t in tokens]
    qs = [x[:5] + [0.0] for x in xs]  # W_Q = I except the pronoun row...
    for q, x in zip(qs, xs):
        q[0] += x[5]  # ...which becomes [1 1 0 0 0 0]
        q[1] += x[5]
    weights, outs = [], []
    for i, q in enumerate(qs):
        keys = range(i + 1) if causal else range(len(xs))
        s = [sum(a * b for a, b in zip(q, xs[j])) / math.sqrt(6) for j in keys]
        e = [math.exp(t - max(s)) for t in s]
        w = [t / sum(e) for t in e]
        weights.append(w + [0.0] * (len(xs) - len(w)))
        outs.append([sum(w[n] * xs[j][c] for n, j in enumerate(keys)) for c in range(6)])
    return np.array(weights), np.array(outs)


def test_masks_by_hand():
    real = np.array([[True, True, True], [True, False, False]])
    assert P.padding_mask(real)[1].tolist() == [[True, False, False]] * 3
    assert P.causal_mask(3).tolist() == [[True, False, False], [True, True, False],
                                         [True, True, True]]
    assert P.combined_mask(real)[0].tolist() == P.causal_mask(3).tolist()
    assert P.combined_mask(real)[1].tolist() == [[True, False, False]] * 3
    left = P.pad_batch([["小猫", "累"], ["累"]], side="left")
    assert left["tokens"] == [["小猫", "累"], [P.PAD, "累"]]
    assert left["real"].tolist() == [[True, True], [False, True]]
    assert np.all(left["x"][1, 0] == 0) and np.all(left["x"][1, 1] == left["x"][0, 1])


@pytest.mark.parametrize("side", P.SIDES)
@pytest.mark.parametrize("causal", [False, True])
def test_with_the_mask_each_sentence_is_computed_as_if_alone(side, causal):
    rng = random.Random(3)
    batches = [[example.TOKENS, P.SHORT]]
    batches += [[[rng.choice(example.TOKENS) for _ in range(rng.randint(1, 9))]
                 for _ in range(3)] for _ in range(5)]
    for sentences in batches:
        v = P.batch_view(sentences, side=side, causal=causal)
        for b, s in enumerate(sentences):
            cols = np.flatnonzero(v["real"][b])
            w, out = loop_attention(s, causal)
            assert np.allclose(v["weights"][b][np.ix_(cols, cols)], w, atol=1e-12)
            assert np.allclose(v["outputs"][b][cols], out, atol=1e-12)
            assert np.all(v["weights"][b][np.ix_(cols, ~v["real"][b])] == 0)  # no pad weight
            assert v["effect"][b]["max_diff_from_alone"] < 1e-12
        assert np.all(np.isfinite(v["weights"])) and np.all(np.isfinite(v["outputs"]))


def test_without_the_mask_by_hand():
    v = P.batch_view()  # right padding, no causal mask
    short = 1
    assert v["tokens"][short] == P.SHORT + [P.PAD] * 5
    assert v["weights"][short][0, 0] == pytest.approx(E2 / (E2 + 3))  # 0.430
    assert v["weights_unmasked"][short][0, 0] == pytest.approx(E2 / (E2 + 8))  # 0.220
    assert round(E2 / (E2 + 3), 3) == 0.430 and round(E2 / (E2 + 8), 3) == 0.220
    eff = v["effect"][short]
    assert eff["pad_weight"][0] == pytest.approx(5 / (E2 + 8))  # 0.487
    assert eff["pad_weight"][2] == pytest.approx(5 / (E1 + 8))  # 累 scores only itself
    # 太 (row 1): its function-word feature, from 太 and 了
    assert v["outputs"][short][1, 3] == pytest.approx(2 * E1 / (2 * E1 + 2))  # 0.601
    assert v["outputs_unmasked"][short][1, 3] == pytest.approx(2 * E1 / (2 * E1 + 7))  # 0.301
    assert eff["max_output_change"] == pytest.approx(2 * E1 / (2 * E1 + 2) - 2 * E1 / (2 * E1 + 7))
    assert eff["max_weight_change"] == pytest.approx(E2 / (E2 + 3) - E2 / (E2 + 8))
    # the longest sentence has no pads: nothing changes
    assert v["effect"][0]["max_weight_change"] == 0 and v["effect"][0]["max_output_change"] == 0


def test_right_padding_with_a_causal_mask_hides_the_pads_already():
    right = P.batch_view(side="right", causal=True)["effect"][1]
    assert right["max_weight_change"] == 0 and right["max_output_change"] == 0
    left = P.batch_view(side="left", causal=True)
    eff = left["effect"][1]
    # left pads come first: 小猫 (column 5) sees the 5 pads and itself, without the mask
    assert eff["pad_weight"][0] == pytest.approx(5 / (E2 + 5))
    assert eff["max_output_change"] > 0.5
    # a left pad under the causal mask has nothing to look at: a row of zeros, no NaN
    assert np.all(left["weights"][1][0] == 0) and np.all(left["outputs"][1][0] == 0)


def test_bad_inputs():
    with pytest.raises(ValueError, match="unknown tokens"):
        P.batch_view([["小狗", "累"]])
    with pytest.raises(ValueError, match="side must be one of"):
        P.pad_batch([P.SHORT], side="middle")
    with pytest.raises(ValueError, match="at least one token"):
        P.pad_batch([P.SHORT, []])
