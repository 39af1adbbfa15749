"""pycore.gpt.poem_inside against computations that do not go through it: layer 0's attention
and the lens's first row worked out from the weights by the formulas (LayerNorm, QKᵀ/√d,
the causal mask, softmax), the lens's last row against poem_run.next_char, an ablated head
against its rows of W_O zeroed, and the attention profile against plain loops."""
import numpy as np
import pytest

from pycore.gpt import model, poem_inside, poem_run

TEXT = "白日依山尽，黄河入海流。"


@pytest.fixture(scope="module")
def committed():
    params, cfg, record = poem_run.poem_model()
    return params, cfg, record["vocab"]


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def softmax_rows(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_layer_0_attention_by_the_formula(committed):
    params, cfg, vocab = committed
    ids = [vocab.index(c) for c in TEXT]
    T, H = len(ids), cfg["n_heads"]
    dh = cfg["d_model"] // H
    x = params["tok_emb"][ids] + params["pos_emb"][:T]
    h = layer_norm(x, params["layers.0.ln1.gamma"], params["layers.0.ln1.beta"])
    q, k = h @ params["layers.0.attn.w_q"], h @ params["layers.0.attn.w_k"]
    weights = poem_inside.inside(TEXT)["weights"][0]  # (H, T, T)
    for head in range(H):
        cols = slice(head * dh, (head + 1) * dh)
        scores = q[:, cols] @ k[:, cols].T / np.sqrt(dh)
        scores[np.triu_indices(T, 1)] = -np.inf  # a query never sees a later character
        np.testing.assert_allclose(weights[head], softmax_rows(scores), atol=1e-10)


def test_every_head_is_causal_and_its_rows_sum_to_one():
    w = poem_inside.inside(TEXT)["weights"]
    assert w.shape == (3, 4, len(TEXT), len(TEXT))
    assert np.all(np.triu(w, 1) == 0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)


def test_the_lens_first_row_by_hand_and_last_row_is_the_models_output(committed):
    params, _, vocab = committed
    lens = poem_inside.inside(TEXT)["lens"]
    assert lens.shape == (4, len(vocab))
    x = params["tok_emb"][vocab.index(TEXT[-1])] + params["pos_emb"][len(TEXT) - 1]
    z = layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"]) @ params["tok_emb"].T
    np.testing.assert_allclose(lens[0], softmax_rows(z), atol=1e-12)
    np.testing.assert_allclose(lens[-1], poem_run.next_char(TEXT)["probs"], atol=1e-12)


def test_the_lens_at_an_earlier_position_is_that_prefix_output():
    # causal: the stream at position 4 is what the model computes for the first 5 characters
    np.testing.assert_allclose(poem_inside.inside(TEXT, position=4)["lens"][-1],
                               poem_run.next_char(TEXT[:5])["probs"], atol=1e-10)


def test_the_lens_at_every_position_ends_in_that_prefix_output_and_ignores_what_follows(
        committed):
    """At every position the last stream's lens is the model's own next-character
    distribution after the text up to there (next_char, a forward pass of its own), and every
    stream's lens there is the same whatever characters follow (causality): the text cut after
    the position, and the text with different characters after it, give the same rows."""
    params, _, _ = committed
    out = poem_inside.inside(TEXT)
    other = "白日依山尽，" + "明月照我还。"  # the same first 6 characters, then others
    assert other[:6] == TEXT[:6] and other[6:] != TEXT[6:]
    changed = poem_inside.inside(other)["streams"]
    for i in range(len(TEXT)):
        rows = poem_inside.lens(params, out["streams"][:, i])  # (L + 1, V)
        np.testing.assert_allclose(rows, poem_inside.inside(TEXT, position=i)["lens"], atol=0)
        np.testing.assert_allclose(rows[-1], poem_run.next_char(TEXT[:i + 1])["probs"],
                                   atol=1e-10)
        np.testing.assert_allclose(rows, poem_inside.inside(TEXT[:i + 1])["lens"], atol=1e-10)
        if i < 6:
            np.testing.assert_allclose(poem_inside.lens(params, changed[:, i]), rows,
                                       atol=1e-10)
    # and a later character does change a later position's lens (the check above can fail)
    assert np.abs(poem_inside.lens(params, changed[:, 8]) -
                  poem_inside.lens(params, out["streams"][:, 8])).max() > 1e-3


def test_the_loss_with_nothing_off_is_the_recorded_perplexity():
    params, cfg, record = poem_run.poem_model()
    x, t, _, _ = poem_inside.heldout_windows()
    loss = poem_inside.losses(params, cfg, x, t).mean()
    assert np.exp(loss) == pytest.approx(record["final"]["subset"]["perplexity"], rel=1e-9)


def test_a_head_off_is_its_rows_of_w_o_zeroed(committed):
    params, cfg, _ = committed
    x, t, _, _ = poem_inside.heldout_windows()
    x, t = x[:2], t[:2]
    dh = cfg["d_model"] // cfg["n_heads"]
    zeroed = dict(params)
    zeroed["layers.2.attn.w_o"] = params["layers.2.attn.w_o"].copy()
    zeroed["layers.2.attn.w_o"][3 * dh:4 * dh] = 0.0  # head 3's rows: what it writes
    h, _ = model.forward(zeroed, cfg, x)
    z = model.logits(zeroed, h).reshape(-1, cfg["vocab"])
    ce = -np.log(softmax_rows(z)[np.arange(len(z)), t.reshape(-1)])
    np.testing.assert_allclose(poem_inside.losses(params, cfg, x, t, ((2, 3),)), ce, atol=1e-9)


def test_the_split_losses_average_to_the_whole():
    r = poem_inside.head_losses()
    n, e = r["targets"], r["line_ends"]
    assert (n, e) == (512, 104)
    for split in [r["none"], *r["heads"].values(), *r["layers"].values()]:
        assert split["all"] == pytest.approx((e * split["line_end"] + (n - e) * split["other"]) / n)


def test_the_attention_profile_by_loops():
    params, cfg, _ = poem_run.poem_model()
    x, _, _, read = poem_inside.heldout_windows()
    _, cache = model.forward(params, cfg, x)
    w = cache["blocks"][2]["attn"]["weights"][:, 3]  # (B, T, T): layer 2, head 3
    B, T = x.shape
    on_ends = previous = 0.0
    share = 0.0
    for b in range(B):
        for i in range(T):
            ends = [j for j in range(i + 1) if read[b, j] in poem_inside.LINE_ENDS]
            on_ends += sum(w[b, i, j] for j in ends)
            share += len(ends) / (i + 1)
            previous += w[b, i, i - 1] if i else 0.0
    p = poem_inside.attention_profile()
    assert p["line_ends"][2, 3] == pytest.approx(on_ends / (B * T))
    assert p["previous"][2, 3] == pytest.approx(previous / (B * (T - 1)))
    assert p["line_end_share"] == pytest.approx(share / (B * T))
    assert p["uniform_entropy"] == pytest.approx(np.mean([np.log(i + 1) for i in range(T)]))


def test_the_lens_last_stream_scores_the_recorded_perplexity():
    _, _, record = poem_run.poem_model()
    lens = poem_inside.lens_profile()
    assert lens["perplexity"][-1] == pytest.approx(record["final"]["subset"]["perplexity"],
                                                   rel=1e-9)
    assert all(0.0 <= share <= 1.0 for key in ("right", "echo") for share in lens[key])


def test_the_pca_of_points_on_a_line_by_hand():
    # four points on the line y = x, around (1, 1): all the variance on one axis, the
    # projection the signed distance from the centre along (1, 1) / sqrt 2
    e = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]) + 0.5
    pca = poem_inside.embedding_pca({"tok_emb": e})
    np.testing.assert_allclose(pca["share"], [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(pca["xy"][:, 0], np.array([-1.5, -0.5, 0.5, 1.5]) * np.sqrt(2))
    np.testing.assert_allclose(pca["xy"][:, 1], 0.0, atol=1e-12)


def test_the_pca_of_the_embeddings_by_the_covariance_eigenvectors(committed):
    params, _, _ = committed
    e = params["tok_emb"] - params["tok_emb"].mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(e, rowvar=False, bias=True))  # ascending
    top = vectors[:, ::-1][:, :2]  # (D, 2): the two largest
    pca = poem_inside.embedding_pca(params)
    np.testing.assert_allclose(pca["share"], values[::-1][:2] / values.sum(), rtol=1e-9)
    for axis in range(2):  # the same axis; its sign: the largest loading positive
        v = top[:, axis] * np.sign(top[np.abs(top[:, axis]).argmax(), axis])
        np.testing.assert_allclose(pca["xy"][:, axis], e @ v, atol=1e-9)


def test_neighbours_by_hand():
    e = np.array([[1.0, 0.0], [2.0, 0.1], [0.0, 3.0], [-1.0, 0.0], [1.0, 1.0]])
    ids, sims = poem_inside.neighbours({"tok_emb": e}, 0, 3)
    assert ids.tolist() == [1, 4, 2]  # same way, 45 degrees, 90 degrees (itself left out)
    np.testing.assert_allclose(sims, [2 / np.hypot(2, 0.1), 1 / np.sqrt(2), 0.0], atol=1e-12)
