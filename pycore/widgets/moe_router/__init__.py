"""Widget moe-router: a mixture-of-experts router over the running example's nine tokens.

The reader picks the number of experts E (the book's n_专家), how many each token goes to (k), the router's
temperature and its seed (pycore/moe.py). The picture is a token x expert grid of the
router's probabilities, the k chosen cells of each row framed with their gates written in,
and under each expert's column a bar of its load (how many tokens it got) against the load
of a perfect balance, n k / E. The key figures are the Switch load-balance loss and what a
Mixtral-sized model with this E and k stores and uses per token.

The grid keeps MAX_EXPERTS column slots at fixed places; the view hides the unused ones and
its viewBox frames the E used columns, so the page redraws the same elements for any E.
"""
from ... import figure, moe
from ...example import EMBEDDINGS, FEATURES, TOKENS

MAX_EXPERTS = 8
PARAMS = {
    "experts": {"type": "int", "min": 2, "max": MAX_EXPERTS, "default": 8,
                "help": "the number of experts E"},
    "k": {"type": "int", "min": 1, "max": 4, "default": 2,
          "help": "how many experts each token goes to (top-k); at most E"},
    "temperature": {"type": "float", "min": 0.25, "max": 4.0, "default": 1.0, "scale": "log",
                    "help": "divides the router's logits before the softmax"},
    "seed": {"type": "int", "min": 0, "max": 20, "default": 0,
             "help": "the seed of the router's Gaussian weights W_r (6 x E)"},
}

# The model whose size the widget states: a Mixtral-8x7B-like decoder (SwiGLU experts, GQA).
CONFIG = {"d_model": 4096, "n_layers": 32, "vocab": 32000, "d_ff": 14336, "n_heads": 32,
          "n_kv_heads": 8}

SIZE_TOP = 50.0  # billions: the sizes chart's fixed axis holds E = 8 (46.70B)

# The picture, SVG units: token names, then one column per expert; load bars below.
LABEL_W, HEAD_H, CELL_W, ROW_H = 52, 24, 54, 30
GAP, BAR_H, FOOT_H = 26, 72, 18


def billions(n):
    return f"{n / 1e9:.2f}B"


def picture(probs, chosen, gates, loads, experts, k):
    """The grid's cells (colour class, framed when chosen, the gate as text), the load bars
    and the balanced-load line, over MAX_EXPERTS slots. The colours run from 0 to a round top
    at or above the largest probability (an untrained router's are mostly small)."""
    n = len(TOKENS)
    top = figure.nice_max(float(probs.max()))
    grid_bottom = HEAD_H + n * ROW_H
    base = grid_bottom + GAP + BAR_H          # the bars' baseline
    rows = []
    for i, token in enumerate(TOKENS):
        gate_of = {int(e): float(g) for e, g in zip(chosen[i], gates[i])}
        cells = []
        for j in range(MAX_EXPERTS):
            used = j < experts
            p = float(probs[i, j]) if used else 0.0
            picked = used and j in gate_of
            cells.append({
                "c": figure.seq_class(p, 0.0, top), "hidden": not used, "chosen": picked,
                "text": figure.fmt(gate_of[j], 2) if picked else "",
                "say": (f"{token} → 专家 {j + 1}：概率 {figure.fmt(p, 3)}"
                        + (f"，选中，门控 {figure.fmt(gate_of[j], 3)}" if picked else "，未选中"))
                if used else ""})
        rows.append({"y": HEAD_H + i * ROW_H, "ty": HEAD_H + i * ROW_H + ROW_H / 2 + 4,
                     "label": token, "cells": cells})
    balanced = n * k / experts
    bars = []
    for j in range(MAX_EXPERTS):
        used = j < experts
        h = figure.r(BAR_H * (loads[j] / n)) if used else 0.0
        bars.append({"x": LABEL_W + j * CELL_W + 6, "y": figure.r(base - h), "h": h,
                     "ty": figure.r(base - h - 4), "hidden": not used,
                     "over": used and loads[j] > balanced,
                     "text": str(int(loads[j])) if used else "",
                     "say": f"专家 {j + 1}：{int(loads[j])} 个 token" if used else ""})
    vw = LABEL_W + experts * CELL_W
    return {"width": LABEL_W + MAX_EXPERTS * CELL_W, "height": base + FOOT_H,
            "vw": vw, "viewbox": f"0 0 {vw} {base + FOOT_H}",
            "label_x": LABEL_W - 6, "cell_w": CELL_W, "row_h": ROW_H, "bar_w": CELL_W - 12,
            "cols": [{"x": LABEL_W + j * CELL_W, "cx": LABEL_W + j * CELL_W + CELL_W / 2,
                      "label": f"E{j + 1}" if j < experts else "", "hidden": j >= experts}
                     for j in range(MAX_EXPERTS)],
            "rows": rows, "bars": bars, "base": base, "bar_h": BAR_H,
            "balanced_y": figure.r(base - BAR_H * balanced / n),
            "grid_bottom": grid_bottom, "label_y": base + 13,
            "legend": figure.legend(0.0, top, digits=1)}


def view(experts, k, temperature, seed):
    """The router's probabilities, each token's top-k experts and gates, the load per
    expert, the load-balance loss, and the sizes of a Mixtral-like model with this E and k."""
    k_used = min(k, experts)
    w_r = moe.router_weights(seed, len(FEATURES), MAX_EXPERTS)[:, :experts]
    probs, chosen, gates = moe.route(EMBEDDINGS, w_r, k_used, temperature)
    loads = moe.load(chosen, experts)
    loss, f, p = moe.balance_loss(probs, chosen)
    size = moe.sizes(**CONFIG, experts=experts, k=k_used)
    pad = [0.0] * (MAX_EXPERTS - experts)
    loads_all = list(loads) + [0] * (MAX_EXPERTS - experts)
    return {
        "experts": experts, "k": k, "k_used": k_used, "temperature": temperature, "seed": seed,
        "k_note": f"k 不能超过专家数，按 k = {k_used} 计算" if k > experts else "",
        "tokens": TOKENS, "probs": probs, "chosen": chosen, "gates": gates,
        "routes": [" · ".join(f"E{int(e) + 1} {figure.fmt(g, 2)}" for e, g in zip(c, gs))
                   for c, gs in zip(chosen, gates)],
        "loads": loads_all, "f": list(f) + pad, "p": list(p) + pad,
        "balanced": len(TOKENS) * k_used / experts,
        "busiest": int(loads.max()), "idle": int((loads == 0).sum()),
        "loss": loss,
        "total": size["total"], "active": size["active"],
        "total_text": billions(size["total"]), "active_text": billions(size["active"]),
        "active_share": size["active"] / size["total"],
        "fig": picture(probs, chosen, gates, loads_all, experts, k_used),
        "sizes": figure.bars([size["shared"] / 1e9, size["total"] / 1e9, size["active"] / 1e9],
                             ["共用部分", "总参数", "每 token 激活"], form="horizontal", width=320,
                             label_w=84, value_w=64, top=SIZE_TOP, bottom=0.0,
                             texts=[billions(size[k]) for k in ("shared", "total", "active")]),
    }
