"""Widget kv-cache: generate the running sentence token by token, with and without a KV cache,
and the cache size of a real model.

The toy model is the running example's semantic head (one layer, one head, d = 6), so the
K and V rows are K = X W_K and V = X W_V of example.EMBEDDINGS. The prompt is the first
`prompt` tokens; step s reads a context of prompt + s - 1 tokens and produces the next one,
until the context holds all but the sentence's last token.
"""
from .. import example
from ..kvcache import PRESETS, cache_bytes, generation_steps

DTYPES = {"fp32": 4, "fp16": 2, "int8": 1}
DTYPE_NAMES = ["fp32（4 字节）", "fp16 / bf16（2 字节）", "int8（1 字节）"]
N_TOKENS = len(example.TOKENS)
MAX_CONTEXT = 1_048_576

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


def binary_size(n):
    """Bytes in binary units, as the chapter writes them: 37748736 -> '36.0 MiB'."""
    units = ["字节", "KiB", "MiB", "GiB", "TiB"]
    x, i = float(n), 0
    while x >= 1024 and i < len(units) - 1:
        x, i = x / 1024, i + 1
    return f"{int(x)} 字节" if i == 0 else f"{x:.1f} {units[i]}"


def _toy(step, prompt, bytes_per_value):
    d = len(example.FEATURES)
    x = example.EMBEDDINGS[:N_TOKENS - 1]  # (8, 6): the sentence minus its last token
    _, w_k, w_v = example.semantic_head()
    n_steps = N_TOKENS - prompt
    steps = generation_steps(n_steps, prompt_len=prompt, d_model=d, d_head=d,
                             bytes_per_value=bytes_per_value)
    s = steps[min(step, n_steps) - 1]
    return d, x @ w_k, x @ w_v, steps, s  # K, V: (8, 6) each


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
    }


def view(step, prompt, preset, context, dtype):
    d, k, v, steps, s = _toy(step, prompt, DTYPES[dtype])
    c = s["context"]
    return {
        "tokens": example.TOKENS[:N_TOKENS - 1], "d": d, "prompt": prompt,
        "step": s["step"], "n_steps": len(steps), "context_rows": c,
        "prefix": " ".join(example.TOKENS[:c]), "current": example.TOKENS[c - 1],
        "produced": example.TOKENS[c],
        "kv": [list(kr) + list(vr) for kr, vr in zip(k, v)],  # (8, 12): K | V
        "rows_nocache": c, "rows_cache": s["rows_cache"][1] - s["rows_cache"][0],
        "new_from": s["rows_cache"][0] + 1,  # rows new_from..c (1-based) are computed now
        "row_macs": 2 * d * d,
        "step_nocache": s["madds_no_cache"], "step_cache": s["madds_cache"],
        "total_nocache": s["total_no_cache"], "total_cache": s["total_cache"],
        "ratio": s["total_no_cache"] / s["total_cache"],
        "toy_cache_bytes": s["cache_bytes"],
        "step_labels": [f"第 {t['step']} 步" for t in steps],
        "macs": [[t["madds_no_cache"], t["total_no_cache"], t["madds_cache"], t["total_cache"]]
                 for t in steps],
        "preset_keys": list(PRESETS), "dtype_keys": list(DTYPES), "dtype_names": DTYPE_NAMES,
        "max_context": MAX_CONTEXT,
        **_model(preset, context, dtype),
    }
