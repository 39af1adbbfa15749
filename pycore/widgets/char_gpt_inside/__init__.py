"""Widget char-gpt-inside: inside the character-level poem model (pycore.gpt.poem_run) while it
reads the text the reader types. The reader picks a layer and a head and sees that head's
causal attention over the last characters read (a heatmap, query rows × key columns), and
picks one of those characters (`at`) to see, at that position, the logit lens: the residual
stream after the embedding and after each block, put through the final LayerNorm and the tied
output layer, with its most probable next characters; and the attention row of every layer's
every head from that position (pycore.gpt.poem_inside: the numbers come from model.forward's
cache).

The text is a page input (INPUTS), as in char-gpt, with its own box. Any text is answered: an
empty one with a note and empty pictures, a long one read from its last `context` characters,
characters outside the vocabulary shown as typed and read as the unknown token (the note lists
them). The heatmap shows the last SHOW characters read; the weight a row gives to characters
before them is the 数值 table's first column.

`at` counts among the characters of the heatmap (0 = its first); past the text's end it means
the last character read (the view's `at` says which one it used), so the default shows the
last position whatever the length of the text.

Parts: `reading` (the forward pass: it reads the text only), `picked_head` (one head's rows of
it) and `picked_position` (the lens and the rows at one character): picking a head sends the
heatmap, picking a character the lens and its rows, neither runs the model again.
"""
import json

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
ROWS = {"cell": 26, "label_w": 84, "label_h": 22}  # every head's row at the picked character

PARAMS = {
    "layer": {"type": "choice", "choices": [0, 1, 2], "default": 2,
              "help": "the layer whose head is drawn (0 = the first block)"},
    "head": {"type": "choice", "choices": [0, 1, 2, 3], "default": 3,
             "help": "the head of that layer whose attention is drawn"},
    "at": {"type": "choice", "choices": list(range(SHOW)), "default": SHOW - 1,
           "help": "the character of the heatmap (0 = its first) whose logit lens and attention "
                   "rows are shown; past the text's end, the last character read"},
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
    params, cfg, record = poem_run.poem_model()
    L, H, D = cfg["n_layers"], cfg["n_heads"], cfg["d_model"]
    if not text:
        r, weights, x = None, np.zeros((L, H, 0, 0)), np.zeros((L + 1, 0, D))
    else:
        out = poem_inside.inside(text, position=None)  # the lens comes with the position
        r, weights, x = out["read"], out["weights"], out["streams"]
    chars = [] if r is None else r["chars"][-SHOW:]
    n = len(chars)
    slots = [{"label": label(c), "value": json.dumps(j), "hidden": False}
             for j, c in enumerate(chars)]
    return {"text": text, "note": char_gpt.note_of(r), "n": n, "n_cols": n + 1,
            "context": cfg["n_positions"],
            "n_read": 0 if r is None else len(r["chars"]),
            "slots": slots + [{"label": "", "value": False, "hidden": True}] * (SHOW - n),
            "_weights": weights[:, :, weights.shape[2] - n:], "_labels": [label(c) for c in chars],
            "_streams": x[:, x.shape[1] - n:], "_params": params,
            "_vocab": record["vocab"], "_layers": L}


def picked_head(layer, head, reading):
    w = reading["_weights"][layer, head]  # (n, T): the last n queries, every key they see
    n = len(reading["_labels"])
    window = w[:, w.shape[1] - n:]  # (n, n): keys among the last n characters
    earlier = w[:, :w.shape[1] - n].sum(axis=1)  # (n,): weight on the characters before them
    masked = np.triu(np.ones((n, n), dtype=bool), k=1)
    heat = figure.heatmap(window, reading["_labels"], reading["_labels"], slots=SHOW, lo=0.0,
                          hi=1.0, digits=3, masked=masked, row_name="查询",
                          col_name="键", **HEAT)
    weights = np.zeros((SHOW, SHOW + 1))  # the 数值 table: the earlier weight, then the window
    weights[:n, 0], weights[:n, 1:n + 1] = earlier, window
    return {"layer": layer, "head": head, "heat": heat, "weights": weights}


def head_names(n_layers, n_heads):
    return [f"第 {i} 层头 {j}" for i in range(n_layers) for j in range(n_heads)]


def picked_position(at, reading):
    """The lens at the picked character and every head's attention row from it: a row per
    (layer, head), a column per character of the heatmap, the keys after it masked (the
    model cannot see them); the 数值 table `rows_weights` puts first the weight on the
    characters before the heatmap."""
    w, labels, L = reading["_weights"], reading["_labels"], reading["_layers"]
    n = len(labels)
    names = head_names(L, w.shape[1])
    at = min(at, n - 1) if n else at  # the last character when the text is shorter
    rows = np.zeros((len(names), SHOW))
    earlier = np.zeros(len(names))
    if n:
        row = w[:, :, at].reshape(len(names), -1)  # (L H, T): the picked query's keys
        rows[:, :n] = row[:, row.shape[1] - n:]
        earlier = row[:, :row.shape[1] - n].sum(axis=1)
        probs = poem_inside.lens(reading["_params"], reading["_streams"][:, at])  # (L + 1, V)
    cols = labels + [""] * (SHOW - n)
    masked = np.zeros_like(rows, dtype=bool)
    masked[:, min(at + 1, n) if n else 0:] = True  # after the query, and the unused slots
    heat = figure.heatmap(rows, names, cols, weights=True, masked=masked, row_name="头",
                          col_name="键", paths=True, **ROWS)  # colours as paths: what the page binds
    for c in heat["cells"]:
        if c["j"] >= n:  # a slot past the text: no character, no weight
            c["say"] = f"{names[c['i']]} → （没有字）"
    table = np.column_stack([earlier, rows])  # the 数值 table: the earlier weight, then the keys
    return {"at": at, "at_char": labels[at] if n else "", "rows": heat, "rows_weights": table,
            "lens": lens_figure(probs if n else None, reading["_vocab"], L)}


PARTS = (reading, picked_head, picked_position)
