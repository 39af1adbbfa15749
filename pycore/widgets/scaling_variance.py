"""Widget scaling-variance: for a chosen d_k, N seeded pairs of random q, k with unit-variance
entries; histograms of q.k and of q.k / sqrt(d_k) and their measured variances.

Each sample of q.k is drawn as |q| z, with |q|^2 ~ chi-square(d_k) and z ~ N(0, 1): the same
distribution as summing d_k products q_i k_i (pycore/variance.py says why), at a cost that
does not grow with d_k.

The bins are fixed (they do not follow d_k), so the reader sees the raw histogram widen as d_k
grows while the scaled one keeps its shape. Both histograms share one count axis, fixed too
(COUNT_TOP, unless a draw has a taller bar): the raw one flattens as it widens, the same 2000
samples spread over more bins, while the scaled one stays where it is.

The bins and the x axes never change: without `shown` the view is whole (the build, the
tests); the page, which already shows them, passes `shown` and gets only what a draw changes.
"""
import numpy as np

from .. import figure
from ..variance import variance_demo

N = 2000  # samples per draw
RAW_EDGES = np.linspace(-128.0, 128.0, 65)   # 64 bins of width 4: +-4 std at d_k = 1024
SCALED_EDGES = np.linspace(-4.0, 4.0, 33)    # 32 bins of width 0.25: +-4 std of N(0, 1)
FIRST = 3  # how many individual samples are shown (they pin down the random stream)
COUNT_TOP = 1000  # the count axis: the tallest bar at d_k = 4 (the narrowest raw) is ~960
RAW_TICKS = [-128, -64, 0, 64, 128]
SCALED_TICKS = [-4, -2, 0, 2, 4]
HIST = {"width": 400, "height": 170, "margin": (16, 12, 22, 36)}  # side by side on a page

# What the page already displays is an input of the view, not a block parameter: the fixed
# part depends on no parameter, so any `shown` means the page has it.
INPUTS = ("shown",)

PARAMS = {
    "d_k": {"type": "choice", "choices": [2 ** e for e in range(2, 11)], "default": 64,
            "help": "length of q and k (the slider steps through powers of two)"},
    "seed": {"type": "int", "min": 0, "max": 2 ** 31 - 1, "default": 0,
             "help": "seed of NumPy's default_rng; the new-sample button adds 1"},
}


def drawn(hist):
    """What a new draw changes in a histogram: the bars' tops and readouts, the std lines and
    (rarely) the count axis."""
    bars = hist["bars"]
    return {"bars": {"y": bars["y"], "h": bars["h"], "say": bars["say"]},
            "rules": hist["rules"], "y_ticks": hist["y_ticks"], "top": hist["top"]}


def view(d_k, seed, shown=None):
    demo = variance_demo(d_k, N, seed, edges=RAW_EDGES, scaled_edges=SCALED_EDGES)
    counts_raw, counts_scaled = demo["counts_raw"], demo["counts_scaled"]
    std_raw, std_scaled = demo["std_raw"], demo["std_scaled"]
    top = max(COUNT_TOP, figure.nice_max(int(max(counts_raw.max(), counts_scaled.max()))))
    # the two histograms on one count axis, dashed lines at ± the measured std
    hist_raw = figure.histogram(counts_raw, RAW_EDGES, top=top, x_ticks=RAW_TICKS,
                                rules=[-std_raw, std_raw], **HIST)
    hist_scaled = figure.histogram(counts_scaled, SCALED_EDGES, top=top, digits=2,
                                   x_ticks=SCALED_TICKS, rules=[-std_scaled, std_scaled], **HIST)
    out = {
        "d_k": d_k,
        "d_k_say": f"d_k = {d_k}",  # the slider's spoken value
        "seed": seed, "n": N, "sqrt_d_k": float(np.sqrt(d_k)),
        "var_raw": demo["var_raw"], "var_scaled": demo["var_scaled"],
        "std_raw": std_raw, "std_scaled": std_scaled,
        "first_sq_norm": demo["sq_norm"][:FIRST], "first_z": demo["z"][:FIRST],
        "first_raw": demo["raw"][:FIRST], "first_scaled": demo["scaled"][:FIRST],
        "counts_raw": counts_raw, "counts_scaled": counts_scaled,
        "max_raw": int(counts_raw.max()), "max_scaled": int(counts_scaled.max()),
        "outside_raw": demo["below_raw"] + demo["above_raw"],
        "outside_scaled": demo["below_scaled"] + demo["above_scaled"],
    }
    if shown is not None:
        return {**out, "hist_raw": drawn(hist_raw), "hist_scaled": drawn(hist_scaled)}
    return {**out, "edges_raw": RAW_EDGES, "edges_scaled": SCALED_EDGES,
            "hist_raw": hist_raw, "hist_scaled": hist_scaled}
