"""x @ W for a layer's weights, computed the way each runtime does fastest, to the same numbers.

CPython's NumPy hands `@` to BLAS. Pyodide's NumPy has no BLAS, and its `@` falls back to a
plain loop that, for every entry of the output, walks down a column of W (a whole row's
stride per step) and writes the running sum back to memory at every step. np.einsum's loop
runs the other way: it adds x's entry times a row of W into a row of the output, contiguous
memory the machine streams through. Each output entry still gets the same products added in
the same order (over d = 0, 1, ...), so in Pyodide both give the same bits, einsum about 1.5
times faster on the poem model's matrices (benchmarks/char_gpt.py). In CPython einsum would
skip BLAS and be many times slower, so there `@` stays.
"""
import sys

import numpy as np


def by_rows(x, w):
    """x (..., d) @ w (d, e) as einsum's loop computes it (see above)."""
    return np.einsum("...d,de->...e", x, w)


# linear(x, w) = x @ w (..., d) -> (..., e). Pyodide is the runtime whose NumPy has no BLAS.
linear = by_rows if sys.platform == "emscripten" else np.matmul
