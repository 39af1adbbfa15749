"""Widget scaling-variance: for a chosen d_k, N seeded pairs of random q, k with unit-variance
entries; histograms of q.k and of q.k / sqrt(d_k) and their measured variances.

Each sample of q.k is drawn as |q| z, with |q|^2 ~ chi-square(d_k) and z ~ N(0, 1): the same
distribution as summing d_k products q_i k_i (pycore/variance.py says why), at a cost that
does not grow with d_k.

The bins are fixed (they do not follow d_k), so the reader sees the raw histogram widen as d_k
grows while the scaled one keeps its shape. Both histograms share one count axis, fixed too
(COUNT_TOP, unless a draw has a taller bar): the raw one flattens as it widens, the same 2000
samples spread over more bins, while the scaled one stays where it is.

The view comes in parts (PARTS, pycore/view_parts.py): the bins and the x axes, which
never change, and what a draw changes (sent at every move).
"""
import numpy as np

from ... import figure
from ...variance import variance_demo

N = 2000  # samples per draw
RAW_EDGES = np.linspace(-128.0, 128.0, 65)   # 64 bins of width 4: +-4 std at d_k = 1024
SCALED_EDGES = np.linspace(-4.0, 4.0, 33)    # 32 bins of width 0.25: +-4 std of N(0, 1)
FIRST = 3  # how many individual samples are shown (they pin down the random stream)
COUNT_TOP = 1000  # the count axis: the tallest bar at d_k = 4 (the narrowest raw) is ~960
RAW_TICKS = [-128, -64, 0, 64, 128]
SCALED_TICKS = [-4, -2, 0, 2, 4]
HIST = {"width": 400, "height": 170, "margin": (16, 12, 22, 36)}  # side by side on a page

PARAMS = {
    "d_k": {"type": "choice", "choices": [2 ** e for e in range(2, 11)], "default": 64,
            "help": "length of q and k (the slider steps through powers of two)"},
    "seed": {"type": "int", "min": 0, "max": 2 ** 31 - 1, "default": 0,
             "help": "seed of NumPy's default_rng; the new-sample button adds 1"},
}


# What a new draw changes in a histogram: the bars' tops and readouts, the std lines and
# (rarely) the count axis. The rest is the same for every draw.
DRAWN = {"bars": ("y", "h", "say"), "rules": None, "y_ticks": None, "top": None}


def split(hist, drawn):
    """The keys of a histogram a draw changes (drawn=True), or the others."""
    out = {}
    for k, v in hist.items():
        if k not in DRAWN:
            if not drawn:
                out[k] = v
        elif DRAWN[k] is None:
            if drawn:
                out[k] = v
        else:
            out[k] = {kk: vv for kk, vv in v.items() if (kk in DRAWN[k]) == drawn}
    return out


def histograms(counts_raw, counts_scaled, std_raw, std_scaled):
    """The two histograms on one count axis, dashed lines at ± the measured std."""
    top = max(COUNT_TOP, figure.nice_max(int(max(counts_raw.max(), counts_scaled.max()))))
    return (figure.histogram(counts_raw, RAW_EDGES, top=top, x_ticks=RAW_TICKS,
                             rules=[-std_raw, std_raw], **HIST),
            figure.histogram(counts_scaled, SCALED_EDGES, top=top, digits=2,
                             x_ticks=SCALED_TICKS, rules=[-std_scaled, std_scaled], **HIST))


def axes():
    """The bins and the x axes: the same for every d_k and seed."""
    raw, scaled = histograms(np.zeros(len(RAW_EDGES) - 1, int),
                             np.zeros(len(SCALED_EDGES) - 1, int), 1.0, 1.0)
    return {"edges_raw": RAW_EDGES, "edges_scaled": SCALED_EDGES,
            "hist_raw": split(raw, drawn=False), "hist_scaled": split(scaled, drawn=False)}


def draw(d_k, seed):
    """What a draw of N samples for this d_k and seed shows."""
    demo = variance_demo(d_k, N, seed, edges=RAW_EDGES, scaled_edges=SCALED_EDGES)
    counts_raw, counts_scaled = demo["counts_raw"], demo["counts_scaled"]
    std_raw, std_scaled = demo["std_raw"], demo["std_scaled"]
    hist_raw, hist_scaled = histograms(counts_raw, counts_scaled, std_raw, std_scaled)
    return {
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
        "hist_raw": split(hist_raw, drawn=True), "hist_scaled": split(hist_scaled, drawn=True),
    }


PARTS = (axes, draw)
