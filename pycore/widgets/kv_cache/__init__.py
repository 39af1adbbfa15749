"""Widget kv-cache: generate the reader's sentence token by token, with and without a KV cache,
and the cache size of a real model.

The toy model is the running example's semantic head (one layer, one head, d = 6), so the
K and V rows are K = X W_K and V = X W_V of the sentence's embeddings (the reader's edited
example when the page has one: an input of the view). The prompt is the first `prompt`
tokens; step s reads a context of prompt + s - 1 tokens and produces the next one, until the
context holds all but the sentence's last token. A sentence of n tokens (4 to 12) thus has
n - prompt steps; a prompt or step beyond them (a link made for a longer sentence) is shown
as the longest prompt (n - 1 tokens) and the last step, and the view says so (`clamp_note`).

The picture: the K | V rows of the context as two grids (without and with the cache), each
row marked by what this step did with it (computed again, read from the cache, computed new,
or not yet there); the multiply-adds of this step and so far as bars; and the cache of the
chosen model beside the other presets' at the same length and format. The grids keep SLOTS
rows on the page (the unused ones hidden, the viewBox framing the used ones), the tables of
数值 SLOTS rows (padded with zeros), so the same elements redraw any sentence.

A view is asked for at every click, in Pyodide: it comes in parts (PARTS,
pycore/view_parts.py): what only the example decides (the sentence, its K | V rows and the
grids' places), the generation at one step, and the real model's cache; a step brings the
generation alone, another model or length the model's part alone.
"""

import numpy as np

from ... import figure
from ...example import (FEATURES, MAX_TOKENS, resolve_example, semantic_head_of,
                       sentence_embeddings)
from ...kvcache import PRESETS, cache_bytes, generation_steps

DTYPES = {"fp32": 4, "fp16": 2, "int8": 1}
DTYPE_LABELS = {"fp32": "fp32（4 字节）", "fp16": "fp16 / bf16（2 字节）",
                "int8": "int8（1 字节）"}
MAX_CONTEXT = 1_048_576
# The rows the model may read: the sentence minus its last token, which is only produced (at
# the last step); also the most steps a sentence has (a prompt of one token).
SLOTS = MAX_TOKENS - 1

# the K | V grids: a row of d cells of K, a gap, d cells of V, in SVG units
CELL, PITCH, GAP, LABEL_W, STATE_W, HEAD_H = 13, 16, 8, 40, 44, 16
STATES = {"recomputed": "重算", "cached": "读缓存", "new": "新算", "future": ""}

INPUTS = ("example",)  # the reader's edited example, from the page (None: the book's)

