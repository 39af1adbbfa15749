"""Widget example-editor: the reader edits the running example in place.

A grid of the 9 tokens × 6 features (each cell a button: 0 and 1, the book's hand-made
features) and the pronoun row of the semantic head's W_Q under it. The page keeps the edited
example (assets/widgets/example.js) and every widget over the example on the page follows it.
The view checks the example (pycore.example.checked_example: a link or the browser's storage
may carry anything), says what differs from the book's, and previews one token's row of the
semantic head, the row every chapter's experiment watches.

The sentence itself is edited too: a token is removed from it, or added from the palette
(pycore.example.PALETTE, or a book token removed before) at a chosen position. The view gives
MAX_TOKENS slots of the sentence and one row per token of the palette, hidden when unused.
The preview is over the reader's sentence (n = MIN_TOKENS..MAX_TOKENS tokens): its bars
(figure.bars with slots), the query picker and the 数值 tables keep MAX_TOKENS slots, filled by
the view (unused ones hidden, tables padded with zeros). The grid stays the book's nine
tokens: it edits their rows, and a palette token's features are fixed.

The view is in three parts (PARTS, pycore/view_parts.py): what never changes (the grid's
tokens and features), what the example decides (the grid, the sentence, the palette, what
differs from the book's) and the preview of the query's row; a new query brings the preview
alone."""
import json
import numpy as np

from ... import figure
from ...attention import attention
from ...example import (ALL_TOKENS, FEATURES, MAX_TOKENS, MIN_TOKENS, PALETTE, PRONOUN, TOKENS,
                       default_example, features_of, resolve_example, semantic_head_of,
                       sentence_embeddings)

# the reader's dict, from the page (never a block parameter)
INPUTS = ("example",)

