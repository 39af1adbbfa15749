"""Chapter 13's exercises (pycore/exercises/backprop.py, bigram.py) and pycore.bigram, against
values computed here by hand or from the definitions: a loss written out in the test and
central differences of it, one step of the bigram loop worked out on paper, the count table
that gradient descent approaches."""
import collections
import dataclasses

import numpy as np
import pytest

from pycore import bigram
from pycore.exercises import check, checker, describe, get
from pycore.exercises.backprop import att_numerical, ce_numerical

HEADER = "import numpy as np\n\n"


def mean_cross_entropy(z, y):
    """-(1/N) sum log softmax(z_i)[y_i], written from its definition."""
    return float(np.mean([np.log(np.sum(np.exp(row - row.max()))) + row.max() - row[t]
                          for row, t in zip(z, y)]))


def causal_head(q, k, v):
    n = len(q)
    out = np.zeros((n, v.shape[1]))
    for i in range(n):  # query i over keys 0..i, one softmax per row
        s = k[:i + 1] @ q[i] / np.sqrt(q.shape[1])
        w = np.exp(s - s.max())
        out[i] = (w / w.sum()) @ v[:i + 1]
    return out


def central(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


# --- the references ------------------------------------------------------------------

def test_cross_entropy_gradient_by_hand():
    ref = get("cross-entropy-grad").reference
    z = np.array([[1.0, 2.0, 3.0]])
    p = np.exp(z[0]) / np.exp(z[0]).sum()
    np.testing.assert_allclose(ref(z, np.array([2])), [p - [0, 0, 1]], atol=1e-15)
    two = ref(np.array([[0.0, 0.0], [1.0, -1.0]]), np.array([0, 1]))
    s = 1 / (1 + np.exp(-2.0))  # softmax of (1, -1): (s, 1 - s)
    np.testing.assert_allclose(two, [[-0.25, 0.25], [s / 2, (1 - s - 1) / 2]], atol=1e-15)


def test_cross_entropy_reference_and_finite_differences_agree():
    rng = np.random.default_rng(5)
    z, y = rng.normal(0, 2, (4, 6)), rng.integers(0, 6, 4)
    by_difference = central(lambda a: mean_cross_entropy(a, y), z)
    np.testing.assert_allclose(get("cross-entropy-grad").reference(z, y), by_difference,
                               atol=1e-8)
    np.testing.assert_allclose(ce_numerical(z, y), by_difference, atol=1e-8)


def test_attention_backward_reference_and_finite_differences_agree():
    rng = np.random.default_rng(6)
    q, k, v, d_out = (rng.normal(size=s) for s in ((5, 3), (5, 3), (5, 2), (5, 2)))
    f = {"q": lambda a: np.sum(causal_head(a, k, v) * d_out),
         "k": lambda a: np.sum(causal_head(q, a, v) * d_out),
         "v": lambda a: np.sum(causal_head(q, k, a) * d_out)}
    expected = [central(f[n], x) for n, x in (("q", q), ("k", k), ("v", v))]
    for got in (get("attention-backward").reference(q, k, v, d_out), att_numerical(q, k, v, d_out)):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, atol=1e-7)
    np.testing.assert_allclose(expected[0][0], 0, atol=1e-8)  # query 0 has one key: no dq


def test_one_bigram_step_by_hand():
    # ids 0 1 0 1: positions (0->1), (1->0), (0->1); W = 0 gives p = (1/2, 1/2) everywhere,
    # so row 0 gets 2 * (1/2, -1/2) / 3 and row 1 gets (-1/2, 1/2) / 3; W = -1 * dW.
    W = bigram.train(np.array([0, 1, 0, 1]), 2, steps=1, lr=1.0)
    np.testing.assert_allclose(W, [[-1 / 3, 1 / 3], [1 / 6, -1 / 6]], atol=1e-15)
    assert bigram.loss(np.zeros((2, 2)), np.array([0, 1, 0, 1])) == pytest.approx(np.log(2))


