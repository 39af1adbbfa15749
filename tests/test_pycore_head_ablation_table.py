"""The head-ablation widget's table (pycore/gpt_ablations.json, bookbuild/tools/ablations.py):
some of its 256 rows recomputed here with the model, heads switched off by zeroing their rows
of W_O in model.forward (not pycore.gpt.ablation, which wrote the table), and the view's
numbers for those sets read back from it."""
import numpy as np
import pytest

from pycore.gpt import corpus, evaluate, model, run
from pycore.widgets import head_ablation

SETS = [(), tuple(head_ablation.SWITCHES), ((1, 1),), ((1, 1), (1, 3)), ((0, 0), (0, 1), (0, 2)),
        ((0, 3), (1, 0), (1, 2))]


def zeroed(off):
    """The book's weights with the rows of W_O of the heads `off` set to zero."""
    params, cfg, _ = run.book_model()
    Dh = cfg["d_model"] // cfg["n_heads"]
    w = dict(params)
    for layer, head in off:
        name = f"layers.{layer}.attn.w_o"
        w[name] = w[name].copy()
        w[name][head * Dh:(head + 1) * Dh] = 0.0
    return w, cfg


def answers_at_equals(weights, cfg, ids, query):
    h, _ = model.forward(weights, cfg, ids)  # (B, T, D)
    return model.logits(weights, h[np.arange(len(query)), query]).argmax(axis=-1)  # (B,)


@pytest.mark.parametrize("off", SETS)
def test_a_row_is_what_the_model_answers_with_those_heads_off(off):
    weights, cfg = zeroed(off)
    sentences = evaluate.heldout(head_ablation.SAMPLE)
    b = corpus.batch(sentences)
    ok = answers_at_equals(weights, cfg, b["inputs"], b["query"]) == b["answer"]
    animal = np.array([s["answer"] in corpus.ANIMATE for s in sentences])
    examples = [corpus.VOCAB[int(answers_at_equals(weights, cfg, np.array([corpus.encode(
        s.split())]), [len(s.split()) - 1])[0])] for s in head_ablation.SENTENCES]
    table = head_ablation.table()
    assert (table["n"], table["n_animal"], table["n_obstacle"]) == \
        (len(sentences), animal.sum(), (~animal).sum())
    row = [int(ok.sum()), int(ok[animal].sum()), int(ok[~animal].sum()), *examples]
    assert table["sets"][head_ablation.row_of(off)] == row
    # and the view shows that row
    view = head_ablation.view(**{f"l{layer}h{head}": (layer, head) not in off
                                 for layer, head in head_ablation.SWITCHES})
    assert view["correct"] == row[0] and view["answers"] == examples
    assert view["accuracy"] == pytest.approx(100 * ok.mean(), abs=1e-12)
    assert [bar["value"] for bar in view["bars"]["rows"]] == pytest.approx(
        [ok.mean(), ok[animal].mean(), ok[~animal].mean()], abs=1e-12)


def test_every_set_has_its_row():
    sets = head_ablation.table()["sets"]
    assert len(sets) == 2 ** len(head_ablation.SWITCHES)
    assert len({head_ablation.row_of(off) for off in SETS}) == len(SETS)
    assert sets[0][:3] == [200, 94, 106]  # nothing off: every sentence right
