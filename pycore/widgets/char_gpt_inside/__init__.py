"""Widget char-gpt-inside: inside the character-level poem model (pycore.gpt.poem_run) while it
reads the text the reader types. The reader picks a layer and a head and sees that head's
causal attention over the last characters read (a heatmap, query rows × key columns), and the
logit lens: the residual stream at the last character after the embedding and after each
block, put through the final LayerNorm and the tied output layer, with its most probable next
characters (pycore.gpt.poem_inside: the numbers come from model.forward's cache).

The text is a page input (INPUTS), as in char-gpt, with its own box. Any text is answered: an
empty one with a note and empty pictures, a long one read from its last `context` characters,
characters outside the vocabulary shown as typed and read as the unknown token (the note lists
them). The heatmap shows the last SHOW characters read; the weight a row gives to characters
before them is the 数值 table's first column.

Parts: `reading` (the forward pass: it reads the text only) and `picked_head` (one head's rows of it):
picking a head sends the heatmap, never the lens.
"""
import numpy as np

from ... import figure
from ...gpt import poem_inside, poem_run, poems
from .. import char_gpt

DATA_FILES = char_gpt.DATA_FILES
INPUTS = ("text",)
SHOW = 16       # characters of the heatmap: the last ones read
LENS_TOP = 5    # next characters per row of the lens
LABELS = {"\n": "↵", " ": "␣"}  # characters the eye cannot see, as labels
LENS = {"cell": 52, "label_w": 84, "label_h": 22}
HEAT = {"cell": 26, "label_w": 28, "label_h": 22}

PARAMS = {
    "layer": {"type": "choice", "choices": [0, 1, 2], "default": 2,
              "help": "the layer whose head is drawn (0 = the first block)"},
    "head": {"type": "choice", "choices": [0, 1, 2, 3], "default": 3,
             "help": "the head of that layer whose attention is drawn"},
}


def label(c):
    return LABELS.get(c, c)


def lens_label(c):
    """A character of the vocabulary in the lens's cells: the unknown token as 未知."""
    return "未知" if c == poems.UNKNOWN else label(c)


def stage_names(n_layers):
    """The logit lens's rows: the residual stream after the embedding, then after each block."""
    return ["嵌入之后"] + [f"第 {i} 层之后" for i in range(n_layers)]


def lens_figure(probs, vocab, n_layers):
    """The lens as a grid: a row per stage, its LENS_TOP most probable next characters from
    left to right, each cell coloured by its probability (one scale for the whole grid) and
    carrying the character (`char`). probs None (no text): the grid empty, every cell 0."""
    if probs is None:
        top, chars = np.zeros((n_layers + 1, LENS_TOP)), [""] * ((n_layers + 1) * LENS_TOP)
    else:
        order = np.argsort(-probs, axis=1, kind="stable")[:, :LENS_TOP]  # (L + 1, k)
        top = np.take_along_axis(probs, order, axis=1)
        chars = [lens_label(vocab[j]) for j in order.reshape(-1)]
    fig = figure.heatmap(top, stage_names(n_layers), [f"第 {j + 1}" for j in range(LENS_TOP)],
                         lo=0.0, hi=max(float(top.max()), 1e-9), digits=3, **LENS)
    for cell, c in zip(fig["cells"], chars):
        cell["char"] = c
        cell["say"] = f"{fig['rows'][cell['i']]['label']}，第 {cell['j'] + 1} 名：{c} {cell['v']:.4f}"
    return fig


def reading(text=None):
    text = char_gpt.default_text() if text is None else text
    if not isinstance(text, str):
        text = ""
    _, cfg, record = poem_run.poem_model()
    L = cfg["n_layers"]
    if not text:
        r, weights, probs, vocab = None, np.zeros((L, cfg["n_heads"], 0, 0)), None, None
    else:
        out = poem_inside.inside(text)
        r, weights, probs, vocab = out["read"], out["weights"], out["lens"], record["vocab"]
    chars = [] if r is None else r["chars"][-SHOW:]
    n = len(chars)
    return {"text": text, "note": char_gpt.note_of(r), "n": n, "n_cols": n + 1,
            "context": cfg["n_positions"],
            "n_read": 0 if r is None else len(r["chars"]),
            "slots": [{"label": label(c)} for c in chars] + [{"label": ""}] * (SHOW - n),
            "lens": lens_figure(probs, vocab, L),
            "_weights": weights[:, :, weights.shape[2] - n:], "_labels": [label(c) for c in chars]}


def picked_head(layer, head, reading):
    w = reading["_weights"][layer, head]  # (n, T): the last n queries, every key they see
    n = len(reading["_labels"])
    window = w[:, w.shape[1] - n:]  # (n, n): keys among the last n characters
    earlier = w[:, :w.shape[1] - n].sum(axis=1)  # (n,): weight on the characters before them
    masked = np.triu(np.ones((n, n), dtype=bool), k=1)
    heat = figure.heatmap_slots(window, reading["_labels"], reading["_labels"], SHOW, lo=0.0,
                                hi=1.0, digits=3, masked=masked, row_name="查询",
                                col_name="键", **HEAT)
    weights = np.zeros((SHOW, SHOW + 1))  # the 数值 table: the earlier weight, then the window
    weights[:n, 0], weights[:n, 1:n + 1] = earlier, window
    return {"layer": layer, "head": head, "heat": heat, "weights": weights}


PARTS = (reading, picked_head)
