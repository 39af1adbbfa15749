"""pycore.gpt.ablation: the forward with heads switched off, against computations that do not
use it: zeroed rows of W_O (a head's output enters the residual stream only through its Dh rows
of W_O), and the model's own blocks with the attention output dropped by hand at one position."""
import numpy as np

from pycore import ffn, norms
from pycore.gpt import ablation, corpus, model, run
from pycore.gpt.layers import block

SENTENCE = corpus.encode("小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".split())


def book():
    params, cfg, _ = run.book_model()
    return params, cfg


def test_nothing_off_is_the_model():
    params, cfg = book()
    ids = np.array([SENTENCE])
    np.testing.assert_allclose(ablation.forward(params, cfg, ids),
                               model.forward(params, cfg, ids)[0], atol=1e-12)


def test_heads_off_everywhere_equal_zeroed_rows_of_w_o():
    params, cfg = book()
    Dh = cfg["d_model"] // cfg["n_heads"]
    sentences = corpus.sample(np.random.default_rng(3), "heldout", 5)
    ids = corpus.batch(sentences)["inputs"]
    for off in [((1, 1),), ((1, 1), (1, 3)), ((0, 0), (0, 1), (0, 2)), ((0, 3), (1, 0))]:
        zeroed = dict(params)
        for layer, head in off:
            name = f"layers.{layer}.attn.w_o"
            zeroed[name] = zeroed[name].copy()
            zeroed[name][head * Dh:(head + 1) * Dh] = 0.0
        np.testing.assert_allclose(ablation.forward(params, cfg, ids, off),
                                   model.forward(zeroed, cfg, ids)[0], atol=1e-12)
        assert not np.allclose(ablation.forward(params, cfg, ids, off),
                               model.forward(params, cfg, ids)[0])


def test_layer_0_attention_off_at_the_last_position_only():
    params, cfg = book()
    ids = np.array([SENTENCE])
    x = params["tok_emb"][ids] + params["pos_emb"][:ids.shape[1]]
    y0, _ = block(x, model.layer(params, 0), cfg["n_heads"], cfg["activation"])
    p = model.layer(params, 0)
    r = x[0, -1]  # the last position ("=") without its attention output: r = x + 0
    h2 = norms.layer_norm(r, p["ln2.gamma"], p["ln2.beta"])
    y0[0, -1] = r + ffn.ffn(h2, p["ffn.w1"], p["ffn.b1"], p["ffn.w2"], p["ffn.b2"],
                            cfg["activation"])
    y1, _ = block(y0, model.layer(params, 1), cfg["n_heads"], cfg["activation"])
    expected = norms.layer_norm(y1, params["ln_f.gamma"], params["ln_f.beta"])
    all_of_layer_0 = tuple((0, head) for head in range(cfg["n_heads"]))
    got = ablation.forward(params, cfg, ids, all_of_layer_0, at=[len(SENTENCE) - 1])
    np.testing.assert_allclose(got, expected, atol=1e-12)


def test_accuracy_counts_the_right_answers():
    params, cfg = book()
    sentences = corpus.sample(np.random.default_rng(4), "heldout", 40)
    assert ablation.accuracy(params, cfg, sentences) == 1.0
    # off: the answers are the argmax of the tied logits at "=" of the zeroed-W_O model
    off = ((1, 1), (1, 3))
    zeroed = dict(params)
    zeroed["layers.1.attn.w_o"] = params["layers.1.attn.w_o"].copy()
    zeroed["layers.1.attn.w_o"][12:24] = zeroed["layers.1.attn.w_o"][36:48] = 0.0
    right = 0
    for s in sentences:
        h = model.forward(zeroed, cfg, [corpus.encode(s["tokens"][:-1])])[0]
        right += corpus.VOCAB[int(model.logits(params, h[0, -1]).argmax())] == s["answer"]
    assert ablation.accuracy(params, cfg, sentences, off) == right / len(sentences) < 1.0


def test_the_last_block_at_the_query_rows_only_is_the_whole_forward_there():
    params, cfg = book()
    b = corpus.batch(corpus.sample(np.random.default_rng(5), "heldout", 8))  # padded, ragged
    rows = np.arange(len(b["query"]))
    for off, at in [((), None), (((1, 1), (0, 2)), None), (((1, 3), (0, 0)), b["query"])]:
        whole = ablation.forward(params, cfg, b["inputs"], off, at)[rows, b["query"]]
        np.testing.assert_allclose(ablation.at_queries(params, cfg, b["inputs"], b["query"],
                                                       off, at), whole, atol=1e-12)
