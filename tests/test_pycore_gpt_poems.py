"""The character-level poem model: its corpus reader, vocabulary, baselines, training loop
(gradients by finite differences, resuming) and the committed weights.

The corpus itself (Debian's fortunes-zh) is not in the repository; the reader is checked on
a hand-written excerpt in the package's format. The committed weights are checked on the
committed held-out subset (pycore/poem_gpt_heldout.txt, public-domain poems the model never
saw): they reach the recorded perplexity and beat both baselines on it.
"""
import io
import math
from importlib import resources

import numpy as np
import pytest

from pycore.gpt import model, poem_run, poems, train_poems

# Three entries as the package writes them: colour escapes, a title and an author line in
# tang300, an attribution closing the entries of "chinese" (one classical, one modern).
TANG = ("\x1b[32m《送别》\x1b[m\n\x1b[33m作者：王维\x1b[m\n下马饮君酒，问君何所之。\n"
        "君言不得意，归卧南山陲。\n%\n")
CHINESE = ("学而时习之，不亦说乎？\n\n\x1b[33m    -- 《论语》学而\x1b[m\n%\n"
           "请保持礼貌。\n\n    -- Debian 《行为准则》\n%\n")


def test_reader_keeps_poem_lines_and_classical_entries_only():
    assert poems.units_of("tang300", TANG) == ["下马饮君酒，问君何所之。\n君言不得意，归卧南山陲。"]
    assert poems.units_of("chinese", CHINESE) == ["学而时习之，不亦说乎？"]


def test_every_tenth_unit_is_held_out_whole():
    units = [f"诗{i}" for i in range(25)]
    train, heldout = poems.split(units)
    assert heldout == ["诗9", "诗19"]
    assert len(train) == 23 and not set(train) & set(heldout)


def test_vocabulary_keeps_frequent_characters_and_maps_the_rest_to_unknown():
    vocab = poems.vocabulary("春风春风春雨花", min_count=2)
    assert vocab == [poems.UNKNOWN, "春", "风"]
    ids = poems.encoder(vocab)
    assert poems.encode("春雨😀<b>", ids) == [1, 0, 0, 0, 0, 0]


def test_baselines_by_hand():
    train_ids = np.array([1, 2, 1, 2, 1])  # V = 3: counts 0, 3, 2
    assert train_poems.unigram_loss(train_ids, [[1, 0]], 3, k=1.0) == pytest.approx(
        -(math.log(4 / 8) + math.log(1 / 8)) / 2)
    # pairs 1->2 twice, 2->1 twice; p(2 | 1) = (2 + 0.5) / (2 + 1.5), p(0 | 2) = 0.5 / 3.5
    assert train_poems.bigram_loss(train_ids, [[1, 2]], [[2, 0]], 3, k=0.5) == pytest.approx(
        -(math.log(2.5 / 3.5) + math.log(0.5 / 3.5)) / 2)


def test_windows_predict_each_character_once_from_the_one_before():
    x, t = train_poems.windows(np.arange(10), 3)
    assert x.tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert t.tolist() == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]


TINY = {**train_poems.SETTINGS, "context": 5, "steps": 4, "batch": 2, "warmup": 1,
        "eval_every": 2, "model": {"d_model": 4, "n_heads": 2, "n_layers": 2, "d_ff": 8,
                                   "activation": "relu"}}


def tiny_data():
    text = poems.join(["床前明月光，疑是地上霜。", "举头望明月，低头思故乡。"] * 3)
    vocab = poems.vocabulary(text, 2)
    ids = np.array(poems.encode(text, poems.encoder(vocab)))
    return {"vocab": vocab, "train": ids, "heldout": ids[:12]}


def test_training_loss_gradient_matches_finite_differences():
    """The training objective (mean cross-entropy over every position, model.py's forward and
    hand-written backward, ReLU FFN) against central differences on a tiny config."""
    data = tiny_data()
    cfg = train_poems.model_config(TINY, len(data["vocab"]))
    params = model.init(cfg, 3)
    rng = np.random.default_rng(5)
    params = {k: v + rng.normal(0, 0.3, v.shape) for k, v in params.items()}  # off 0.02 scale
    x, t = train_poems.batch(np.random.default_rng(1), data["train"], TINY)
    w = np.full(x.shape, 1.0 / x.size)
    _, grads, _ = model.loss_and_grads(params, cfg, x, t, w)
    loss = lambda: model.loss_and_grads(params, cfg, x, t, w)[0]
    h = 1e-5
    for name, a in params.items():  # three entries of every parameter: the largest gradient
        flat = a.reshape(-1)        # and two drawn at random (every entry would take seconds)
        picks = {int(np.argmax(np.abs(grads[name]))), *rng.integers(0, a.size, 2).tolist()}
        for j in picks:
            old = flat[j]
            flat[j] = old + h
            up = loss()
            flat[j] = old - h
            numeric = (up - loss()) / (2 * h)
            flat[j] = old
            scale = max(np.abs(grads[name]).max(), 1e-12)
            assert abs(grads[name].reshape(-1)[j] - numeric) / scale < 1e-6, (name, j)


def test_a_resumed_run_ends_with_the_weights_of_an_unbroken_one(tmp_path):
    data = tiny_data()
    quiet = io.StringIO()
    whole = train_poems.train(data, TINY, tmp_path / "whole", out=quiet)
    train_poems.train(data, TINY, tmp_path / "broken", steps=2, out=quiet)  # stops at 2
    resumed = train_poems.train(data, TINY, tmp_path / "broken", out=quiet)
    assert resumed["step"] == whole["step"] == 4
    assert resumed["losses"] == whole["losses"]
    for name, a in whole["params"].items():
        assert np.array_equal(resumed["params"][name], a), name


