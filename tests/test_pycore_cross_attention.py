"""Cross-attention of the translation example against rows worked by hand and the alignment
an English reader expects."""
import math

import numpy as np
import pytest

from pycore import cross_attention as X

A = 6 / math.sqrt(10)  # the logit of a score of 1

EXPECTED = {  # English word -> the Chinese word it translates (or, for "the", its noun's)
    "the": None, "cat": "小猫", "did": "没有", "not": "没有", "cross": "过", "road": "马路",
    "because": "因为", "it": "它", "was": "了", "too": "太", "tired": "累", "<eos>": "了",
}


def test_shapes_and_rows():
    r = X.cross_attention()
    assert r["queries"].shape == (13, 10) and r["keys"].shape == (9, 10)
    assert r["weights"].shape == (13, 9)  # target words x source words: not square
    assert np.allclose(r["weights"].sum(axis=1), 1.0)
    assert np.all(r["weights"] > 0)  # no mask: every source word is visible at every step
    assert np.allclose(r["outputs"], r["weights"] @ r["values"])


def test_rows_by_hand():
    r = X.cross_attention()
    cat = r["weights"][X.TARGET.index("cat")]
    z = math.exp(2 * A) + math.exp(A) + 7
    assert cat[0] == pytest.approx(math.exp(2 * A) / z)  # 小猫
    assert cat[3] == pytest.approx(math.exp(A) / z)  # 马路
    assert np.allclose(np.delete(cat, [0, 3]), 1 / z)
    assert (round(cat[0], 3), round(cat[3], 3), round(cat[1], 3)) == (0.765, 0.115, 0.017)
    not_ = r["weights"][X.TARGET.index("not")]
    z = math.exp(2 * A) + 3 * math.exp(A) + 5
    assert not_[1] == pytest.approx(math.exp(2 * A) / z)  # 没有
    assert np.allclose(not_[[4, 6, 8]], math.exp(A) / z)  # 因为, 太, 了
    assert round(not_[1], 3) == 0.640 and round(not_[4], 3) == 0.096
    # the keys by hand: 没有 = function word + negation; 小猫 = entity + animate
    assert r["keys"][1].tolist() == [0, 0, 0, 1, 0, 0, 1, 0, 0, 0]
    assert r["keys"][0].tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]


def test_alignment_argmax():
    r = X.cross_attention()
    for i, (word, aligned) in enumerate(zip(X.TARGET, r["aligned"])):
        expected = EXPECTED[word] or EXPECTED[X.TARGET[i + 1]]
        assert aligned == expected, (i, word)
    assert r["aligned"][0] == "小猫" and r["aligned"][5] == "马路"  # the two articles


def test_decoder_steps_match_the_matrix():
    r = X.cross_attention()
    for i in range(len(X.TARGET)):
        step = X.decoder_step(i)
        assert step["inputs"] == [X.BOS] + X.TARGET[:i] and step["writes"] == X.TARGET[i]
        assert len(step["self_keys"]) == i + 1 and len(step["cross_keys"]) == 9
        assert np.allclose(step["weights"], r["weights"][i])
        assert step["attended"] == r["aligned"][i]
    # a sharper or flatter scale keeps the argmax but changes the peak
    assert X.decoder_step(1, scale=1.0)["attended_weight"] < X.decoder_step(1)["attended_weight"]
    assert X.decoder_step(1, scale=1.0)["attended"] == "小猫"


def test_bad_inputs():
    with pytest.raises(ValueError, match="step must be between 0 and 12"):
        X.decoder_step(13)
    with pytest.raises(ValueError, match="no query for 'dog'"):
        X.cross_attention(target=["the", "dog"])
