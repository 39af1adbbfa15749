"""pycore.linear: the row-by-row product Pyodide uses is x @ w, checked against plain loops
over the entries (and for any number of leading axes, as the model's (B, T, D) streams)."""
import numpy as np

from pycore import linear


def test_by_rows_is_the_matrix_product_by_loops():
    rng = np.random.default_rng(0)
    x, w = rng.normal(size=(2, 3, 5)), rng.normal(size=(5, 4))
    by_hand = np.array([[[sum(x[b, t, d] * w[d, e] for d in range(5)) for e in range(4)]
                         for t in range(3)] for b in range(2)])
    np.testing.assert_allclose(linear.by_rows(x, w), by_hand, atol=1e-12)
    np.testing.assert_allclose(linear.by_rows(x[0, 0], w), by_hand[0, 0], atol=1e-12)
    np.testing.assert_allclose(linear.linear(x, w), by_hand, atol=1e-12)
