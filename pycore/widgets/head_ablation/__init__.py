"""Widget head-ablation: the book's trained model with attention heads switched off.

One switch per head (2 layers x 4 heads); the view is the model's accuracy on a fixed sample
of held-out sentences with the heads that are off zeroed (pycore/gpt/ablation.py), split by
the kind of answer, and what the model answers on the book's sentence and its twin. The
sample is small so that a click is answered at once in the browser; chapter 13b quotes the
same ablations over all 22,400 held-out sentences (tests/test_chapter_trained_model.py).
"""
import functools

import numpy as np

from ... import figure
from ...fmt import number
from ...gpt import ablation, corpus, evaluate, model, run

DATA_FILES = run.DATA_FILES
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


@functools.lru_cache(maxsize=1)
def sample():
    """The fixed held-out sample and its two groups: answers that are animals, obstacles."""
    sentences = evaluate.heldout(SAMPLE)
    animal = np.array([s["answer"] in corpus.ANIMATE for s in sentences])
    return sentences, animal


@functools.lru_cache(maxsize=64)
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


def view(**params):
    off = switched_off(params)
    ok = right(off)
    _, animal = sample()
    shares = [ok.mean(), ok[animal].mean(), ok[~animal].mean()]
    labels = ["全部", "答案是动物", "答案是障碍"]
    return {
        **{name: bool(params[name]) for name in PARAMS},  # the switches' states
        "accuracy": 100 * float(ok.mean()),
        "correct": int(ok.sum()), "n": SAMPLE,
        "off": len(off),
        "bars": figure.bars(shares, labels, form="horizontal", top=1.0, bottom=0.0, label_w=76,
                            texts=[number(100 * x, 1) + " %" for x in shares]),
        "answers": [example_answer(s.split(), off) for s in SENTENCES],
    }
