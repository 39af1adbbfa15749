"""softmax, vectors and attention against values worked out by hand."""
import math

import numpy as np
import pytest

from pycore import example
from pycore.attention import attention, causal_mask
from pycore.softmax import entropy, softmax
from pycore.vectors import angle_degrees, cosine, dot, norm


# --- softmax -------------------------------------------------------------------------------

def test_softmax_by_hand():
    # e^1 / (e^1 + e^0) for [1, 0]
    assert softmax([1.0, 0.0]) == pytest.approx([math.e / (math.e + 1), 1 / (math.e + 1)])


def test_softmax_is_invariant_to_shifts_and_survives_huge_logits():
    z = np.array([2.0, 1.0, 0.5, 0.0, -1.0])
    assert softmax(z + 1000.0) == pytest.approx(softmax(z))
    assert softmax([1e308, 0.0]) == pytest.approx([1.0, 0.0])


def test_temperature_limits():
    z = [2.0, 1.0, 0.5]
    assert softmax(z, temperature=1e-3) == pytest.approx([1.0, 0.0, 0.0])  # T -> 0: one-hot
    assert softmax(z, temperature=1e6) == pytest.approx([1 / 3] * 3, abs=1e-6)  # T large: uniform
    # T = 2 equals softmax of z/2, written out
    e = np.exp(np.array(z) / 2)
    assert softmax(z, temperature=2) == pytest.approx(e / e.sum())


def test_entropy_by_hand():
    assert entropy([0.5, 0.5]) == pytest.approx(math.log(2))
    assert entropy([1.0, 0.0]) == 0.0


# --- vectors ---------------------------------------------------------------------------------

def test_dot_norm_angle():
    assert dot([3, 1], [1, 2]) == 5.0
    assert norm([3, 4]) == 5.0
    assert angle_degrees([1, 0], [0, 2]) == pytest.approx(90.0)  # perpendicular: dot 0
    assert angle_degrees([1, 1], [-2, -2]) == pytest.approx(180.0)  # opposite: dot < 0
    assert cosine([3, 1], [1, 2]) == pytest.approx(5 / (math.sqrt(10) * math.sqrt(5)))
    assert angle_degrees([0, 0], [1, 1]) == 0.0 and cosine([0, 0], [1, 1]) == 0.0


# --- attention -------------------------------------------------------------------------------

def semantic_qkv():
    w_q, w_k, w_v = example.semantic_head()
    x = example.EMBEDDINGS
    return x @ w_q, x @ w_k, x @ w_v


def test_the_pronoun_row_of_the_running_example():
    # 它 asks for [1 1 0 0 0 0]: score 2/sqrt6 with 小猫, 1/sqrt6 with 马路, 0 with the rest.
    weights, out, scores = attention(*semantic_qkv())
    a, b = math.exp(2 / math.sqrt(6)), math.exp(1 / math.sqrt(6))
    total = a + b + 7
    row = weights[example.TOKENS.index("它")]
    assert row[0] == pytest.approx(a / total) and round(row[0], 4) == 0.2101
    assert row[3] == pytest.approx(b / total) and round(row[3], 4) == 0.1397
    assert row[1] == pytest.approx(1 / total) and round(row[1], 4) == 0.0929
    assert scores[5, 0] == pytest.approx(2 / math.sqrt(6))


def test_six_times_the_logits_saturates():
    weights, _, _ = attention(*semantic_qkv(), scale=6.0)
    row = weights[5]
    a, b = math.exp(12 / math.sqrt(6)), math.exp(6 / math.sqrt(6))
    assert row[0] == pytest.approx(a / (a + b + 7))
    assert [round(row[0], 3), round(row[3], 3), round(row[1], 3)] == [0.878, 0.076, 0.007]


def test_causal_rows_sum_to_one_with_zeros_above_the_diagonal():
    weights, _, _ = attention(*semantic_qkv(), causal=True)
    assert np.allclose(weights.sum(axis=1), 1.0)
    assert np.all(weights[np.triu_indices(9, k=1)] == 0.0)
    assert weights[0, 0] == 1.0  # the first token can only see itself
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]


def test_output_is_the_weighted_mean_of_values():
    q, k, v = semantic_qkv()
    weights, out, _ = attention(q, k, v)
    i = 5
    by_loop = sum(weights[i, j] * v[j] for j in range(9))
    assert out[i] == pytest.approx(by_loop)
