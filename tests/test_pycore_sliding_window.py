"""pycore/sliding_window.py against values worked out by hand: the window mask, the weights
with the window (the causal softmax over the keys left, by hand), and the receptive field
found by following the mask layer by layer against the formula: position i at the last of L
layers hears positions i - (L - l) w .. i at layer l."""
import numpy as np
import pytest

from pycore.sliding_window import reach, window_attention, window_mask


def test_the_mask_by_hand():
    assert window_mask(5, 2).astype(int).tolist() == [
        [1, 0, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [1, 1, 1, 0, 0],
        [0, 1, 1, 1, 0],
        [0, 0, 1, 1, 1]]
    # a window as long as the sentence is the causal mask
    assert np.array_equal(window_mask(6, 5), np.tril(np.ones((6, 6), bool)))


def test_weights_renormalise_over_the_window():
    q = np.array([[0.0], [0.0], [1.0]])
    k = np.array([[5.0], [1.0], [2.0]])
    w = window_attention(q, k, 1)
    # row 2 sees keys 1 and 2 only: scores 1 and 2 (d_k = 1)
    assert w[2, 0] == 0 and w[2, 1:] == pytest.approx([1 / (1 + np.e), np.e / (1 + np.e)])
    assert w[0].tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("n,w,layers,query", [(9, 2, 2, 5), (9, 2, 3, 5), (9, 1, 4, 8),
                                              (12, 3, 2, 11), (9, 5, 1, 5)])
def test_reach_is_layers_times_w(n, w, layers, query):
    lit = reach(n, w, layers, query)
    assert lit.shape == (layers + 1, n)
    for level in range(layers + 1):
        back = (layers - level) * w
        expected = [max(0, query - back) <= j <= query for j in range(n)]
        assert lit[level].tolist() == expected