PARAMS = {
    "query": {"type": "choice", "choices": ALL_TOKENS, "default": PRONOUN,
              "help": "the token whose row of the semantic head is previewed (它 if the "
                      "sentence lacks it)"},
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
    """The sentence in MAX_TOKENS slots, each with its remove button's state (它 stays, and
    a sentence of MIN_TOKENS keeps every token) and its query button's value (the token as
    JSON, False when unused: the button has no value)."""
    out = []
    for k in range(MAX_TOKENS):
        t = tokens[k] if k < len(tokens) else ""
        locked = t == PRONOUN or len(tokens) <= MIN_TOKENS
        why = ("「它」是各图要问的代词，不能删" if t == PRONOUN else
               f"句子至少要有 {MIN_TOKENS} 个词")
        out.append({"label": t, "hidden": not t, "locked": str(bool(locked)).lower(),
                    "value": json.dumps(t, ensure_ascii=False) if t else False,
                    "say": (f"从句子里删去「{t}」" if not locked else f"「{t}」：{why}")
                    if t else ""})
    return out


def palette_rows(ex):
    """One row per token a sentence may hold (ALL_TOKENS): its features, and whether it can
    be added (hidden when it is in the sentence already); full: MAX_TOKENS reached; its token
    and why it is offered."""
    full = len(ex["tokens"]) >= MAX_TOKENS
    rows = []
    for t in ALL_TOKENS:
        row = {"features": " ".join(map(str, features_of(ex, t))),
               "hidden": t in ex["tokens"], "locked": str(full).lower(),
               "say": f"「{t}」：句子已有 {MAX_TOKENS} 个词，先删一个" if full else
               f"把「{t}」加进句子"}
        row["token"] = t
        row["reason"] = PALETTE[t][1] if t in PALETTE else "书中的词（特征在下表里改）"
        rows.append(row)
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


def padded(m, rows):
    """m (n, c) as a list of `rows` rows, zero rows added (a table's unused slots)."""
    m = np.asarray(m, dtype=float)
    out = np.zeros((rows, m.shape[1]))
    out[:m.shape[0]] = m
    return out.tolist()


def preview(ex, x, query):
    """The semantic head over the example's sentence, X (n, 6): (the query used, its index,
    its row of scores and of weights, n floats each). A query the sentence lacks falls back
    to 它."""
    tokens = ex["tokens"]
    w_q, w_k, w_v = semantic_head_of(ex)
    weights, _, scores = attention(x @ w_q, x @ w_k, x @ w_v)  # (n, n): scale 1, / sqrt(6)
    query = query if query in tokens else PRONOUN
    i = tokens.index(query)
    return query, i, scores[i].tolist(), weights[i].tolist()


def grid_parts(ex, book):
    """The grid and what follows the sentence's tokens: the cells (each linked to its token's
    place in the sentence), that place per book token ("" when the sentence lacks it)."""
    tokens = ex["tokens"]
    # the grid's rows light up with the sentence's bars and query buttons (linking.js)
    at = [str(tokens.index(t)) if t in tokens else "" for t in TOKENS]

    def cells(r):
        return [{**cell(f"{TOKENS[r]}「{FEATURES[j]}」", ex["x"][r][j], book["x"][r][j]),
                 "at": at[r]} for j in range(len(FEATURES))]
    return {"cells": [cells(r) for r in range(len(TOKENS))], "book_at": at}


def grid():
    """What never changes: the grid's tokens and features."""
    return {"tokens": TOKENS, "features": FEATURES}


def checked(example=None):
    """What the example decides: the example as checked (what differs from the book's, what was
    wrong with it), the grid, the sentence's slots, the positions, the palette, W_Q's row."""
    ex, problem = resolve_example(example)
    book = default_example()
    tokens, n = ex["tokens"], len(ex["tokens"])
    x = sentence_embeddings(ex)  # (n, 6)
    diff = changes(ex)
    return {
        "x": ex["x"], "pronoun": ex["pronoun"],  # the page edits a copy of these three
        "sentence": tokens, "n": n,
        "canonical": canonical(ex),
        "full": n >= MAX_TOKENS,
        "problem": problem,
        "problem_text": "链接里的例子无法使用，这里显示的是书中的例子。" if problem else "",
        "n_changed": len(diff),
        "changes": "；".join(f"{name} {a} → {b}" for name, a, b in diff)
                   or "和书中的例子相同",
        "slots": sentence_slots(tokens), "positions": positions(tokens),
        **grid_parts(ex, book), "sentence_x": padded(x, MAX_TOKENS),  # (n, 6) in 12 rows
        "palette": palette_rows(ex),
        "pronoun_cells": [cell(f"W_Q 代词行「{FEATURES[j]}」", ex["pronoun"][j],
                               book["pronoun"][j]) for j in range(len(FEATURES))],
        "_ex": ex, "_x": x,
    }


def query_row(query, head, checked):
    """The preview: the query's row of the semantic head (它 for a query the sentence lacks)."""
    ex, x = checked["_ex"], checked["_x"]
    tokens, n = ex["tokens"], len(ex["tokens"])
    query, i, scores, row = preview(ex, x, query)
    strongest = row.index(max(row))  # the first of equal weights, as np.argmax
    spare = [0.0] * (MAX_TOKENS - n)
    chart = figure.bars(row, tokens, slots=MAX_TOKENS, top=1.0, digits=3, height=150)
    for b, t in zip(chart["bars"], tokens):
        b["say"] = f"{query} → {t}：{figure.fmt(b['value'], 4)}"
    return {
        "query": query, "index": i, "head": head,
        "row": row + spare,  # (MAX_TOKENS,): the query's weights, the spare slots 0
        # the 数值 table of the query's row: score (q·k / sqrt(6)) and weight for each key
        "row_table": [[s, w] for s, w in zip(scores + spare, row + spare)],
        "top": {"token": tokens[strongest], "weight": row[strongest]},
        "bars": chart,
    }


PARTS = (grid, checked, query_row)
