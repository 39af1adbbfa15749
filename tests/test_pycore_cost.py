"""Attention cost numbers worked out by hand."""
import numpy as np

from pycore import cost


def test_small_n_by_hand():
    c = cost.attention_cost(9)
    assert c["scores_per_head"] == 81 and c["bytes_per_head"] == 162
    assert c["rnn_sequential_steps"] == 9 and c["attention_sequential_steps"] == 1
    c = cost.attention_cost(1024, n_heads=12, d_model=768)
    assert c["bytes_per_head"] == 2 * 1024 * 1024 == 2_097_152
    assert c["bytes_all_heads"] == 12 * 2_097_152
    assert c["attention_madds"] == 2 * 1024 ** 2 * 768
    assert c["rnn_madds"] == 1024 * 2 * 768 ** 2


def test_one_million_tokens():
    c = cost.attention_cost(1_000_000)
    assert c["scores_per_head"] == 10 ** 12
    assert c["bytes_per_head"] == 2 * 10 ** 12  # 2 TB for one fp16 score matrix
    assert cost.human_bytes(c["bytes_per_head"]) == "2.00 TB"
    assert c["rnn_sequential_steps"] == 10 ** 6


def test_curve_and_formatting():
    s, b, r = cost.cost_curve([1, 10, 1000])
    assert s.tolist() == [1, 100, 1e6] and b.tolist() == [2, 200, 2e6] and r.tolist() == [1, 10, 1000]
    assert np.all(s / r == [1, 10, 1000])  # the gap grows like n
    assert cost.human_bytes(162) == "162 B"
    assert cost.human_bytes(2_097_152) == "2.10 MB"
    assert cost.human_bytes(32 * 10 ** 9) == "32.00 GB"
