"""Widget kv-cache: generate the running sentence token by token, with and without a KV cache,
and the cache size of a real model.

The toy model is the running example's semantic head (one layer, one head, d = 6), so the
K and V rows are K = X W_K and V = X W_V of the example's embeddings (the reader's edited
example when the page has one: an input of the view). The prompt is the first
`prompt` tokens; step s reads a context of prompt + s - 1 tokens and produces the next one,
until the context holds all but the sentence's last token.

The picture: the K | V rows of the context as two grids (without and with the cache), each
row marked by what this step did with it (computed again, read from the cache, computed new,
or not yet there); the multiply-adds of this step and so far as bars; and the cache of the
chosen model beside the other presets' at the same length and format.
"""
import functools

import numpy as np

from .. import example, figure
from ..example import TOKENS, example_key, resolve_example, sentence_note
from ..kvcache import PRESETS, cache_bytes, generation_steps

DTYPES = {"fp32": 4, "fp16": 2, "int8": 1}
DTYPE_LABELS = {"fp32": "fp32（4 字节）", "fp16": "fp16 / bf16（2 字节）",
                "int8": "int8（1 字节）"}
N_TOKENS = len(example.TOKENS)
MAX_CONTEXT = 1_048_576

# the K | V grids: a row of d cells of K, a gap, d cells of V, in SVG units
CELL, PITCH, GAP, LABEL_W, STATE_W, HEAD_H = 13, 16, 8, 40, 44, 16
STATES = {"recomputed": "重算", "cached": "读缓存", "new": "新算", "future": ""}

INPUTS = ("example",)  # the reader's edited example, from the page (None: the book's)

PARAMS = {
    "step": {"type": "int", "min": 1, "max": N_TOKENS - 1, "default": 3,
             "help": "the generation step shown (clamped to the last step of the prompt)"},
    "prompt": {"type": "int", "min": 1, "max": N_TOKENS - 1, "default": 1,
               "help": "how many tokens of the sentence form the prompt (step 1 = prefill)"},
    "preset": {"type": "choice", "choices": list(PRESETS), "default": "GPT-2 small",
               "help": "the model whose cache size is computed"},
    "context": {"type": "int", "min": 1, "max": MAX_CONTEXT, "default": 1024,
                "help": "tokens held in the cache"},
    "dtype": {"type": "choice", "choices": list(DTYPES), "default": "fp16",
              "help": "storage format of one cached number"},
}

UNITS = ["字节", "KiB", "MiB", "GiB", "TiB"]


def binary_size(n):
    """Bytes in binary units, as the chapter writes them: 37748736 -> '36.0 MiB'."""
    x, i = float(n), 0
    while x >= 1024 and i < len(UNITS) - 1:
        x, i = x / 1024, i + 1
    return f"{int(x)} 字节" if i == 0 else f"{x:.1f} {UNITS[i]}"


def _grid(tokens, states, kv):
    """One K | V grid: a row per token, its K block and V block with their numbers, its state
    and its label. The numbers of a row are one text whose characters sit one per cell (x is
    a list): the running example's K and V entries are single digits."""
    k_x = LABEL_W
    v_x = k_x + 6 * CELL + GAP
    digits = ["".join(f"{x:.0f}" for x in row) for row in kv]
    assert all(len(d) == 12 for d in digits), "a K or V entry of more than one character"
    rows = [{"i": i, "y": HEAD_H + i * PITCH, "ty": HEAD_H + i * PITCH + CELL / 2 + 4,
             "digits": digits[i], "state": s, "text": STATES[s],
             "say": f"{t}：{STATES[s] or '还没有读到'}"}
            for i, (t, s) in enumerate(zip(tokens, states))]
    width = v_x + 6 * CELL + STATE_W
    return {"width": width, "height": HEAD_H + len(tokens) * PITCH, "cell": CELL,
            "k_x": k_x, "v_x": v_x, "block_w": 6 * CELL, "state_x": width, "label_x": k_x - 5,
            "k_mid": k_x + 3 * CELL, "v_mid": v_x + 3 * CELL,
            "dividers": [figure.r(x0 + j * CELL) for x0 in (k_x, v_x) for j in range(1, 6)],
            "cx": " ".join(f"{x0 + j * CELL + CELL / 2:g}" for x0 in (k_x, v_x) for j in range(6)),
            "rows": rows}


def _toy(step, prompt, bytes_per_value, x):
    d = len(example.FEATURES)
    x = np.array(x, dtype=float)[:N_TOKENS - 1]  # (8, 6): the sentence minus its last token
    _, w_k, w_v = example.semantic_head()
    n_steps = N_TOKENS - prompt
    steps = generation_steps(n_steps, prompt_len=prompt, d_model=d, d_head=d,
                             bytes_per_value=bytes_per_value)
    s = steps[min(step, n_steps) - 1]
    return d, x @ w_k, x @ w_v, steps, s  # K, V: (8, 6) each


