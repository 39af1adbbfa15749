"""Widget rope-scaling: the wavelengths of RoPE's 64 rotation pairs (d_head = 128, base 10000)
as trained, and after stretching the context s times by position interpolation, NTK-aware
scaling and YaRN (pycore/rope_scaling.py).

The reader picks s and the training context L (chapter 10b's κ and n_训). The chart is log10 of each pair's wavelength
(tokens per full turn) against the pair's index, one line per method, with the training
context and the stretched one as dashed levels: a pair under the lower level turned many
times in training; above it, it never finished a turn.
"""
import numpy as np

from ... import figure
from ... import rope_scaling as rs
from ...positional import frequencies

D, BASE = 128, 10000.0
PARAMS = {
    "s": {"type": "choice", "choices": [1, 2, 4, 8, 16, 32], "default": 8,
          "help": "how many times longer the context is read than it was trained"},
    "train_len": {"type": "choice", "choices": [2048, 4096, 8192], "default": 4096,
                  "help": "the training context L in tokens"},
}
NAMES = ["原始 RoPE", "位置插值（PI）", "NTK 感知", "YaRN"]
Y_DOMAIN = (0.0, 7.0)


def wavelengths(s, train_len):
    """Each method's wavelengths 2 pi / theta_i, pair by pair."""
    thetas = [frequencies(D, BASE), rs.interpolated(D, BASE, s), rs.ntk(D, BASE, s),
              rs.yarn(D, BASE, s, train_len)]
    return [2 * np.pi / t for t in thetas]


def view(s, train_len):
    """The chart, the training and stretched contexts as levels, and the counts the prose
    quotes: pairs that never finish a turn in training, and YaRN's three groups."""
    waves = wavelengths(s, train_len)
    pairs = list(range(D // 2))
    chart = figure.line_chart(
        [{"name": n, "x": pairs, "y": np.log10(w).tolist()} for n, w in zip(NAMES, waves)],
        x_domain=(0, D // 2 - 1), y_domain=Y_DOMAIN, y_ticks=list(range(8)),
        x_ticks=[0, 16, 32, 48, 63], x_label="旋转对的序号 i（越往右转得越慢）",
        y_label="波长（每转一圈的 token 数，对数轴）")
    for t in chart["y_ticks"]:
        if t["label"]:
            t["label"] = figure.decade_label(int(t["label"]))
    plot = chart["plot"]
    level = lambda n: figure.r(figure.scale(np.log10(n), *Y_DOMAIN, plot["y"] + plot["h"],  # noqa: E731
                                            plot["y"]))
    g = rs.yarn_ramp(D, BASE, train_len)
    return {
        "s": s, "train_len": train_len, "stretched": s * train_len,
        "stretched_text": f"{s * train_len:,}",
        "slow_pairs": int((waves[0] > train_len).sum()),
        "ntk_base": float(rs.ntk_base(D, BASE, s)),
        "yarn_kept": int((g == 1).sum()), "yarn_interpolated": int((g == 0).sum()),
        "yarn_ramp": int(((g > 0) & (g < 1)).sum()),
        "yarn_factor": float(rs.yarn_temperature(s)),
        "fastest": [float(w[0]) for w in waves], "slowest": [float(w[-1]) for w in waves],
        "chart": chart,
        "levels": {"train_y": level(train_len), "stretched_y": level(s * train_len),
                   "x1": plot["x"], "x2": plot["x"] + plot["w"]},
    }
