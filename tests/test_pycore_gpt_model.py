"""The committed model: its file, its figures, the training run that made it, and the two
APIs the page uses (run: one forward pass with every intermediate; live: training step by
step)."""
import copy
import json
from pathlib import Path

import numpy as np
import pytest

from pycore import ffn, norms
from pycore.gpt import __main__ as cli
from pycore.gpt import adamw, corpus, evaluate, live, model, run, train
from pycore.softmax import softmax

PYCORE = Path(__file__).resolve().parent.parent / "pycore"
EXAMPLE = "小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".split()


@pytest.fixture(scope="module")
def book():
    return run.book_model()


def test_weights_file_is_small_and_matches_its_record(book):
    params, cfg, record = book
    assert (PYCORE / run.WEIGHTS).stat().st_size <= 1_000_000
    assert record["settings"] == json.loads(json.dumps(train.BOOK))  # the book's settings
    assert cfg == {"vocab": len(corpus.VOCAB), "n_positions": 16, "d_model": 48,
                   "n_heads": 4, "n_layers": 2, "d_ff": 192, "activation": "gelu"}
    assert {k: v.shape for k, v in params.items()} == model.shapes(cfg)
    assert all(v.dtype == np.float64 for v in params.values())
    assert record["parameters"] == model.count_parameters(params)
    assert len(record["first_losses"]) == cli.FIRST_LOSSES


def test_committed_weights_reach_the_targets(book):
    params, cfg, record = book
    e = evaluate.evaluate(params, cfg, evaluate.heldout(1000))
    assert e["accuracy"] >= 0.95
    assert e["best_attention"] >= 0.90
    # The record's figures over all 22,400 held-out sentences say the same.
    assert record["final"]["heldout_sentences"] == 22400
    assert record["final"]["accuracy"] >= 0.95
    assert record["final"]["best_head_attention"] >= 0.90


def test_attention_is_measured_on_the_answer_noun(book):
    # The measurement itself, redone by hand for a few sentences: the best head's row at "="
    # read off the forward pass, and the position of the noun found by its word.
    params, cfg, record = book
    layer, head = record["final"]["best_head"]
    sentences = evaluate.heldout(1000)[:20]
    for s in sentences:
        t = run.trace(s["tokens"][:-1], params, cfg)
        row = t["layers"][layer]["attention"]["weights"][head, -1]
        assert row[s["tokens"].index(s["answer"])] >= 0.5
    e = evaluate.evaluate(params, cfg, sentences)
    assert e["attention"][layer, head] == 1.0


def test_first_training_steps_reproduce_the_logged_losses(book):
    _, _, record = book
    _, rerun = train.train(train.BOOK, steps=cli.FIRST_LOSSES, progress=False,
                           evaluate_every=0)
    assert np.allclose(rerun["losses"], record["first_losses"], rtol=1e-9, atol=0)
    assert np.allclose(rerun["answer_losses"], record["first_answer_losses"], rtol=1e-9)
    # the first loss is that of an untrained model: about log V for each of the two terms
    assert record["first_losses"][0] == pytest.approx(2 * np.log(len(corpus.VOCAB)), rel=0.02)


def test_loss_weights_split_answer_and_language_model():
    b = corpus.batch(corpus.sample(np.random.default_rng(0), "train", 5))
    w = train.loss_weights(b, lm_weight=0.5)
    real = b["targets"] != corpus.PAD_ID
    assert np.allclose(w[np.arange(5), b["query"]], 0.2)
    assert w[~real].sum() == 0
    assert w.sum() == pytest.approx(1.0 + 0.5)