def _madds_bars(s, last):
    """This step's and the running total's multiply-adds, without and with the cache, each on
    an axis that fits the last step (so that the bars grow as the reader steps on)."""
    names = ["不用缓存", "用缓存"]
    now = [s["madds_no_cache"], s["madds_cache"]]
    total = [s["total_no_cache"], s["total_cache"]]
    kw = {"width": 250, "row": 22, "label_w": 56, "value_w": 48, "bottom": 0.0}
    return [figure.hbars(now, names, top=figure.nice_max(last["madds_no_cache"]),
                         texts=[f"{n:,}" for n in now], **kw),
            figure.hbars(total, names, top=figure.nice_max(last["total_no_cache"]),
                         texts=[f"{n:,}" for n in total], **kw)]


def _presets_bars(preset, context, b):
    """Every preset's cache at this length and format, in the unit of the largest."""
    sizes = [cache_bytes(context, p["n_layers"], p["n_kv_heads"], p["d_head"], b)
             for p in PRESETS.values()]
    unit = max(i for i in range(len(UNITS)) if i == 0 or max(sizes) >= 1024 ** i)
    chart = figure.hbars([n / 1024 ** unit for n in sizes], list(PRESETS), width=330, row=22,
                         label_w=116, value_w=66, texts=[binary_size(n) for n in sizes])
    for row, name in zip(chart["rows"], PRESETS):
        row["on"] = name == preset
    chart["unit"] = UNITS[unit]
    return chart


@functools.lru_cache(maxsize=64)
def _model(preset, context, dtype):
    p = PRESETS[preset]
    b = DTYPES[dtype]
    total = cache_bytes(context, p["n_layers"], p["n_kv_heads"], p["d_head"], b)
    gqa = f"，{p['n_heads']} 个查询头共用 {p['n_kv_heads']} 组键值（GQA）" \
        if p["n_kv_heads"] < p["n_heads"] else f"，{p['n_heads']} 个头各有自己的键值"
    return {
        "preset": preset, "context": context, "dtype": dtype,
        "layers": p["n_layers"], "kv_heads": p["n_kv_heads"], "d_head": p["d_head"],
        "bytes_per_value": b, "cache_bytes": total,
        "cache_bytes_text": f"{total:,}", "cache_human": binary_size(total),
        "per_token_text": f"{total // context:,}",
        "preset_note": f"{preset}：{p['n_layers']} 层，d_model = {p['d_model']}{gqa}；"
                       f"训练时的最大上下文为 {p['max_context']} 个 token。",
        "presets_bars": _presets_bars(preset, context, b),
    }


def view(step, prompt, preset, context, dtype, example=None):
    ex = resolve_example(example)[0]
    x = example_key(ex)[0]  # the example's X, as tuples
    return {**_generation(step, prompt, dtype, x), **_model(preset, context, dtype),
            "dtype_labels": DTYPE_LABELS,
            "sentence_note": sentence_note(ex)}  # the nine book tokens only, so far


# The view's two halves, each worked out once per setting: a step leaves the model's cache
# as it is, another model or length leaves the toy's grids. Shared: never changed.

@functools.lru_cache(maxsize=64)
def _generation(step, prompt, dtype, x):
    """The toy's generation at one step: the grids and the multiply-adds (x: X as tuples)."""
    d, k, v, steps, s = _toy(step, prompt, DTYPES[dtype], x)
    c = s["context"]
    tokens = TOKENS[:N_TOKENS - 1]
    new_from = s["rows_cache"][0] + 1  # rows new_from..c (1-based) are computed now
    shown = ["future" if r > c else None for r in range(1, len(tokens) + 1)]
    kv = [list(kr) + list(vr) for kr, vr in zip(k, v)]  # (8, 12): K | V
    return {
        "tokens": tokens, "d": d, "prompt": prompt,
        "step": s["step"], "n_steps": len(steps), "context_rows": c,
        "prefix": " ".join(TOKENS[:c]), "current": TOKENS[c - 1],
        "produced": TOKENS[c],
        "kv": kv,
        "rows_nocache": c, "rows_cache": s["rows_cache"][1] - s["rows_cache"][0],
        "new_from": new_from,
        "row_macs": 2 * d * d,
        "step_nocache": s["madds_no_cache"], "step_cache": s["madds_cache"],
        "total_nocache": s["total_no_cache"], "total_cache": s["total_cache"],
        "ratio": s["total_no_cache"] / s["total_cache"],
        "toy_cache_bytes": s["cache_bytes"],
        "step_labels": [f"第 {t['step']} 步" for t in steps],
        "macs": [[t["madds_no_cache"], t["total_no_cache"], t["madds_cache"], t["total_cache"]]
                 for t in steps],
        "grids": [_grid(tokens, [f or "recomputed" for f in shown], kv),
                  _grid(tokens, [f or ("new" if r >= new_from else "cached")
                                 for r, f in enumerate(shown, 1)], kv)],
        "madds_bars": _madds_bars(s, steps[-1]),
    }
