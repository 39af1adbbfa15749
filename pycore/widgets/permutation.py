"""Widget permutation: reorder the running example and compare each token's attention output
with the output it had in the original order. The math is pycore.positional.permutation_outputs
(the semantic head, optionally with sinusoidal PE added to the embeddings).

The order is `perm` (new slot s holds old token perm[s]) when given, else a shuffle drawn
from `seed` (seed 0 = the original order). The shuffle is a Fisher-Yates pass driven by a
small linear congruential generator, so CPython and Pyodide draw the same order from a seed.
"""
import numpy as np

from .. import example, positional

N = len(example.TOKENS)

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



def view(seed, perm, positions):
    order = [int(round(i)) for i in perm] if len(perm) else seeded_order(seed)
    r = positional.permutation_outputs(order, positions)
    diff = r["max_abs_diff"]
    return {
        "seed": seed, "perm": r["perm"], "positions": positions,
        "tokens": r["tokens"], "original_tokens": example.TOKENS, "features": example.FEATURES,
        "sentence": "".join(r["tokens"]),
        "original": r["original"], "shuffled": r["shuffled"], "moved": r["original_moved"],
        "diff_per_slot": r["diff_per_slot"],
        "diff_rows": np.asarray(r["diff_per_slot"]).reshape(-1, 1),  # (9, 1) for a table column
        "max_abs_diff": diff,  # printed in e-notation by the page
        "verdict": "不同：换了位置，输出就变了" if diff > 1e-9 else "相同：只是跟着词挪了座位",
    }
