"""LayerNorm and RMSNorm against values worked out by hand and a loop version."""
import math

import numpy as np

from pycore import example, norms


def test_layer_norm_small_case_by_hand():
    # row [1, 2, 3, 4]: mean 2.5, biased variance 1.25
    y = norms.layer_norm([1.0, 2.0, 3.0, 4.0], eps=0.0)
    s = math.sqrt(1.25)
    assert np.allclose(y, [-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s])


def test_layer_norm_gamma_beta_and_eps():
    y = norms.layer_norm([[0.0, 2.0]], gamma=[2.0, 3.0], beta=[1.0, -1.0], eps=1.0)
    # mean 1, var 1, denominator sqrt(2)
    r = 1 / math.sqrt(2)
    assert np.allclose(y, [[1 - 2 * r, -1 + 3 * r]])


def test_layer_norm_rows_of_running_example():
    y = norms.layer_norm(example.EMBEDDINGS)
    for row in y:  # each row: mean 0, std close to 1 (eps makes it a hair smaller)
        mu = sum(row) / len(row)
        sd = math.sqrt(sum((a - mu) ** 2 for a in row) / len(row))
        assert abs(mu) < 1e-12
        assert 0.999 < sd <= 1.0
    mean, std = norms.row_stats(y)
    assert mean.shape == (9,) and np.allclose(mean, 0) and np.allclose(std, 1, atol=1e-3)


def test_layer_norm_constant_row_is_zero_not_nan():
    assert np.all(norms.layer_norm([[3.0, 3.0, 3.0]]) == 0)


def test_rms_norm_by_hand():
    # [3, 4]: mean of squares 12.5
    y = norms.rms_norm([3.0, 4.0], eps=0.0)
    assert np.allclose(y, [3 / math.sqrt(12.5), 4 / math.sqrt(12.5)])
    y = norms.rms_norm([[3.0, 4.0]], g=[2.0, 0.5], eps=0.0)
    assert np.allclose(y, [[6 / math.sqrt(12.5), 2 / math.sqrt(12.5)]])


def test_rms_norm_keeps_mean_unlike_layer_norm():
    x = np.array([[1.0, 2.0, 3.0]])
    r = norms.rms_norm(x, eps=0.0)
    assert r.mean() > 0  # not centred
    assert math.isclose(float(np.mean(r * r)), 1.0)  # unit root mean square
    assert not np.allclose(r, norms.layer_norm(x, eps=0.0))


def test_row_stats_loop():
    x = np.arange(12.0).reshape(3, 4) ** 1.5  # (3, 4)
    mean, std = norms.row_stats(x)
    for i, row in enumerate(x):
        mu = sum(row) / 4
        assert math.isclose(mean[i], mu)
        assert math.isclose(std[i], math.sqrt(sum((a - mu) ** 2 for a in row) / 4))
