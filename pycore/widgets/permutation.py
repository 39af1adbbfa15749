"""Widget permutation: reorder the running example and compare each token's attention output
with the output it had in the original order. The math is pycore.positional.permutation_outputs
(the semantic head, optionally with sinusoidal PE added to the embeddings); the picture is the
outputs before and after as two heatmaps on one diverging scale, a line from each token's old
row to its new one.

The order is `perm` (new slot s holds old token perm[s]) when given, else a shuffle drawn
from `seed` (seed 0 = the original order). The shuffle is a Fisher-Yates pass driven by a
small linear congruential generator, so CPython and Pyodide draw the same order from a seed.
"""
import numpy as np

from .. import figure, positional
from ..example import (FEATURES, TOKENS, embeddings, resolve_example, semantic_head_of,
                       sentence_note)

N = len(TOKENS)
CELL = 22               # SVG units of a heatmap cell
LABEL_W, TOP = 36, 40   # the first heatmap's row labels; the titles and column numbers above
GAP = 48                # between the two heatmaps: the lines from old rows to new ones

INPUTS = ("example",)  # the reader's edited example, from the page (None: the book's)

PARAMS = {
    "seed": {"type": "int", "min": 0, "max": 9999, "default": 1,
             "help": "seed of the shuffle (0 = original order); used when perm is empty"},
    "perm": {"type": "vector", "min_length": 0, "max_length": N, "min": 0, "max": N - 1,
             "default": [], "help": "explicit order: slot s holds original token perm[s]"},
    "positions": {"type": "bool", "default": False,
                  "help": "add the sinusoidal positional encoding of each slot first"},
}


def seeded_order(seed, n=N):
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



def picture(order, original, shuffled, changed):
    """Both heatmaps on one diverging scale (the larger |value| of the two), the second one
    (its rows in the new order, their labels at its right) GAP to the right of the first;
    each original row i linked to its new slot s (order[s] = i)."""
    tokens = [TOKENS[i] for i in order]
    limit = float(max(np.abs(original).max(), np.abs(shuffled).max()))
    before = figure.heat_grid(original, TOKENS, FEATURES, cell=CELL,
                              left=LABEL_W, top=TOP, limit=limit)
    after = figure.heat_grid(shuffled, tokens, FEATURES, cell=CELL, top=TOP, limit=limit)
    after_x = before["width"] + GAP
    row_y = [y + CELL / 2 for y in before["ys"]]  # the rows' middles, on both sides
    slot_of = {i: s for s, i in enumerate(order)}
    links = figure.row_links([(i, slot_of[i]) for i in range(N)], row_y, row_y,
                             x0=before["width"] + 3, x1=after_x - 3)
    for link in links:
        link["changed"] = bool(changed[link["j"]])  # drawn dashed: the token's output changed
    return {"width": after_x + after["width"] + LABEL_W, "height": before["height"],
            "after_x": after_x, "title_y": 14, "col_y": TOP - 8, "row_y": row_y,
            "cols": [str(j + 1) for j in range(len(FEATURES))],
            "before_col_x": [x + CELL / 2 for x in before["xs"]],
            "after_col_x": [x + CELL / 2 for x in after["xs"]],
            "before_title_x": figure.r((LABEL_W + before["width"]) / 2),
            "after_title_x": figure.r(after_x + after["width"] / 2),
            "before_label_x": LABEL_W - 6, "after_label_x": after["width"] + 6,
            "before": before, "after": after, "links": links,
            "slot_tokens": [str(i) for i in order], "legend": before["legend"]}


def view(seed, perm, positions, example=None):
    ex, _ = resolve_example(example)
    order = [int(round(i)) for i in perm] if len(perm) else seeded_order(seed)
    r = positional.permutation_outputs(order, positions, x=embeddings(ex),
                                       w_q=semantic_head_of(ex)[0])
    diff = r["max_abs_diff"]
    changed = [d > 1e-9 for d in r["diff_per_slot"]]
    return {
        "seed": seed, "perm": r["perm"], "positions": positions,
        "sentence_note": sentence_note(ex),  # the nine book tokens only, so far
        "tokens": r["tokens"], "original_tokens": TOKENS, "features": FEATURES,
        "sentence": "".join(r["tokens"]),
        "original": r["original"], "shuffled": r["shuffled"], "moved": r["original_moved"],
        "diff_per_slot": r["diff_per_slot"],
        "diff_rows": np.asarray(r["diff_per_slot"]).reshape(-1, 1),  # (9, 1) for a table column
        "max_abs_diff": diff,  # printed in e-notation by the page
        "n_changed": sum(changed),
        "verdict": "不同：换了位置，输出就变了" if diff > 1e-9 else "相同：只是跟着词挪了座位",
        "fig": picture(order, r["original"], r["shuffled"], changed),
    }
