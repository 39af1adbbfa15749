"""Widget chinchilla: model size N, training tokens D and compute C = 6 N D, against the
compute-optimal rule of about 20 tokens per parameter.

Which numbers the reader gave decides the rest:
- flops > 0: the compute-optimal split of that budget (N = sqrt(C / 120), D = 20 N);
- else tokens > 0: this N trained on this D (a real model, or any pair);
- else: N trained on the compute-optimal D = 20 N.
The ratio scale is a log axis: RATIO_W SVG units from 1 to 1000 tokens per parameter.
"""
import math

from ..notation import log10, scaled, sci
from ..schedule import TOKENS_PER_PARAM, chinchilla

RATIO_W = 480
PRESETS = [  # name, parameters, training tokens (chapter 13's table)
    ("Chinchilla", 70e9, 1.4e12),
    ("Gopher", 280e9, 300e9),
    ("GPT-3", 175e9, 300e9),
    ("LLaMA-7B", 7e9, 1e12),
]

PARAMS = {
    "params": {"type": "float", "min": 1e8, "max": 1e12, "default": 7e9,
               "help": "N, the number of parameters"},
    "tokens": {"type": "float", "min": 0.0, "max": 1e15, "default": 0.0,
               "help": "D, training tokens; below 1 = the compute-optimal 20 N"},
    "flops": {"type": "float", "min": 0.0, "max": 1e27, "default": 0.0,
              "help": "a compute budget C in FLOPs; when >= 1 it decides N and D"},
}


def ratio_x(ratio):
    """Position of a tokens-per-parameter ratio on the log axis (1 -> 0, 1000 -> RATIO_W);
    ratios below 1 (even one that underflowed to 0) sit at the left end."""
    return RATIO_W * min(3.0, math.log10(max(ratio, 1.0))) / 3.0


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


def view(params, tokens, flops):
    # Below one token or one FLOP a figure means "not given" (it would underflow N or D to 0).
    if flops >= 1:
        given = chinchilla(flops=flops)
    elif tokens >= 1:
        given = chinchilla(params=params, tokens=tokens)
    else:
        given = chinchilla(params=params)
    n, d, c = given["params"], given["tokens"], given["flops"]
    ratio = d / n
    times = ratio / TOKENS_PER_PARAM
    for_n = chinchilla(params=n)  # this model size, trained compute-optimally
    for_c = chinchilla(flops=c)   # this budget, split compute-optimally
    return {
        "params": n, "tokens": d, "flops": c,
        "n": scaled(n), "d": scaled(d), "c": sci(c, 2),
        "n_b": n / 1e9, "d_b": d / 1e9,  # the number boxes are in billions
        "log": {"params": log10(n), "tokens": log10(d), "flops": log10(c)},
        "ratio": ratio, "times": times, "verdict": verdict(times),
        "ratio_x": ratio_x(ratio), "optimal_x": ratio_x(TOKENS_PER_PARAM),
        "opt_d": scaled(for_n["tokens"]), "opt_c": sci(for_n["flops"], 2),
        "best_n": scaled(for_c["params"]), "best_d": scaled(for_c["tokens"]),
        "preset": preset_name(n, d),
        "presets": [{"name": name, "params": pn, "tokens": pd,
                     "label": f"{scaled(pn)['value']:g}{scaled(pn)['unit']} / "
                              f"{scaled(pd)['value']:g}{scaled(pd)['unit']}"}
                    for name, pn, pd in PRESETS],
    }
