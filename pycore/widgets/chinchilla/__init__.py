"""Widget chinchilla: model size N, training tokens D and compute C = 6 N D, against the
compute-optimal rule of about 20 tokens per parameter.

`given` says which numbers the reader gave; the rest follow:
- "N": N trained on the compute-optimal D = 20 N;
- "ND": this N trained on this D (a real model, or any pair);
- "C": the compute-optimal split of the budget C (N = sqrt(C / 120), D = 20 N).

The picture: D against N on log axes, the 20:1 line where the compute-optimal models lie,
the real models of chapter 13's table as points (above the line: more data than optimal;
below: less), the current model, the line of every (N, D) with its compute C and, where that
line meets 20:1, the best split of C.
"""
import math

from ... import figure
from ...notation import log10, scaled, sci
from ...schedule import TOKENS_PER_PARAM, chinchilla

PRESETS = [  # name, parameters, training tokens (chapter 13's table)
    ("Chinchilla", 70e9, 1.4e12),
    ("Gopher", 280e9, 300e9),
    ("GPT-3", 175e9, 300e9),
    ("LLaMA-7B", 7e9, 1e12),
]
GIVEN = ["N", "ND", "C"]

PARAMS = {
    "params": {"type": "float", "min": 1e8, "max": 1e12, "default": 7e9, "scale": "log",
               "help": "N, the number of parameters"},
    "tokens": {"type": "float", "min": 1e9, "max": 1e15, "default": 1.4e11, "scale": "log",
               "help": "D, training tokens (used when given = \"ND\")"},
    "flops": {"type": "float", "min": 1e18, "max": 1e27, "default": 5.88e21, "scale": "log",
              "help": "a compute budget C in FLOPs (used when given = \"C\")"},
    "given": {"type": "choice", "choices": GIVEN, "default": "N",
              "help": "what the reader fixed: N (then D = 20 N), N and D, or the budget C"},
}

# the chart's log axes: log10 N from 8 to 12, log10 D from 9 to 14
X_LOG, Y_LOG = (8, 12), (9, 14)
COUNT_LABELS = {8: "100M", 9: "1B", 10: "10B", 11: "100B", 12: "1T", 13: "10T", 14: "100T"}


def verdict(times):
    """In words: how the data compares with the compute-optimal amount (times = ratio / 20)."""
    if times < 0.8:
        return "数据偏少：同样的算力，换个小一点的模型多训练些 token 损失更低"
    if times > 1.25:
        return "数据多于算力最优：小模型多训练，训练贵一些，推理便宜"
    return "接近算力最优（约每个参数 20 个 token）"


def preset_name(n, d):
    for name, pn, pd in PRESETS:
        if math.isclose(n, pn, rel_tol=1e-9) and math.isclose(d, pd, rel_tol=1e-9):
            return name
    return ""


def count_text(x):
    """7e9 -> '7.00 B' (the widget's unit: B = 1e9, T = 1e12)."""
    s = scaled(x)
    return f"{s['value']:.2f} {s['unit']}".strip()


def _chart(n, d, c, best_n):
    """D against N on log axes: the 20:1 line, this budget's line N D = C / 6, the presets,
    the current model and the best split of its budget."""
    k = math.log10(c / 6.0)  # log D = k - log N along the budget's line
    lo, hi = max(X_LOG[0], k - Y_LOG[1]), min(X_LOG[1], k - Y_LOG[0])
    budget = ([lo, hi], [k - lo, k - hi]) if lo < hi else ([X_LOG[0]] * 2, [Y_LOG[0]] * 2)
    r20 = math.log10(TOKENS_PER_PARAM)
    chart = figure.line_chart(
        [{"name": "D = 20 N", "x": list(X_LOG), "y": [X_LOG[0] + r20, X_LOG[1] + r20]},
         {"name": "同样的 C", "x": budget[0], "y": budget[1]}],
        width=420, height=300, margin=(26, 16, 40, 46), x_domain=X_LOG, y_domain=Y_LOG,
        x_ticks=list(range(X_LOG[0], X_LOG[1] + 1)), y_ticks=list(range(Y_LOG[0], Y_LOG[1] + 1)),
        x_label="参数量 N", y_label="训练 token 数 D")
    for t in chart["x_ticks"] + chart["y_ticks"]:
        if not t["hidden"]:
            t["label"] = COUNT_LABELS[int(t["label"])]
    plot = chart["plot"]

    def at(nx, dx):  # a model's (N, D) in SVG units, kept inside the plot
        lx = min(X_LOG[1], max(X_LOG[0], math.log10(nx)))
        ly = min(Y_LOG[1], max(Y_LOG[0], math.log10(dx)))
        return {"x": figure.r(figure.scale(lx, *X_LOG, plot["x"], plot["x"] + plot["w"])),
                "y": figure.r(figure.scale(ly, *Y_LOG, plot["y"] + plot["h"], plot["y"]))}

    chart["presets"] = [{**at(pn, pd), "name": name, "ratio": pd / pn,
                         "say": f"{name}：N = {count_text(pn)}，D = {count_text(pd)}，"
                                f"每个参数 {pd / pn:.1f} 个 token"}
                        for name, pn, pd in PRESETS]
    for p in chart["presets"]:  # a label right of its point; GPT-3's left (Gopher is near)
        left = p["name"] == "GPT-3"
        p["tx"], p["anchor"] = (p["x"] - 8, "end") if left else (p["x"] + 8, "start")
    chart["now"] = {**at(n, d), "say": f"当前：N = {count_text(n)}，D = {count_text(d)}，"
                                       f"每个参数 {d / n:.1f} 个 token"}
    chart["best"] = at(best_n, TOKENS_PER_PARAM * best_n)
    chart["line_label"] = at(10 ** (X_LOG[1] - 0.55), TOKENS_PER_PARAM * 10 ** (X_LOG[1] - 0.55))
    return chart


def view(params, tokens, flops, given):
    if given == "C":
        g = chinchilla(flops=flops)
    elif given == "ND":
        g = chinchilla(params=params, tokens=tokens)
    else:
        g = chinchilla(params=params)
    n, d, c = g["params"], g["tokens"], g["flops"]
    ratio = d / n
    times = ratio / TOKENS_PER_PARAM
    for_n = chinchilla(params=n)  # this model size, trained compute-optimally
    for_c = chinchilla(flops=c)   # this budget, split compute-optimally
    return {
        "params": n, "tokens": d, "flops": c, "given": given,
        "n": scaled(n), "d": scaled(d), "c": sci(c, 2),
        "n_text": count_text(n), "d_text": count_text(d),
        "box": {k: f"{x:.4g}" for k, x in (("params", n), ("tokens", d), ("flops", c))},
        "c_text": f"{sci(c, 2)['m']:.2f}e{sci(c, 2)['e']}",
        "log": {"params": log10(n), "tokens": log10(d), "flops": log10(c)},
        "ratio": ratio, "times": times, "verdict": verdict(times),
        "opt_d": scaled(for_n["tokens"]), "opt_c": sci(for_n["flops"], 2),
        "best_n": scaled(for_c["params"]), "best_d": scaled(for_c["tokens"]),
        "preset": preset_name(n, d),
        "presets": [{"name": name, "params": pn, "tokens": pd,
                     "label": f"{scaled(pn)['value']:g}{scaled(pn)['unit']} / "
                              f"{scaled(pd)['value']:g}{scaled(pd)['unit']}"}
                    for name, pn, pd in PRESETS],
        "chart": _chart(n, d, c, for_c["params"]),
    }
