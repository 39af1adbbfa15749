"""pycore.kernel_regression against a computation by hand and against its limits."""
import math

import numpy as np

from pycore import kernel_regression as kr


def test_weights_and_prediction_by_hand():
    # keys 0, 1, 2, values 1, 3, 5, query 0.5, width 1: the kernel is exp(-d^2 / 2) with
    # distances 0.5, 0.5, 1.5, i.e. exp(-0.125), exp(-0.125), exp(-1.125)
    e = [math.exp(-0.125), math.exp(-0.125), math.exp(-1.125)]
    total = sum(e)
    expected = [v / total for v in e]
    np.testing.assert_allclose(kr.weights(0.5, [0, 1, 2], 1.0)[0], expected, rtol=1e-12)
    assert abs(expected[0] - 0.4223) < 1e-4 and abs(expected[2] - 0.1554) < 1e-4
    f = kr.regress([0.5], [0, 1, 2], [1, 3, 5], 1.0)[0]
    assert abs(f - (1 * expected[0] + 3 * expected[1] + 5 * expected[2])) < 1e-12


def test_the_width_decides_between_nearest_neighbour_and_the_mean():
    x, y = kr.training_points()
    # very narrow: all the weight on the nearest training point
    q = 2.2
    nearest = int(np.argmin(abs(x - q)))
    assert kr.weights(q, x, 0.01)[0, nearest] > 0.999
    # very wide: every point weighs about the same, the prediction is the mean of the y
    assert abs(kr.regress([q], x, y, 1e3)[0] - y.mean()) < 1e-4
    # every row sums to one
    np.testing.assert_allclose(kr.weights(np.linspace(0, 6, 7), x, 0.5).sum(axis=1), 1.0)


def test_the_training_points():
    x, y = kr.training_points()
    assert len(x) == kr.N_POINTS and np.all(np.diff(x) > 0)
    assert kr.DOMAIN[0] <= x.min() and x.max() <= kr.DOMAIN[1]
    assert abs(kr.truth(0.0)) < 1e-12 and abs(kr.truth(2.0) - (math.sin(3.0) + 0.8)) < 1e-12