def test_a_checkpoint_of_other_settings_is_refused(tmp_path):
    data = tiny_data()
    train_poems.train(data, TINY, tmp_path, steps=1, out=io.StringIO())
    with pytest.raises(ValueError, match="other settings"):
        train_poems.train(data, {**TINY, "seed": 1}, tmp_path, out=io.StringIO())


# --- the committed weights -----------------------------------------------------------------

@pytest.fixture(scope="module")
def committed():
    params, cfg, record = poem_run.poem_model()
    text = resources.files("pycore").joinpath(train_poems.HELDOUT).read_text(encoding="utf-8")
    return params, cfg, record, text


def test_the_weights_load_as_the_page_loads_them(committed):
    """The page's worker reads the .npz bytes with np.load (DATA_FILES): float16 arrays, one per
    parameter of the recorded config, at most 5 MB."""
    params, cfg, record, _ = committed
    blob = resources.files("pycore").joinpath(train_poems.WEIGHTS).read_bytes()
    assert len(blob) <= 5_000_000
    with np.load(io.BytesIO(blob)) as data:
        assert {n: data[n].shape for n in data.files} == model.shapes(cfg)
        assert all(data[n].dtype == np.float16 for n in data.files)
    assert len(record["vocab"]) == cfg["vocab"] and record["vocab"][0] == poems.UNKNOWN
    assert model.count_parameters(params) == record["parameters"] >= 500_000


def test_the_weights_reach_the_recorded_perplexity_and_beat_the_baselines(committed):
    params, cfg, record, text = committed
    ids = poems.encode(text, poems.encoder(record["vocab"]))
    x, t = train_poems.windows(np.array(ids), cfg["n_positions"])
    assert x.shape[0] == train_poems.SUBSET_WINDOWS
    ppl = math.exp(train_poems.mean_loss(params, cfg, x, t))
    subset = record["final"]["subset"]
    assert ppl == pytest.approx(subset["perplexity"], rel=1e-9)
    assert ppl < subset["bigram_perplexity"] < subset["unigram_perplexity"]
    everything = record["final"]["heldout"]
    assert everything["perplexity"] < everything["bigram_perplexity"]


def test_any_text_is_read_and_unknown_characters_are_reported(committed):
    _, cfg, record, _ = committed
    r = poem_run.read("床前明月光😀<p>" + "月" * 100)
    assert r["cut"] == 109 - cfg["n_positions"] and len(r["ids"]) == cfg["n_positions"]
    r = poem_run.read("明月😀<p>")
    assert r["known"][:2] == [True, True] and r["ids"][2] == 0
    assert "😀" in r["unknown"] and r["chars"][2] == "😀"
    for bad in ("", None):
        with pytest.raises(ValueError):
            poem_run.read(bad)


def test_next_char_is_the_models_softmax_and_generation_is_seeded(committed):
    params, cfg, record, _ = committed
    # next_char computes the last block at the last position only: the same as the whole pass
    for text in ("床前明月", "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n" * 3):
        out = poem_run.next_char(text, top_k=5)
        h, _ = model.forward(params, cfg, np.array([out["read"]["ids"]]))
        z = h[0, -1] @ params["tok_emb"].T
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        assert np.allclose(out["probs"], p, atol=1e-12)
    out = poem_run.next_char("床前明月", top_k=5)
    assert np.count_nonzero(out["final"]) == 5 and out["final"].sum() == pytest.approx(1)
    a = poem_run.generate("春", 6, temperature=0.8, seed=3)
    assert a == poem_run.generate("春", 6, temperature=0.8, seed=3) and len(a) == 6
    assert poems.UNKNOWN not in a


def test_kept_keys_and_values_give_the_whole_passes_logits(committed):
    """extend() over a text in pieces (the keys and values of earlier positions kept) against
    model.forward over the whole text at once."""
    params, cfg, record, _ = committed
    ids = poem_run.read("白日依山尽，黄河入海流。欲穷千里目", record["vocab"], 64)["ids"]
    z, kept = poem_run.extend(ids[:5], 0, None, params, cfg)
    for t in range(5, len(ids)):
        z, kept = poem_run.extend(ids[t:t + 1], t, kept, params, cfg)
        h, _ = model.forward(params, cfg, np.array([ids[:t + 1]]))
        np.testing.assert_allclose(z, h[0, -1] @ params["tok_emb"].T, atol=1e-10)
    assert kept[0][0].shape == (1, cfg["n_heads"], len(ids), cfg["d_model"] // cfg["n_heads"])


@pytest.mark.parametrize("text,seed", [("春", 3), ("床前明月光\n", 11), ("月" * 50, 5)])
def test_generation_is_a_whole_pass_per_character_drawn_with_the_pipeline(committed, text, seed):
    """generate() (keys and values kept; past the 64-character context, a whole pass over the
    window) against a plain loop: model.forward over the last 64 characters for every new one,
    the unknown token never drawn, the sampling pipeline and its seeded draw."""
    from pycore import sampling
    params, cfg, record, _ = committed
    vocab = record["vocab"]
    ids = poem_run.read(text, vocab, 64)["ids"]
    expected = []
    for s in np.random.default_rng(seed).integers(0, 2**31, size=24):
        h, _ = model.forward(params, cfg, np.array([ids[-64:]]))
        z = h[0, -1] @ params["tok_emb"].T
        z[0] = -np.inf
        j = int(sampling.sample(sampling.pipeline(z, 0.9, 20, 0.95)["final"], 1, int(s))[0])
        ids.append(j)
        expected.append(vocab[j])
    assert poem_run.generate(text, 24, 0.9, 20, 0.95, seed) == "".join(expected)
