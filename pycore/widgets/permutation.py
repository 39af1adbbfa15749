"""Widget permutation: reorder the reader's sentence and compare each token's attention output
with the output it had in the original order. The math is pycore.positional.permutation_outputs
(the semantic head, optionally with sinusoidal PE added to the embeddings); the picture is the
outputs before and after as two heatmaps on one diverging scale, a line from each token's old
row to its new one.

The order is `perm` (new slot s holds old token perm[s]) when given, else a shuffle drawn
from `seed` (seed 0 = the original order). The shuffle is a Fisher-Yates pass driven by a
small linear congruential generator in whole-number arithmetic, so CPython and Pyodide draw
the same order from a seed.

The reader's sentence has 4 to 12 tokens (pycore.example.PALETTE): the page keeps MAX_TOKENS
slots of every token list (the chips, both heatmaps' rows, the lines, the tables' rows), and
the view fills them, the unused ones hidden and below the viewBox, which frames the used rows.
A `perm` that is not an order of this sentence's n tokens (a link made for another sentence)
is set aside for the seed's shuffle, and `perm_note` says so.
"""
import json
from functools import lru_cache

import numpy as np

from .. import figure, positional
from ..example import (FEATURES, MAX_TOKENS, TOKENS, resolve_example, semantic_head_of,
                       sentence_embeddings)
from .attention import padded

CELL = 22               # SVG units of a heatmap cell
LABEL_W, TOP = 36, 40   # the first heatmap's row labels; the titles and column numbers above
GAP = 48                # between the two heatmaps: the lines from old rows to new ones

# the reader's edited example, from the page (None: the book's); and what the page shows (its
# example, positions and scale): the first heatmap, the original outputs, depends on nothing
# else, so a new order brings back only the second one and the lines
INPUTS = ("example", "shown")
UNMOVED = ("before", "before_col_x", "before_title_x", "before_label_x", "cols", "title_y",
           "col_y", "legend", "row_hidden")  # the parts of the picture a new order leaves

PARAMS = {
    "seed": {"type": "int", "min": 0, "max": 9999, "default": 1,
             "help": "seed of the shuffle (0 = original order); used when perm is empty"},
    "perm": {"type": "vector", "min_length": 0, "max_length": MAX_TOKENS, "min": 0,
             "max": MAX_TOKENS - 1, "default": [],
             "help": "explicit order: slot s holds original token perm[s] (an order of the "
                     "sentence's n tokens; any other falls back to the seed's shuffle)"},
    "positions": {"type": "bool", "default": False,
                  "help": "add the sinusoidal positional encoding of each slot first"},
}


def seeded_order(seed, n=len(TOKENS)):
    """A permutation of 0..n-1 from seed (Fisher-Yates on an LCG: a=1103515245, c=12345, m=2^31)."""
    order = list(range(n))
    state = seed
    for _ in range(4):  # warm up, so that neighbouring seeds give unrelated orders
        state = (1103515245 * state + 12345) % 2 ** 31
    for i in range(n - 1, 0, -1):
        state = (1103515245 * state + 12345) % 2 ** 31
        j = (state >> 16) % (i + 1)
        order[i], order[j] = order[j], order[i]
    if seed and order == list(range(n)):
        order = order[1:] + order[:1]  # a nonzero seed always moves something
    return order if seed else list(range(n))


def order_of(seed, perm, n):
    """(the order drawn, the note saying why perm was set aside, "" if it was not): perm when
    it holds each of 0..n-1 once, else the seed's shuffle of the n tokens."""
    if not len(perm):
        return seeded_order(seed, n), ""
    if all(float(p).is_integer() for p in perm) and sorted(int(p) for p in perm) == \
            list(range(n)):
        return [int(p) for p in perm], ""
    given = "[" + ", ".join(f"{p:g}" for p in perm) + "]"
    instead = f"按种子 {seed} 打乱" if seed else "保持原顺序（种子 0）"
    return seeded_order(seed, n), (f"给定的顺序 perm = {given} 不是这句话 {n} 个词的排列"
                                   f"（0 到 {n - 1} 各出现一次），所以{instead}。")


@lru_cache(maxsize=8)
def _sentence(example_json):
    """What only the example decides: its sentence, X (n, 6), W_Q and the picture's rows, for
    the example as the page sends it (JSON text). Callers must not modify it."""
    ex, _ = resolve_example(json.loads(example_json))
    tokens = list(ex["tokens"])
    n = len(tokens)
    return {"tokens": tokens, "n": n, "x": sentence_embeddings(ex),
            "w_q": semantic_head_of(ex)[0],
            "labels": tokens + [""] * (MAX_TOKENS - n),
            "row_hidden": [s >= n for s in range(MAX_TOKENS)]}


def slot_list(labels, keys, n):
    """MAX_TOKENS slots: each a label, the original index of its token ("" unused), hidden."""
    return [{"label": labels[s] if s < n else "", "token": str(keys[s]) if s < n else "",
             "hidden": s >= n} for s in range(MAX_TOKENS)]


