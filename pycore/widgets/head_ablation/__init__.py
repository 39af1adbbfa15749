"""Widget head-ablation: the book's trained model with attention heads switched off.

One switch per head (2 layers x 4 heads); the view is the model's accuracy on a fixed sample
of held-out sentences with the heads that are off zeroed (pycore/gpt/ablation.py), split by
the kind of answer, and what the model answers on the book's sentence and its twin. The
sample is small so that a click is answered at once in the browser; chapter 13b quotes the
same ablations over all 22,400 held-out sentences (tests/test_chapter_trained_model.py).

The eight switches make only 2^8 = 256 sets of heads off, so no click runs the model (some
0.4 s in the page for the 200 sentences): `measured(off)` ran it once for every set, and the
view reads that set's row of the table pycore/gpt_ablations.json (TABLE; written by
`python3 -m bookbuild.tools.ablations`, checked against the model by
tests/test_pycore_head_ablation_table.py).
"""
import functools
import json
from importlib import resources

import numpy as np

from ... import figure
from ...fmt import number
from ...gpt import ablation, corpus, evaluate, model, run

TABLE = "gpt_ablations.json"
DATA_FILES = (TABLE,)  # the table only: the view never reads the weights
LAYERS, HEADS = 2, 4
SAMPLE = 200  # held-out sentences (evaluate.heldout's fixed sample)
SWITCHES = tuple((layer, head) for layer in range(LAYERS) for head in range(HEADS))
SENTENCES = ("小猫 没有 过 马路 因为 它 太 累 了 ， 它 =",
             "小猫 没有 过 马路 因为 它 太 宽 了 ， 它 =")

PARAMS = {f"l{layer}h{head}": {"type": "bool", "default": True,
                               "help": f"layer {layer} head {head} on (false: its output zeroed)"}
          for layer, head in SWITCHES}


def switched_off(params):
    """The (layer, head) pairs whose switch is off, in SWITCHES order."""
    return tuple((layer, head) for layer, head in SWITCHES if not params[f"l{layer}h{head}"])


def row_of(off):
    """The table's row of a set of heads off: bit i set when SWITCHES[i] is off."""
    return sum(1 << SWITCHES.index(switch) for switch in off)


@functools.lru_cache(maxsize=1)
def table():
    """The committed table: {n, n_animal, n_obstacle, sets: a row per set of heads off,
    [right, right among animal answers, right among obstacle answers, answer to each of
    SENTENCES]}."""
    return json.loads(resources.files("pycore").joinpath(TABLE).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def sample():
    """The fixed held-out sample and its two groups: answers that are animals, obstacles."""
    sentences = evaluate.heldout(SAMPLE)
    animal = np.array([s["answer"] in corpus.ANIMATE for s in sentences])
    return sentences, animal


def right(off):
    """(SAMPLE,) bools: which sample sentences the model answers right with `off` zeroed."""
    params, cfg, _ = run.book_model()
    sentences, _ = sample()
    truth = np.array([corpus.INDEX[s["answer"]] for s in sentences])
    return ablation.answers(params, cfg, sentences, off) == truth


def example_answer(words, off):
    """The model's most probable word at "=" of one sentence, with `off` zeroed."""
    params, cfg, _ = run.book_model()
    h = ablation.forward(params, cfg, [corpus.encode(words)], off)  # (1, T, D)
    return corpus.VOCAB[int(model.logits(params, h[0, -1]).argmax())]


def measured(off):
    """The table's row of `off`, from the model (the build tool runs this, never a view)."""
    ok = right(off)
    _, animal = sample()
    return [int(ok.sum()), int(ok[animal].sum()), int(ok[~animal].sum()),
            *(example_answer(s.split(), off) for s in SENTENCES)]


def view(**params):
    off = switched_off(params)
    t = table()
    correct, animal, obstacle, *answers = t["sets"][row_of(off)]
    # the shares as counts over group sizes: the same floats as the mean of the bools
    shares = [correct / t["n"], animal / t["n_animal"], obstacle / t["n_obstacle"]]
    labels = ["全部", "答案是动物", "答案是障碍"]
    return {
        **{name: bool(params[name]) for name in PARAMS},  # the switches' states
        "accuracy": 100 * shares[0],
        "correct": correct, "n": t["n"],
        "off": len(off),
        "bars": figure.bars(shares, labels, form="horizontal", top=1.0, bottom=0.0, label_w=76,
                            texts=[number(100 * x, 1) + " %" for x in shares]),
        "answers": answers,
    }
