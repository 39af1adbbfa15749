"""CLIP's contrastive matching (pycore/clip.py) against values worked out by hand."""
import math

import numpy as np
import pytest

from pycore.clip import contrastive, normalised
from pycore.widgets import clip_matrix


def test_two_orthogonal_pairs_by_hand():
    # cosines = I; each row and column: softmax of (1/tau, 0)
    m = contrastive([[2, 0], [0, 3]], [[1, 0], [0, 5]], tau=0.5)
    right = math.exp(2) / (math.exp(2) + 1)
    assert m["cos"] == pytest.approx(np.eye(2))
    assert m["image_to_text"] == pytest.approx(np.array([[right, 1 - right], [1 - right, right]]))
    assert m["loss_i2t"] == pytest.approx(math.log(1 + math.exp(-2)))
    assert m["loss"] == pytest.approx(math.log(1 + math.exp(-2)))


def test_the_two_directions_differ_when_the_matrix_is_not_symmetric():
    # images e1, e2; captions e1 and (e1 + e2)/sqrt 2: cos = [[1, r], [0, r]], r = 1/sqrt 2
    r = 1 / math.sqrt(2)
    m = contrastive([[1, 0], [0, 1]], [[1, 0], [1, 1]], tau=1.0)
    assert m["cos"] == pytest.approx(np.array([[1, r], [0, r]]))
    # rows: image 1 picks caption 1 among (1, r); image 2 picks caption 2 among (0, r)
    i2t = (-math.log(math.e / (math.e + math.exp(r))) - math.log(math.exp(r) / (1 + math.exp(r)))) / 2
    # columns: caption 1 picks image 1 among (1, 0); caption 2 picks image 2 among (r, r)
    t2i = (-math.log(math.e / (math.e + 1)) - math.log(0.5)) / 2
    assert m["loss_i2t"] == pytest.approx(i2t)
    assert m["loss_t2i"] == pytest.approx(t2i)
    assert m["loss"] == pytest.approx((i2t + t2i) / 2)
    assert np.sum(m["text_to_image"], axis=0) == pytest.approx([1, 1])


def test_length_does_not_matter_and_zero_rows_stay_zero():
    assert normalised([[3, 4], [0, 0]]) == pytest.approx(np.array([[0.6, 0.8], [0, 0]]))
    a = contrastive([[1, 2, 0], [0, 1, 1]], [[2, 1, 0], [0, 0, 1]], tau=0.3)
    b = contrastive([[10, 20, 0], [0, 0.5, 0.5]], [[2, 1, 0], [0, 0, 7]], tau=0.3)
    assert a["loss"] == pytest.approx(b["loss"])


def test_uniform_guess_costs_ln_n():
    # all cosines equal (every vector the same): each softmax is uniform, the loss ln n
    m = contrastive(np.ones((4, 3)), np.ones((4, 3)), tau=0.07)
    assert m["loss"] == pytest.approx(math.log(4))


def test_tau_must_be_positive():
    with pytest.raises(ValueError):
        contrastive([[1.0]], [[1.0]], tau=0)


def test_the_book_batch_reacts_to_a_wrong_caption():
    right, swap, edit = (clip_matrix.view(0.2, c) for c in ("right", "swap", "edit"))
    assert right["loss"] < edit["loss"] < swap["loss"]
    # swapping captions 1 and 5 swaps the columns of the cosines
    assert np.array(swap["cos"])[:, [4, 1, 2, 3, 0]] == pytest.approx(np.array(right["cos"]))
    assert swap["texts"][0] == right["texts"][4]
    # the picture: the value in a cell is the matrix's, its ink flips on the strong end
    cell = right["heat_i2t"]["cells"][0]
    assert cell["text"] == f"{right['image_to_text'][0][0]:.2f}" and cell["strong"] == (cell["c"] >= 6)
    assert [(f["x"], f["y"]) for f in right["heat_cos"]["frames"]] == \
        [(36 + 40 * i, 22 + 40 * i) for i in range(5)]
