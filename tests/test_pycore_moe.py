"""pycore/moe.py against values worked out by hand: the router's softmax and top-k, the gates,
the load per expert, the Switch load-balance loss, and a mixture-of-experts model's total and
active parameters against the dense count of pycore/params.py plus the extra experts."""
import math

import numpy as np
import pytest

from pycore import moe, params

# Two features, two experts: x = (1, 0) gives the logits (0, ln 3), so p = (1/4, 3/4);
# x = (0, 1) gives (ln 2, 0), so p = (2/3, 1/3).
W = np.array([[0.0, math.log(3)], [math.log(2), 0.0]])
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])


def test_router_probabilities_and_top1():
    probs, chosen, gates = moe.route(X, W, k=1)
    assert np.allclose(probs, [[1 / 4, 3 / 4], [2 / 3, 1 / 3], [1 / 4, 3 / 4]])
    assert chosen.tolist() == [[1], [0], [1]]
    assert np.allclose(gates, 1.0)  # one expert: its gate is the whole


def test_temperature_divides_the_logits():
    probs, _, _ = moe.route(X[:1], W, k=1, temperature=2.0)
    # logits (0, ln 3) / 2: p is proportional to (1, sqrt 3)
    assert np.allclose(probs[0], [1 / (1 + math.sqrt(3)), math.sqrt(3) / (1 + math.sqrt(3))])


def test_top2_gates_renormalise_the_chosen_probabilities():
    w = np.log([[0.5, 0.3, 0.2]])
    probs, chosen, gates = moe.route([[1.0]], w, k=2)
    assert chosen.tolist() == [[0, 1]]
    assert np.allclose(gates, [[0.625, 0.375]])  # 0.5 / 0.8 and 0.3 / 0.8


def test_a_tie_goes_to_the_lower_expert():
    _, chosen, gates = moe.route([[1.0]], np.zeros((1, 4)), k=2)
    assert chosen.tolist() == [[0, 1]] and np.allclose(gates, 0.5)


def test_load_and_the_switch_loss_by_hand():
    probs, chosen, _ = moe.route(X, W, k=1)
    assert moe.load(chosen, 2).tolist() == [1, 2]
    loss, f, p = moe.balance_loss(probs, chosen)
    assert np.allclose(f, [1 / 3, 2 / 3])
    assert np.allclose(p, [7 / 18, 11 / 18])       # (1/4 + 2/3 + 1/4) / 3, (3/4 + 1/3 + 3/4) / 3
    assert loss == pytest.approx(2 * (1 / 3 * 7 / 18 + 2 / 3 * 11 / 18))  # = 29/27


def test_the_loss_is_one_when_balanced_and_near_e_when_collapsed():
    uniform = np.full((4, 4), 0.25)
    assert moe.balance_loss(uniform, np.array([[0], [1], [2], [3]]))[0] == pytest.approx(1.0)
    # every token sure of expert 0: f = (1, 0, 0, 0), P = (0.97, 0.01, ...): loss 4 * 0.97
    sure = np.tile([0.97, 0.01, 0.01, 0.01], (5, 1))
    assert moe.balance_loss(sure, np.zeros((5, 1), int))[0] == pytest.approx(3.88)


def test_router_columns_stay_when_experts_are_added():
    a = moe.router_weights(3, 6, 8)
    assert np.array_equal(a, moe.router_weights(3, 6, 8)) and a.shape == (6, 8)
    assert not np.array_equal(a, moe.router_weights(4, 6, 8))


MIXTRAL = {"d_model": 4096, "n_layers": 32, "vocab": 32000, "d_ff": 14336, "n_heads": 32,
           "n_kv_heads": 8}


def test_sizes_are_the_dense_count_plus_the_other_experts_and_the_router():
    dense = params.count(**MIXTRAL, mlp="swiglu", bias=False, norm="rmsnorm", tied=False)
    expert = 3 * 4096 * 14336
    s = moe.sizes(**MIXTRAL, experts=8, k=2)
    assert s["total"] == dense["total"] + 32 * (7 * expert + 4096 * 8)
    assert s["active"] == dense["total"] + 32 * (1 * expert + 4096 * 8)
    assert s["total"] == 46_702_792_704 and s["active"] == 12_879_925_248
    # the Mixtral paper's rounded figures: 47B stored, 13B used per token
    assert round(s["total"] / 1e9) == 47 and round(s["active"] / 1e9) == 13
    assert moe.sizes(**MIXTRAL, experts=8, k=8)["active"] == s["total"]