def test_bigram_gradient_is_the_loss_s_derivative_and_training_approaches_the_counts():
    ids, vocab = bigram.encode()
    rng = np.random.default_rng(7)
    small = rng.integers(0, 5, 30)
    W = rng.normal(size=(5, 5))
    np.testing.assert_allclose(
        bigram.gradient(W, small),
        central(lambda a: mean_cross_entropy(a[small[:-1]], small[1:]), W), atol=1e-8)
    # the floor: conditional entropy of the counted pairs, from collections.Counter
    text = bigram.TEXT
    pairs, firsts = collections.Counter(zip(text, text[1:])), collections.Counter(text[:-1])
    floor = -sum(n * np.log(n / firsts[a]) for (a, _), n in pairs.items()) / (len(text) - 1)
    assert bigram.loss(bigram.counted(ids, len(vocab)), ids) == pytest.approx(floor, abs=1e-12)
    losses = [bigram.loss(bigram.train(ids, len(vocab), s), ids) for s in (0, 100, 2000)]
    assert losses[0] == pytest.approx(np.log(len(vocab)))
    assert losses[0] > losses[1] > losses[2] > floor and losses[2] - floor < 0.01


# --- the checks -------------------------------------------------------------------------

@pytest.mark.parametrize("exercise", ["cross-entropy-grad", "attention-backward"])
def test_random_cases_are_answered_by_finite_differences_not_by_pycore(exercise, monkeypatch):
    """With pycore's backward broken (its sign flipped) and the fixed cases left out (but one,
    answered by finite differences), the
    random cases still expect the true gradient: their answers come from the forward pass."""
    ex = get(exercise)
    right = ex.reference
    broken = lambda *a: tuple(-x for x in right(*a)) if ex.outputs else -right(*a)
    monkeypatch.setattr(ex, "reference", broken)
    numerical = {"cross-entropy-grad": ce_numerical, "attention-backward": att_numerical}
    first = dataclasses.replace(ex.fixed[0], hard=True, expect=numerical[exercise])
    monkeypatch.setattr(ex, "fixed", [first])  # the fixed cases expect pycore's answer
    monkeypatch.setattr(ex, "timing", None)
    assert check(exercise, ex.solution)["status"] == "passed"
    item = checker.prepare(ex, 0)[0]
    wrong = broken(*item["case"].copy_inputs())
    assert not np.allclose(np.asarray(item["expected"]), np.asarray(wrong))


def test_the_training_check_scores_the_returned_table_itself():
    ex = get("bigram-training")
    hard = [c for c in ex.fixed if c.hard][0]
    ids, vocab = bigram.encode()
    assert hard.run is not None and hard.inputs["steps"] == bigram.STEPS
    # the case's answer is the loss of the table on the poems, computed by the checker
    W = bigram.train(ids, len(vocab))
    assert hard.run(ex.reference, *hard.copy_inputs()) == pytest.approx(bigram.loss(W, ids))
    # a loop that trains on the poems whatever it is given fails on the checker's own texts
    memorised = HEADER + (
        "from pycore.exercises.bigram import reference as _r, POEM_IDS, POEM_VOCAB\n"
        "def train_bigram(ids, vocab_size, steps, lr):\n"
        "    return _r(POEM_IDS, len(POEM_VOCAB), 100, 50.0)\n")
    assert check("bigram-training", memorised)["status"] == "wrong_shape"
    # a right table for steps=100 that is right nowhere else: the small cases catch it
    fb = check("bigram-training", HEADER + "def train_bigram(ids, vocab_size, steps, lr):\n"
               "    return np.zeros((vocab_size, vocab_size))\n")
    assert fb["status"] == "wrong_value" and fb["case"]["number"] == 1


def test_a_loop_that_stops_early_is_told_where_and_the_stated_loss_is_the_trained_one():
    solution = describe("bigram-training")["solution"]
    early = solution.replace("for step in range(steps):", "for step in range(min(steps, 4)):")
    assert early != solution
    fb = check("bigram-training", early)
    assert fb["status"] == "wrong_value" and fb["case"]["name"] == "几步之后"
    ids, vocab = bigram.encode()
    stated = f"{bigram.loss(bigram.train(ids, len(vocab)), ids):.3f}"
    assert stated == "0.631"  # the number chapter 13 states (test_prose_numbers recomputes it)
    assert f"应当降到 {stated}" in get("bigram-training").statement
    assert f"降到 {stated}" in describe("bigram-training")["starter"]
