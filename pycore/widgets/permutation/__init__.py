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

The view comes in parts (PARTS, pycore/view_parts.py): the sentence, its original outputs
(and the first heatmap's places and readouts), and the order's. A new order brings the second
heatmap, the lines and the first heatmap's colours: the two share one scale, which the new
order's outputs may stretch (with positions on).
"""

import numpy as np

from ... import figure, positional
from ...example import (FEATURES, MAX_TOKENS, TOKENS, resolve_example, semantic_head_of,
                       sentence_embeddings)
from ..attention import padded

CELL = 22               # SVG units of a heatmap cell
LABEL_W, TOP = 36, 40   # the first heatmap's row labels; the titles and column numbers above
GAP = 48                # between the two heatmaps: the lines from old rows to new ones

INPUTS = ("example",)  # the reader's edited example, from the page (None: the book's)
# the first heatmap's keys that its scale (set by both heatmaps, so by the order) decides
SCALED = ("c", "legend")

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


def sentence(example=None):
    """What only the example decides: its sentence, and for the parts after it X (n, 6), W_Q
    and the picture's row labels."""
    ex, _ = resolve_example(example)
    tokens = list(ex["tokens"])
    n = len(tokens)
    return {"n": n, "original_tokens": tokens, "features": FEATURES,
            "sentence_slots": slot_list(tokens, range(n), n),  # the original order
            "fig": {"row_hidden": [s >= n for s in range(MAX_TOKENS)]},
            "_tokens": tokens, "_x": sentence_embeddings(ex), "_w_q": semantic_head_of(ex)[0],
            "_labels": tokens + [""] * (MAX_TOKENS - n)}


def outputs(sen, order, positions):
    """pycore.positional.permutation_outputs of the sentence in this order."""
    return positional.permutation_outputs(order, positions, x=sen["_x"], w_q=sen["_w_q"],
                                          tokens=sen["_tokens"])


def slot_list(labels, keys, n):
    """MAX_TOKENS slots: each a label, the original index of its token ("" unused), hidden."""
    return [{"label": labels[s] if s < n else "", "token": str(keys[s]) if s < n else "",
             "hidden": s >= n} for s in range(MAX_TOKENS)]


def heat(matrix, labels, n, **kw):
    """figure.heatmap(form="grid") over MAX_TOKENS rows (the used n, then zeros); the spare
    rows say nothing."""
    g = figure.heatmap(padded(matrix, MAX_TOKENS), labels, FEATURES, form="grid", cell=CELL,
                       label_h=TOP, **kw)
    for row in g["say"][n:]:
        row[:] = [""] * len(row)
    return g


def picture(sen, order, original, shuffled, changed):
    """Both heatmaps on one diverging scale (the larger |value| of the two), the second one
    (its rows in the new order, their labels at its right) GAP to the right of the first;
    each original row i linked to its new slot s (order[s] = i). The viewBox frames the n used
    rows; the spare ones lie below it, hidden."""
    n, tokens = sen["n"], sen["_tokens"]
    new_labels = [tokens[i] for i in order] + [""] * (MAX_TOKENS - n)
    limit = float(max(np.abs(original).max(), np.abs(shuffled).max()))
    before = heat(original, sen["_labels"], n, label_w=LABEL_W, limit=limit)
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
            "after_x": after_x, "row_y": row_y,
            "after_col_x": [x + CELL / 2 for x in after["xs"]],
            "after_title_x": figure.r(after_x + after["width"] / 2),
            "after_label_x": after["width"] + 6,
            "before": {k: before[k] for k in SCALED}, "after": after, "links": links,
            "slot_tokens": [str(i) for i in order] + [""] * (MAX_TOKENS - n),
            "legend": before["legend"], "limit": limit}


def unmoved(sen, original):
    """The first heatmap but its colours: the places and readouts of the original outputs."""
    before = heat(original, sen["_labels"], sen["n"], label_w=LABEL_W)
    return {"title_y": 14, "col_y": TOP - 8,
            "cols": [str(j + 1) for j in range(len(FEATURES))],
            "before_col_x": [x + CELL / 2 for x in before["xs"]],
            "before_title_x": figure.r((LABEL_W + before["width"]) / 2),
            "before_label_x": LABEL_W - 6,
            "before": {k: v for k, v in before.items() if k not in SCALED}}


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

def original(sentence, positions):
    """The sentence's outputs in its own order, and the first heatmap but its colours."""
    r = outputs(sentence, list(range(sentence["n"])), positions)
    return {"positions": positions, "original": padded(r["original"], MAX_TOKENS),
            "fig": unmoved(sentence, r["original"])}


def reordered(sentence, seed, perm, positions):
    """What the order decides: the outputs after it, the second heatmap, the lines, the
    first heatmap's colours (the scale is the larger |value| of both heatmaps)."""
    sen, n = sentence, sentence["n"]
    order, perm_note = order_of(seed, perm, n)
    r = outputs(sen, order, positions)
    diff = r["max_abs_diff"]
    changed = [d > 1e-9 for d in r["diff_per_slot"]]
    return {
        "seed": seed, "perm": r["perm"],
        "perm_note": perm_note,  # "" unless perm was set aside for the seed's shuffle
        "tokens": r["tokens"],
        "slots": slot_list(r["tokens"], order, n),         # the new order, in MAX_TOKENS slots
        "sentence": "".join(r["tokens"]),
        # each (n, 6) in (MAX_TOKENS, 6), zeros below
        "shuffled": padded(r["shuffled"], MAX_TOKENS),
        "moved": padded(r["original_moved"], MAX_TOKENS),
        "diff_per_slot": r["diff_per_slot"],  # (n,)
        "diff_rows": padded(np.asarray(r["diff_per_slot"]).reshape(-1, 1), MAX_TOKENS),
        "max_abs_diff": diff,  # printed in e-notation by the page
        "n_changed": sum(changed),
        "verdict": "不同：换了位置，输出就变了" if diff > 1e-9 else "相同：只是跟着词挪了座位",
        "fig": picture(sen, order, r["original"], r["shuffled"], changed),
    }


PARTS = (sentence, original, reordered)