PARAMS = {
    "step": {"type": "int", "min": 1, "max": SLOTS, "default": 3,
             "help": "the generation step shown (beyond the sentence's last step: its last)"},
    "prompt": {"type": "int", "min": 1, "max": SLOTS, "default": 1,
               "help": "how many tokens of the sentence form the prompt (step 1 = prefill; "
                       "at most all but the sentence's last token)"},
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


def _grid_places(rows):
    """One K | V grid's geometry for `rows` used rows of SLOTS: a row's K block, V block, the
    cell centres of its numbers, its state and label; the viewBox framing the used rows."""
    d = len(FEATURES)
    k_x = LABEL_W
    v_x = k_x + d * CELL + GAP
    width = v_x + d * CELL + STATE_W
    height = HEAD_H + rows * PITCH
    return {"width": width, "height": height, "viewbox": f"0 0 {width} {height}",
            "cell": CELL, "k_x": k_x, "v_x": v_x, "block_w": d * CELL, "state_x": width,
            "label_x": k_x - 5, "k_mid": k_x + d * CELL / 2, "v_mid": v_x + d * CELL / 2,
            "dividers": [figure.r(x0 + j * CELL) for x0 in (k_x, v_x) for j in range(1, d)],
            "cx": " ".join(f"{x0 + j * CELL + CELL / 2:g}" for x0 in (k_x, v_x)
                           for j in range(d)),
            "slots": [{"i": i, "y": HEAD_H + i * PITCH, "ty": HEAD_H + i * PITCH + CELL / 2 + 4}
                      for i in range(SLOTS)]}


def _grid(places, tokens, states, digits):
    """One K | V grid: its places and a row per slot, with the token, its K | V numbers (one
    text whose characters sit one per cell: the example's K and V entries are single digits)
    and its state; a slot past the context's tokens is hidden."""
    rows = []
    for slot in places["slots"]:
        i = slot["i"]
        if i < len(tokens):
            s, t = states[i], tokens[i]
            rows.append({**slot, "label": t, "digits": digits[i], "state": s,
                         "text": STATES[s], "say": f"{t}：{STATES[s] or '还没有读到'}",
                         "hidden": False})
        else:
            rows.append({**slot, "label": "", "digits": "", "state": "future", "text": "",
                         "say": "", "hidden": True})
    return {**{k: v for k, v in places.items() if k != "slots"}, "rows": rows}


def constant():
    return {"dtype_labels": DTYPE_LABELS}


def sentence(example=None):
    """What only the example decides: the sentence, the K | V rows of the tokens the model
    reads (all but the last) and, for the generation, the grids' places."""
    ex = resolve_example(example)[0]
    tokens = ex["tokens"]
    read = tokens[:-1]  # the context's tokens at the last step
    x = sentence_embeddings(ex)[:-1]  # (n - 1, 6)
    _, w_k, w_v = semantic_head_of(ex)
    kv = np.hstack([x @ w_k, x @ w_v])  # (n - 1, 12): K | V
    digits = ["".join(f"{e:.0f}" for e in row) for row in kv.tolist()]
    assert all(len(t) == kv.shape[1] for t in digits), "a K or V entry of more than one digit"
    padded = np.zeros((SLOTS, kv.shape[1]))  # the 数值 table's SLOTS rows
    padded[:len(read)] = kv
    return {"tokens": tokens, "n": len(tokens), "n_read": len(read), "d": len(FEATURES),
            "kv": padded,  # (SLOTS, 12): K | V of the rows read, then zeros
            "read_slots": [{"label": t} for t in read] + [{"label": ""}] * (SLOTS - len(read)),
            "_read": read, "_digits": digits, "_places": _grid_places(len(read))}


def clamped(n, step, prompt):
    """(prompt, step, note) shown for a sentence of n tokens: a prompt of at most n - 1 tokens
    (one is left to produce) and a step of at most the last one, n - prompt; the note says
    what was changed ("" when nothing was)."""
    p = min(prompt, n - 1)
    s = min(step, n - p)
    note = []
    if p < prompt:
        note.append(f"这句话只有 {n} 个词，提示最多取前 {p} 个（至少留一个词去生成），"
                    f"所以不是 {prompt} 个")
    if s < step:
        note.append(f"提示 {p} 个词时只有 {n - p} 步，所以显示第 {s} 步而不是第 {step} 步")
    return p, s, "；".join(note) + ("。" if note else "")


def _madds_bars(s, last):
    """This step's and the running total's multiply-adds, without and with the cache, each on
    an axis that fits the last step (so that the bars grow as the reader steps on). The last
    step depends on the sentence's length and the prompt: the axis is bound (not fixed)."""
    names = ["不用缓存", "用缓存"]
    now = [s["madds_no_cache"], s["madds_cache"]]
    total = [s["total_no_cache"], s["total_cache"]]
    kw = {"width": 250, "row": 22, "label_w": 56, "value_w": 48}
    return [figure.bars(now, names, form="horizontal", top=figure.nice_max(last["madds_no_cache"]),
                        texts=[f"{n:,}" for n in now], **kw),
            figure.bars(total, names, form="horizontal",
                        top=figure.nice_max(last["total_no_cache"]),
                        texts=[f"{n:,}" for n in total], **kw)]


def _presets_bars(preset, context, b):
    """Every preset's cache at this length and format, in the unit of the largest."""
    sizes = [cache_bytes(context, p["n_layers"], p["n_kv_heads"], p["d_head"], b)
             for p in PRESETS.values()]
    unit = max(i for i in range(len(UNITS)) if i == 0 or max(sizes) >= 1024 ** i)
    chart = figure.bars([n / 1024 ** unit for n in sizes], list(PRESETS), form="horizontal",
                        width=330, row=22, label_w=116, value_w=66,
                        texts=[binary_size(n) for n in sizes])
    for row, name in zip(chart["rows"], PRESETS):
        row["on"] = name == preset
    chart["unit"] = UNITS[unit]
    return chart


def model(preset, context, dtype):
    """The chosen model's cache at this length and format, beside the other presets'."""
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


def generation(sentence, step, prompt, dtype):
    """The toy's generation over the example's sentence at one step: the grids and the
    multiply-adds."""
    tokens, n, read = sentence["tokens"], sentence["n"], sentence["_read"]
    prompt_shown, step_shown, note = clamped(n, step, prompt)
    d = sentence["d"]
    steps = generation_steps(n - prompt_shown, prompt_len=prompt_shown, d_model=d, d_head=d,
                             bytes_per_value=DTYPES[dtype])
    s = steps[step_shown - 1]
    c = s["context"]
    new_from = s["rows_cache"][0] + 1  # rows new_from..c (1-based) are computed now
    shown = ["future" if r > c else None for r in range(1, len(read) + 1)]
    places, digits = sentence["_places"], sentence["_digits"]
    labels = [f"第 {t['step']} 步" for t in steps]
    macs = [[t["madds_no_cache"], t["total_no_cache"], t["madds_cache"], t["total_cache"]]
            for t in steps]
    return {
        "prompt": prompt_shown, "prompt_asked": prompt, "step_asked": step,
        "clamp_note": note,
        "step": s["step"], "n_steps": len(steps), "context_rows": c,
        "prefix": " ".join(tokens[:c]), "current": tokens[c - 1], "produced": tokens[c],
        "rows_nocache": c, "rows_cache": s["rows_cache"][1] - s["rows_cache"][0],
        "new_from": new_from,
        "row_macs": 2 * d * d,
        "step_nocache": s["madds_no_cache"], "step_cache": s["madds_cache"],
        "total_nocache": s["total_no_cache"], "total_cache": s["total_cache"],
        "ratio": s["total_no_cache"] / s["total_cache"],
        "toy_cache_bytes": s["cache_bytes"],
        # one row per step of this sentence and prompt, in SLOTS rows (the 数值 table)
        "step_slots": [{"label": t} for t in labels] + [{"label": ""}] * (SLOTS - len(steps)),
        "macs": macs + [[0, 0, 0, 0]] * (SLOTS - len(steps)),
        "grids": [_grid(places, read, [f or "recomputed" for f in shown], digits),
                  _grid(places, read, [f or ("new" if r >= new_from else "cached")
                                       for r, f in enumerate(shown, 1)], digits)],
        "madds_bars": _madds_bars(s, steps[-1]),
    }


PARTS = (constant, sentence, generation, model)