def test_trace_is_the_forward_pass_written_out(book):
    params, cfg, _ = book
    t = run.trace(EXAMPLE)
    T, D, V = len(EXAMPLE), cfg["d_model"], cfg["vocab"]
    ids = corpus.encode(EXAMPLE)
    x = params["tok_emb"][ids] + params["pos_emb"][:T]
    assert np.allclose(t["embedding"]["sum"], x)
    # Recompute each layer from the trace's own inputs with the book's parts, head by head.
    for i, layer in enumerate(t["layers"]):
        p = model.layer(params, i)
        assert np.allclose(layer["ln1"]["input_mean"], x.mean(axis=1))
        assert np.allclose(layer["ln1"]["input_std"], x.std(axis=1))
        h = norms.layer_norm(x, p["ln1.gamma"], p["ln1.beta"])
        heads = []
        for j in range(cfg["n_heads"]):
            cols = slice(j * D // 4, (j + 1) * D // 4)
            q, k, v = (h @ p[f"attn.w_{n}"][:, cols] for n in "qkv")
            s = q @ k.T / np.sqrt(D // 4) + np.triu(np.full((T, T), -np.inf), 1)
            w = softmax(s)
            assert np.allclose(layer["attention"]["weights"][j], w)
            heads.append(w @ v)
        x = x + np.hstack(heads) @ p["attn.w_o"]
        assert np.allclose(layer["residual1"], x)
        h = norms.layer_norm(x, p["ln2.gamma"], p["ln2.beta"])
        x = x + ffn.ffn(h, p["ffn.w1"], p["ffn.b1"], p["ffn.w2"], p["ffn.b2"], "gelu")
        assert np.allclose(layer["residual2"], x)
    z = norms.layer_norm(x, params["ln_f.gamma"], params["ln_f.beta"]) @ params["tok_emb"].T
    assert t["logits"].shape == (T, V) and np.allclose(t["logits"], z)
    assert np.allclose(t["next"]["probs"], softmax(z[-1]))
    assert np.allclose(run.next_token(EXAMPLE), t["next"]["probs"])
    assert dict(t["shapes"])["layer 0 attention weights"] == (4, T, T)


def test_swapping_the_adjective_moves_answer_and_attention(book):
    _, _, record = book
    layer, head = record["final"]["best_head"]
    for adjective, answer in (("累", "小猫"), ("宽", "马路"), ("饿", "小猫"), ("滑", "马路")):
        words = EXAMPLE[:7] + [adjective] + EXAMPLE[8:]
        t = run.trace(words)
        assert t["next"]["top"][0]["word"] == answer and t["next"]["top"][0]["p"] > 0.9
        row = t["layers"][layer]["attention"]["weights"][head, -1]
        assert words[int(np.argmax(row))] == answer


def test_the_language_model_part_learned_the_grammar():
    after = lambda words: run.trace(words)["next"]["top"][0]["word"]
    assert after("小猫 没有 过 马路 因为".split()) == "它"
    top = run.trace("小猫 没有 过 马路 因为 它 太".split())["next"]["top"]
    assert sum(i["p"] for i in top if i["word"] in corpus.ANIMATE_ADJECTIVES + ["宽", "长", "滑"]) > 0.9


def test_generate_follows_the_sampling_pipeline():
    g = run.generate(EXAMPLE[:5], n=20, temperature=0.7, top_k=5, seed=3)
    words = EXAMPLE[:5] + g["words"]
    assert words[-2] == "=" and words[-1] == corpus.answer_of(words)  # stops after the answer
    assert run.generate(EXAMPLE[:5], n=20, temperature=0.7, top_k=5, seed=3)["words"] == \
        g["words"]  # seeded
    for s in g["steps"]:
        assert np.count_nonzero(s["probs"]) <= 5 and s["probs"][corpus.PAD_ID] == 0


def test_run_refuses_bad_sentences():
    with pytest.raises(ValueError, match="unknown word"):
        run.trace(["小猫", "老虎"])
    with pytest.raises(ValueError, match="at most 16"):
        run.trace(["小猫"] * 17)
    with pytest.raises(ValueError, match="empty"):
        run.trace([])


def test_live_training_is_the_training_loop_in_pieces():
    state = live.init(seed=1)
    first = live.step(state, 3, report=False)
    second = live.step(state, 2, report=False)
    # the same five steps in one go, with train's own loop
    settings = copy.deepcopy(live.LIVE)
    settings["seed"] = 1
    params, record = train.train(settings, steps=5, progress=False, evaluate_every=0)
    assert np.allclose(first["losses"] + second["losses"], record["losses"], rtol=1e-12)
    for name in params:
        assert np.allclose(state["params"][name], params[name], rtol=1e-12)
    assert second["step"] == state["step"] == 5
    assert second["lr"] == pytest.approx(train.learning_rate(live.LIVE, 5))


def test_live_state_is_plain_data_and_copyable():
    state = live.init(seed=2)
    allowed = (dict, list, tuple, str, int, float, bool, np.ndarray, type(None))

    def walk(v):
        assert isinstance(v, allowed), type(v)
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
    walk(state)
    twin = copy.deepcopy(state)
    a, b = live.step(state, 2, report=False), live.step(twin, 2, report=False)
    assert a["losses"] == b["losses"]


def test_live_report_shapes():
    state = live.init(seed=0)
    r = live.step(state, 1)
    L, H = live.LIVE["model"]["n_layers"], live.LIVE["model"]["n_heads"]
    T = len(live.EXAMPLES[0])
    assert r["attention"]["weights"].shape == (2, L, H, T, T)
    assert r["attention"]["on_answer"].shape == (2, L, H)
    assert r["attention"]["answer_position"] == [0, 3]  # 小猫 with 累, 马路 with 宽
    assert 0 <= r["accuracy"] <= 1 and len(r["losses"]) == 1
    assert np.allclose(r["attention"]["weights"].sum(axis=-1), 1.0)


def test_the_logits_of_one_vector_are_its_row_of_a_batch():
    """model.logits takes E h for one vector (D,), h E^T for a batch: the same numbers, each
    checked against a dot product per word written out."""
    rng = np.random.default_rng(3)
    params = {"tok_emb": rng.normal(size=(7, 5))}
    h = rng.normal(size=(2, 3, 5))
    by_hand = np.array([[[sum(h[b, t, d] * params["tok_emb"][v, d] for d in range(5))
                          for v in range(7)] for t in range(3)] for b in range(2)])
    assert np.allclose(model.logits(params, h), by_hand, rtol=1e-12, atol=1e-12)
    assert np.allclose(model.logits(params, h[1, 2]), by_hand[1, 2], rtol=1e-12, atol=1e-12)
    assert model.logits(params, h[1, 2]).shape == (7,)
