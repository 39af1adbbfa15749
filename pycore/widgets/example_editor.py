"""Widget example-editor: the reader edits the running example in place.

A grid of the 9 tokens × 6 features (each cell a button: 0 and 1, the book's hand-made
features) and the pronoun row of the semantic head's W_Q under it. The page keeps the edited
example (assets/widgets/example.js) and every widget over the example on the page follows it.
The view checks the example (pycore.example.checked_example: a link or the browser's storage
may carry anything), says what differs from the book's, and previews one token's row of the
semantic head, the row every chapter's experiment watches.

The sentence itself is edited too: a token is removed from it, or added from the palette
(pycore.example.PALETTE, or a book token removed before) at a chosen position. The view gives
MAX_TOKENS slots of the sentence and one row per token of the palette, hidden when unused."""
import numpy as np

from .. import figure
from ..attention import attention
from ..example import (ALL_TOKENS, FEATURES, MAX_TOKENS, MIN_TOKENS, PALETTE, PRONOUN, TOKENS,
                       default_example, embeddings, features_of, resolve_example,
                       semantic_head_of, sentence_note)

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
    diff = {k: ex[k] for k in ("x", "pronoun", "tokens") if ex[k] != book[k]}
    return diff or None


def changes(ex):
    """Every entry that differs from the book's, as ("马路「有生命」", old, new)."""
    book = default_example()
    out = [(f"{TOKENS[i]}「{FEATURES[j]}」", book["x"][i][j], ex["x"][i][j])
           for i in range(len(TOKENS)) for j in range(len(FEATURES))
           if ex["x"][i][j] != book["x"][i][j]]
    out += [(f"W_Q 代词行「{FEATURES[j]}」", book["pronoun"][j], ex["pronoun"][j])
            for j in range(len(FEATURES)) if ex["pronoun"][j] != book["pronoun"][j]]
    if ex["tokens"] != book["tokens"]:
        out.append(("句子", " ".join(book["tokens"]), " ".join(ex["tokens"])))
    return out


def sentence_slots(tokens):
    """The sentence in MAX_TOKENS slots, each with its remove button's state: 它 stays, and
    a sentence of MIN_TOKENS keeps every token."""
    out = []
    for k in range(MAX_TOKENS):
        t = tokens[k] if k < len(tokens) else ""
        locked = t == PRONOUN or len(tokens) <= MIN_TOKENS
        why = ("「它」是各图要问的代词，不能删" if t == PRONOUN else
               f"句子至少要有 {MIN_TOKENS} 个词")
        out.append({"label": t, "hidden": not t, "locked": str(bool(locked)).lower(),
                    "say": (f"从句子里删去「{t}」" if not locked else f"「{t}」：{why}")
                    if t else ""})
    return out


def palette_rows(ex):
    """One row per token a sentence may hold (ALL_TOKENS): its features, why, and whether it
    can be added (hidden when it is in the sentence already); full: MAX_TOKENS reached."""
    full = len(ex["tokens"]) >= MAX_TOKENS
    rows = []
    for t in ALL_TOKENS:
        reason = PALETTE[t][1] if t in PALETTE else "书中的词（特征在下表里改）"
        rows.append({"token": t, "features": " ".join(map(str, features_of(ex, t))),
                     "reason": reason, "hidden": t in ex["tokens"],
                     "locked": str(full).lower(),
                     "say": f"「{t}」：句子已有 {MAX_TOKENS} 个词，先删一个" if full else
                     f"把「{t}」加进句子"})
    return rows


def positions(tokens):
    """Where an added token goes: MAX_TOKENS + 1 options (k = before the k-th token)."""
    return [{"label": "放在句首" if k == 0 else f"放在「{tokens[k - 1]}」后面",
             "hidden": k > len(tokens)} if k <= len(tokens) else
            {"label": "", "hidden": True} for k in range(MAX_TOKENS + 1)]


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
        "sentence": ex["tokens"], "n": len(ex["tokens"]),
        "slots": sentence_slots(ex["tokens"]), "palette": palette_rows(ex),
        "positions": positions(ex["tokens"]),
        "full": len(ex["tokens"]) >= MAX_TOKENS,
        "note": sentence_note(ex),
        "problem": problem,
        "problem_text": "链接里的例子无法使用，这里显示的是书中的例子。" if problem else "",
        "n_changed": len(diff),
        "changes": "；".join(f"{name} {a} → {b}" for name, a, b in diff)
                   or "和书中的例子相同",
        "row": weights[i],
        "top": {"token": TOKENS[strongest], "weight": weights[i, strongest]},
        "bars": chart,
    }