def heat(matrix, labels, n, **kw):
    """figure.heat_grid over MAX_TOKENS rows (the used n, then zeros); the spare rows say
    nothing."""
    g = figure.heat_grid(padded(matrix, MAX_TOKENS), labels, FEATURES, cell=CELL, top=TOP, **kw)
    for row in g["say"][n:]:
        row[:] = [""] * len(row)
    return g


def picture(sen, order, original, shuffled, changed):
    """Both heatmaps on one diverging scale (the larger |value| of the two), the second one
    (its rows in the new order, their labels at its right) GAP to the right of the first;
    each original row i linked to its new slot s (order[s] = i). The viewBox frames the n used
    rows; the spare ones lie below it, hidden."""
    n, tokens = sen["n"], sen["tokens"]
    new_labels = [tokens[i] for i in order] + [""] * (MAX_TOKENS - n)
    limit = float(max(np.abs(original).max(), np.abs(shuffled).max()))
    before = heat(original, sen["labels"], n, left=LABEL_W, limit=limit)
    after = heat(shuffled, new_labels, n, limit=limit)
    after_x = before["width"] + GAP
    row_y = [y + CELL / 2 for y in before["ys"]]  # the rows' middles, on both sides
    slot_of = {i: s for s, i in enumerate(order)}
    links = figure.row_links([(i, slot_of[i]) for i in range(n)], row_y, row_y,
                             x0=before["width"] + 3, x1=after_x - 3)
    for link in links:
        link["changed"] = bool(changed[link["j"]])  # drawn dashed: the token's output changed
        link["hidden"] = False
    links += [{"i": i, "j": i, "d": "M0,0", "changed": False, "hidden": True}
              for i in range(n, MAX_TOKENS)]
    width, height = after_x + after["width"] + LABEL_W, TOP + n * CELL
    return {"width": width, "height": height, "viewbox": f"0 0 {width} {height}",
            "after_x": after_x, "title_y": 14, "col_y": TOP - 8, "row_y": row_y,
            "cols": [str(j + 1) for j in range(len(FEATURES))],
            "before_col_x": [x + CELL / 2 for x in before["xs"]],
            "after_col_x": [x + CELL / 2 for x in after["xs"]],
            "before_title_x": figure.r((LABEL_W + before["width"]) / 2),
            "after_title_x": figure.r(after_x + after["width"] / 2),
            "before_label_x": LABEL_W - 6, "after_label_x": after["width"] + 6,
            "before": before, "after": after, "links": links, "row_hidden": sen["row_hidden"],
            "slot_tokens": [str(i) for i in order] + [""] * (MAX_TOKENS - n),
            "legend": before["legend"], "limit": limit}


def check_block(params):
    """A block of the book is written for the book's sentence: a perm that is not an order of
    its tokens is a mistake there (a reader's link of another sentence gets perm_note)."""
    perm = params.get("perm") or []
    n = len(TOKENS)
    if len(perm) and order_of(0, perm, n)[1]:
        given = ", ".join(f"{p:g}" for p in perm)
        return (f"perm = [{given}] is not an order of the book's {n} tokens: give each of "
                f"0..{n - 1} once (slot s holds token perm[s]), or leave perm out to use seed")
    return None

def view(seed, perm, positions, example=None, shown=None):
    sen = _sentence(json.dumps(example, sort_keys=True, ensure_ascii=False))
    n, tokens = sen["n"], sen["tokens"]
    order, perm_note = order_of(seed, perm, n)
    r = positional.permutation_outputs(order, positions, x=sen["x"], w_q=sen["w_q"],
                                       tokens=tokens)
    diff = r["max_abs_diff"]
    changed = [d > 1e-9 for d in r["diff_per_slot"]]
    out = {
        "seed": seed, "perm": r["perm"], "positions": positions, "n": n,
        "perm_note": perm_note,  # "" unless perm was set aside for the seed's shuffle
        "tokens": r["tokens"], "original_tokens": tokens, "features": FEATURES,
        "slots": slot_list(r["tokens"], order, n),         # the new order, in MAX_TOKENS slots
        "sentence_slots": slot_list(tokens, range(n), n),  # the original order
        "sentence": "".join(r["tokens"]),
        # each (n, 6) in (MAX_TOKENS, 6), zeros below
        "original": padded(r["original"], MAX_TOKENS),
        "shuffled": padded(r["shuffled"], MAX_TOKENS),
        "moved": padded(r["original_moved"], MAX_TOKENS),
        "diff_per_slot": r["diff_per_slot"],  # (n,)
        "diff_rows": padded(np.asarray(r["diff_per_slot"]).reshape(-1, 1), MAX_TOKENS),
        "max_abs_diff": diff,  # printed in e-notation by the page
        "n_changed": sum(changed),
        "verdict": "不同：换了位置，输出就变了" if diff > 1e-9 else "相同：只是跟着词挪了座位",
        "fig": picture(sen, order, r["original"], r["shuffled"], changed),
    }
    fig = out["fig"]
    if isinstance(shown, dict) and shown.get("example", False) == example and \
            shown.get("positions") == positions and shown.get("limit") == fig["limit"]:
        # the page shows this sentence's original outputs on this scale
        for key in ("original", "original_tokens", "sentence_slots", "features"):
            del out[key]
        out["fig"] = {k: v for k, v in fig.items() if k not in UNMOVED}
    return out
