"""Widget example-editor: the reader edits the running example in place.

A grid of the 9 tokens × 6 features (each cell a button: 0 and 1, the book's hand-made
features) and the pronoun row of the semantic head's W_Q under it. The page keeps the edited
example (assets/widgets/example.js) and every widget over the example on the page follows it.
The view checks the example (pycore.example.checked_example: a link or the browser's storage
may carry anything), says what differs from the book's, and previews one token's row of the
semantic head, the row every chapter's experiment watches."""
import numpy as np

from .. import figure
from ..attention import attention
from ..example import (FEATURES, TOKENS, default_example, embeddings, resolve_example,
                       semantic_head_of)

INPUTS = ("example",)  # the reader's dict, from the page (never a block parameter)

PARAMS = {
    "query": {"type": "choice", "choices": TOKENS, "default": "它",
              "help": "the token whose row of the semantic head is previewed"},
    "head": {"type": "bool", "default": True,
             "help": "show the semantic head's parts: W_Q's pronoun row and the query's row "
                     "(off in chapters before attention)"},
}


def canonical(ex):
    """The parts of a checked example that differ from the book's (None: none do): what the
    page keeps in its URL."""
    book = default_example()
    diff = {k: ex[k] for k in ("x", "pronoun") if ex[k] != book[k]}
    return diff or None


def changes(ex):
    """Every entry that differs from the book's, as ("马路「有生命」", old, new)."""
    book = default_example()
    out = [(f"{TOKENS[i]}「{FEATURES[j]}」", book["x"][i][j], ex["x"][i][j])
           for i in range(len(TOKENS)) for j in range(len(FEATURES))
           if ex["x"][i][j] != book["x"][i][j]]
    out += [(f"W_Q 代词行「{FEATURES[j]}」", book["pronoun"][j], ex["pronoun"][j])
            for j in range(len(FEATURES)) if ex["pronoun"][j] != book["pronoun"][j]]
    return out


def cell(label, value, book_value):
    say = f"{label} = {value}" + ("" if value == book_value else f"（书中是 {book_value}）")
    return {"v": value, "on": str(value > 0).lower(), "changed": value != book_value,
            "say": say}


def view(query, head, example=None):
    ex, problem = resolve_example(example)
    book = default_example()
    x = embeddings(ex)  # (9, 6)
    w_q, w_k, w_v = semantic_head_of(ex)
    weights = attention(x @ w_q, x @ w_k, x @ w_v)[0]  # (9, 9), scale 1: divided by sqrt(6)
    i = TOKENS.index(query)
    strongest = int(np.argmax(weights[i]))
    diff = changes(ex)
    chart = figure.bars(weights[i], TOKENS, top=1.0, digits=3, height=150)
    for b, t in zip(chart["bars"], TOKENS):
        b["say"] = f"{query} → {t}：{figure.fmt(b['value'], 4)}"
    return {
        "tokens": TOKENS, "features": FEATURES, "query": query, "index": i, "head": head,
        "x": ex["x"], "pronoun": ex["pronoun"],
        "cells": [[cell(f"{TOKENS[r]}「{FEATURES[j]}」", ex["x"][r][j], book["x"][r][j])
                   for j in range(len(FEATURES))] for r in range(len(TOKENS))],
        "pronoun_cells": [cell(f"W_Q 代词行「{FEATURES[j]}」", ex["pronoun"][j],
                               book["pronoun"][j]) for j in range(len(FEATURES))],
        "canonical": canonical(ex),
        "problem": problem,
        "problem_text": "链接里的例子无法使用，这里显示的是书中的例子。" if problem else "",
        "n_changed": len(diff),
        "changes": "；".join(f"{name} {a} → {b}" for name, a, b in diff)
                   or "和书中的例子相同",
        "row": weights[i],
        "top": {"token": TOKENS[strongest], "weight": weights[i, strongest]},
        "bars": chart,
    }
