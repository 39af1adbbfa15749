"""The encoder layer against a from-scratch loop version of both layouts."""
import math

import numpy as np
import pytest

from pycore import encoder, example
from tests.reference import pe, softmax_row

X = example.EMBEDDINGS


def ln_rows(m, eps=1e-5):
    out = []
    for row in m:
        mu = sum(row) / len(row)
        var = sum((a - mu) ** 2 for a in row) / len(row)
        out.append([(a - mu) / math.sqrt(var + eps) for a in row])
    return np.array(out)


def mha_loops(x):
    """Head A (semantic) and head B (previous token), then the mean of the two."""
    n, d = x.shape
    q_a = x.copy()  # W_Q = I except the pronoun row [1 1 0 0 0 0]:
    q_a[:, 0] += x[:, 5]
    q_a[:, 1] += x[:, 5]
    q_a[:, 5] = 0
    out = np.zeros((n, d))
    for i in range(n):
        pa = softmax_row([float(q_a[i] @ x[j]) / math.sqrt(d) for j in range(n)])
        pb = softmax_row([4 * float(pe(i - 1) @ pe(j)) for j in range(n)])
        for j in range(n):
            out[i] += 0.5 * (pa[j] + pb[j]) * x[j]  # both heads have V = x
    return out


def ffn_loops(h, w):
    hid = np.maximum(h @ w["w1"] + w["b1"], 0)
    return hid @ w["w2"] + w["b2"]


def test_ffn_weights_are_the_documented_seed():
    w = encoder.ffn_weights()
    rng = np.random.default_rng(7)
    assert np.array_equal(w["w1"], rng.normal(0, 1 / math.sqrt(6), size=(6, 24)))
    assert np.array_equal(w["w2"], rng.normal(0, 1 / math.sqrt(24), size=(24, 6)))


def test_post_ln_by_hand():
    steps = encoder.encoder_steps("post")
    w = encoder.ffn_weights()
    a = mha_loops(X)
    h = ln_rows(X + a)
    y = ln_rows(h + ffn_loops(h, w))
    got = {s["key"]: s["matrix"] for s in steps}
    assert [s["key"] for s in steps] == ["x", "mha", "add1", "ln1", "ffn", "add2", "ln2"]
    assert np.allclose(got["mha"], a) and np.allclose(got["ln1"], h) and np.allclose(got["ln2"], y)
    assert all(s["matrix"].shape == (9, 6) for s in steps)


def test_pre_ln_by_hand():
    steps = encoder.encoder_steps("pre")
    w = encoder.ffn_weights()
    r = X + mha_loops(ln_rows(X))
    out = r + ffn_loops(ln_rows(r), w)
    got = {s["key"]: s["matrix"] for s in steps}
    assert [s["key"] for s in steps] == ["x", "ln1", "mha", "add1", "ln2", "ffn", "add2",
                                         "ln_final"]
    assert np.allclose(got["add1"], r) and np.allclose(got["add2"], out)
    assert np.allclose(got["ln_final"], ln_rows(out))
    assert encoder.encoder_steps("pre", final_ln=False)[-1]["key"] == "add2"


@pytest.mark.parametrize("layout", encoder.LAYOUTS)
def test_rows_after_layer_norm(layout):
    for s in encoder.encoder_steps(layout):
        m = s["matrix"]
        assert np.allclose(s["row_mean"], [sum(r) / 6 for r in m])
        if s["kind"] == "norm":
            assert np.all(np.abs(s["row_mean"]) < 1e-12)
            assert np.all(np.abs(s["row_std"] - 1) < 1e-3)


def test_semantic_only_and_errors():
    steps = encoder.encoder_steps("post", attention="semantic")
    a = steps[1]["matrix"]
    # row of 它 = weighted mean of rows with the book's weights
    e2, e1 = math.exp(2 / math.sqrt(6)), math.exp(1 / math.sqrt(6))
    assert a[5, 1] == pytest.approx(e2 / (e2 + e1 + 7))  # only 小猫 is animate
    with pytest.raises(ValueError):
        encoder.encoder_steps("middle")
    with pytest.raises(ValueError):
        encoder.encoder_steps(attention="three-head")


# --- the reader's sentence: any n from 4 to 12 tokens ---------------------------------------

SHORT = ["小狗", "它", "很", "饿"]  # palette tokens around 它: n = 4
LONG = ["小猫", "没有", "过", "马路", "和", "小狗", "因为", "它", "太", "饿", "了", "它们"]


def x_of(tokens):
    return example.sentence_embeddings(example.checked_example({"tokens": tokens}))


def test_a_four_token_sentence_by_hand():
    """小狗 (1,1,0,0,0,0), 它 (0,0,0,0,0,1), 很 (0,0,0,1,0,0), 饿 (0,0,0,0,1,0)."""
    x = x_of(SHORT)
    assert x.shape == (4, 6)
    pre = {s["key"]: s["matrix"] for s in encoder.encoder_steps("pre", x=x)}
    assert all(m.shape == (4, 6) for m in pre.values())
    # LN of a one-hot row: mean 1/6, variance 5/36, so the 1 becomes (5/6) / (sqrt(5)/6) =
    # sqrt(5) and each 0 becomes -1/sqrt(5) (eps = 1e-5 shrinks them a hair)
    s = math.sqrt(5 / 36 + 1e-5)
    assert pre["ln1"][2] == pytest.approx([-1 / 6 / s] * 3 + [5 / 6 / s] + [-1 / 6 / s] * 2)
    assert pre["ln1"][2][3] == pytest.approx(math.sqrt(5), abs=1e-4)
    # head A alone: 它 asks for 实体 + 有生命, which only 小狗 has: its score is 2 / sqrt(6),
    # the other three 0; the output row mixes the four rows with those weights
    a = encoder.encoder_steps("post", x=x, attention="semantic")[1]["matrix"]
    e = math.exp(2 / math.sqrt(6))
    w_dog, w_rest = e / (e + 3), 1 / (e + 3)
    assert a[1] == pytest.approx([w_dog, w_dog, 0, w_rest, w_rest, w_rest])
    assert w_dog == pytest.approx(0.4299, abs=1e-4)  # e^0.8165 = 2.2626; 2.2626 / 5.2626


@pytest.mark.parametrize("tokens", [SHORT, LONG], ids=["n=4", "n=12"])
def test_a_sentence_through_both_layouts_by_loops(tokens):
    x, w = x_of(tokens), encoder.ffn_weights()
    n = len(tokens)
    post = {s["key"]: s["matrix"] for s in encoder.encoder_steps("post", x=x)}
    h = ln_rows(x + mha_loops(x))
    assert np.allclose(post["ln1"], h)
    assert np.allclose(post["ln2"], ln_rows(h + ffn_loops(h, w)))
    pre = {s["key"]: s["matrix"] for s in encoder.encoder_steps("pre", x=x)}
    r = x + mha_loops(ln_rows(x))
    assert np.allclose(pre["add1"], r)
    assert np.allclose(pre["add2"], r + ffn_loops(ln_rows(r), w))
    assert all(m.shape == (n, 6) for m in [*post.values(), *pre.values()])
