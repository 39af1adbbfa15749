"""Widget learned-vs-handmade: chapter 4's hand-made semantic head and the trained model's
pointing head on the same sentence, side by side.

Left, the attention widget's head (pycore/example.py): its W_Q makes the pronoun ask for
"entity + animate", on the 6-d hand-made features. Right, the head of the book's trained model
(pycore.gpt) that points at the answer, at "=" (where the model names it) in the same sentence
followed by the question 「， 它 =」. The reader swaps the adjective: in the hand-made features
宽 is a state word like 累 (one row of EMBEDDINGS serves both, as the features know nothing
else about a word), so the hand-made head cannot move; the learned head moves to 马路.
"""
import numpy as np

from ... import example, figure
from ...attention import attention
from ...gpt import corpus, run

DATA_FILES = run.DATA_FILES

ADJECTIVES = ["累", "饿", "宽", "滑"]
HEADS = ["0-0", "0-1", "0-2", "0-3", "1-0", "1-1", "1-2", "1-3"]

PARAMS = {
    "adjective": {"type": "choice", "choices": ADJECTIVES, "default": "累",
                  "help": "the adjective of the sentence (累 and 饿 fit 小猫, 宽 and 滑 fit 马路)"},
    "head": {"type": "choice", "choices": HEADS, "default": "1-1",
             "help": "the trained model's head drawn on the right (layer-head; 1-1 points at "
                     "the answer)"},
}

CURVES = {"width": 400, "height": 120}


def handmade_row():
    """The semantic head's row of 它 (index 5) on the running example: the same for every
    adjective, since the features give 宽 the row of 累."""
    x = example.EMBEDDINGS  # (9, 6)
    w_q, w_k, w_v = example.semantic_head()
    weights, _, _ = attention(x @ w_q, x @ w_k, x @ w_v)  # (9, 9)
    return weights[example.TOKENS.index("它")]


def sentences(adjective):
    """(the hand-made sentence, 9 words; the trained model's, 12 words up to "=")."""
    short = [adjective if w == "累" else w for w in example.TOKENS]
    return short, short + corpus.QUESTION


def side(adjective, head):
    """Both heads' rows of the chosen sentence and their pictures."""
    short, long = sentences(adjective)
    grammar = corpus.answer_of(long)
    hand = handmade_row()
    i = short.index("它")
    layer, h = (int(x) for x in head.split("-"))
    t = run.trace(long)
    learned = t["layers"][layer]["attention"]["weights"][h, -1]  # (12,): the row of "="
    pointer = tuple(run.book_model()[2]["final"]["best_head"])

    def summary(row, words):
        j = int(np.argmax(row))
        right = words[j] == grammar
        return {"word": words[j], "weight": row[j], "right": right,
                "right_text": "true" if right else "false",
                "verdict": f"指向「{words[j]}」：{'对了' if right else '错了，应是「' + grammar + '」'}"}

    return {
        "adjective": adjective, "head": head, "grammar": grammar,
        "hand": {"tokens": np.array(short), "row": hand, **summary(hand, short),
                 "curves": figure.attention_curves(short, hand, i, columns=True, **CURVES),
                 "queried": np.arange(len(short)) == i},
        "learned": {"tokens": np.array(long), "row": learned, **summary(learned, long),
                    "curves": figure.attention_curves(long, learned, len(long) - 1, columns=True,
                                                      **CURVES),
                    "queried": np.arange(len(long)) == len(long) - 1,
                    "name": f"L{layer} 头 {h}" + ("（指代头）" if (layer, h) == pointer else ""),
                    "answer": t["next"]["top"][0]["word"]},
    }


def fixed():
    """The two pictures' frames and the heads' names: the same for every sentence."""
    short, long = sentences("累")
    geometry = {}
    for key, words in (("hand", short), ("learned", long)):
        c = figure.attention_curves(words, np.ones(len(words)) / len(words), 0, **CURVES)
        geometry[key] = {k: c[k] for k in ("width", "height", "top", "bottom")}
    return {"geometry": geometry, "head_labels": {x: f"L{x[0]} 头 {x[2]}" for x in HEADS}}


PARTS = (fixed, side)
