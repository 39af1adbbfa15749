"""The two heads of the multi-head widget, checked with loops and the book's numbers."""
import math

import numpy as np
import pytest

from pycore import example, multihead as M
from tests.reference import pe, softmax_row


@pytest.fixture(scope="module")
def mh():
    return M.two_heads()


def test_head_a_is_the_semantic_head(mh):
    a = mh["heads"][0]
    # row of 它: scores 2/sqrt(6) for 小猫, 1/sqrt(6) for 马路, 0 elsewhere
    e2, e1 = math.exp(2 / math.sqrt(6)), math.exp(1 / math.sqrt(6))
    z = e2 + e1 + 7
    row = a["weights"][5]
    assert row[0] == pytest.approx(e2 / z) and row[0] == pytest.approx(0.2101, abs=5e-5)
    assert row[3] == pytest.approx(e1 / z) and row[3] == pytest.approx(0.1397, abs=5e-5)
    assert row[1] == pytest.approx(1 / z)


def test_head_b_looks_at_previous_token(mh):
    w = mh["heads"][1]["weights"]
    for i in range(1, 9):
        assert np.argmax(w[i]) == i - 1
        others = np.delete(w[i], i - 1)
        assert w[i, i - 1] > others.max() + 0.3  # a clear peak, not a near tie
        assert 0.79 < w[i, i - 1] < 0.89
    assert np.argmax(w[0]) == 0


def test_head_b_by_loops(mh):
    b = mh["heads"][1]
    x = example.EMBEDDINGS
    for i in range(9):
        s = [16 * float(pe(i - 1) @ pe(j)) / 4 for j in range(9)]  # 16 * q.k / sqrt(16)
        p = softmax_row(s)
        assert np.allclose(b["weights"][i], p)
        assert np.allclose(b["output"][i], sum(p[j] * x[j] for j in range(9)))


def test_head_b_ignores_the_words():
    other = np.random.default_rng(2).normal(size=(9, 6))
    assert np.allclose(M.two_heads(other)["heads"][1]["weights"],
                       M.two_heads()["heads"][1]["weights"])


def test_concat_and_output(mh):
    a, b = mh["heads"]
    assert mh["concat"].shape == (9, 12)
    assert np.array_equal(mh["concat"][:, :6], a["output"])
    assert np.array_equal(mh["concat"][:, 6:], b["output"])
    assert mh["w_o"].shape == (12, 6)
    for i in range(9):  # W_O = [I; I] / 2: the mean of the two heads, feature by feature
        for f in range(6):
            assert mh["output"][i, f] == pytest.approx((a["output"][i, f] + b["output"][i, f]) / 2)
    shapes = dict(mh["shapes"])
    assert shapes["Q_B"] == (9, 16) and shapes["K_A"] == (9, 6) and shapes["W_O"] == (12, 6)
    assert shapes["concat"] == (9, 12) and shapes["output"] == (9, 6)
