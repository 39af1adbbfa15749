"""The KV cache: keep the keys and values of earlier tokens instead of recomputing them.

Generation step s = 1, 2, ... runs the model on a context of c_s = prompt_len + s - 1 tokens
and produces one new token. The keys and values of a token never change once computed (the
model only looks backwards), so:
- without a cache, step s projects K and V for all c_s rows again;
- with a cache, step 1 projects the prompt's rows and every later step only the newest row,
  appending it to the cache.
Multiply-adds for the K and V projections of one token: 2 * L * d_model * (n_kv_heads * d_head).
Cache size (batch 1): 2 (K and V) * L * n_kv_heads * d_head * tokens * bytes_per_value.
"""

# Plain data for the widget's model menu. n_kv_heads < n_heads is grouped-query attention:
# several query heads share one key/value head, which shrinks the cache.
PRESETS = {
    "GPT-2 small": {"n_layers": 12, "d_model": 768, "n_heads": 12, "n_kv_heads": 12,
                    "d_head": 64, "max_context": 1024},
    "LLaMA-7B": {"n_layers": 32, "d_model": 4096, "n_heads": 32, "n_kv_heads": 32,
                 "d_head": 128, "max_context": 2048},
    "LLaMA-2-70B (GQA)": {"n_layers": 80, "d_model": 8192, "n_heads": 64, "n_kv_heads": 8,
                          "d_head": 128, "max_context": 4096},
    "GPT-3 175B": {"n_layers": 96, "d_model": 12288, "n_heads": 96, "n_kv_heads": 96,
                   "d_head": 128, "max_context": 2048},
}


def cache_bytes(tokens, n_layers, n_kv_heads, d_head, bytes_per_value=2, batch=1):
    """2 * L * n_kv_heads * d_head * tokens * bytes_per_value (* batch)."""
    return 2 * n_layers * n_kv_heads * d_head * tokens * bytes_per_value * batch


def kv_madds_per_token(d_model, n_layers, n_kv_heads, d_head):
    """Multiply-adds to project one token's key and value in every layer."""
    return 2 * n_layers * d_model * n_kv_heads * d_head


def generation_steps(n_new, prompt_len=1, d_model=6, n_layers=1, n_kv_heads=1, d_head=6,
                     bytes_per_value=2, **_ignored):
    """One dict per generation step; the defaults are the running example (d = 6, one layer,
    one head). Extra keys (e.g. a whole preset with n_heads) are accepted and ignored.

    rows_no_cache / rows_cache are (start, stop) ranges of context rows whose K, V get
    projected at that step; the cumulative totals add up all steps so far.
    """
    per_token = kv_madds_per_token(d_model, n_layers, n_kv_heads, d_head)
    steps, total_no, total_yes = [], 0, 0
    for s in range(1, n_new + 1):
        context = prompt_len + s - 1
        new_rows = prompt_len if s == 1 else 1
        total_no += context * per_token
        total_yes += new_rows * per_token
        steps.append({
            "step": s, "context": context,
            "rows_no_cache": (0, context), "rows_cache": (context - new_rows, context),
            "madds_no_cache": context * per_token, "madds_cache": new_rows * per_token,
            "total_no_cache": total_no, "total_cache": total_yes,
            "cache_bytes": cache_bytes(context, n_layers, n_kv_heads, d_head, bytes_per_value),
        })
    return steps


def preset_summary(name, tokens=None, bytes_per_value=2):
    """Cache bytes per token and for `tokens` tokens (default: the preset's context)."""
    p = PRESETS[name]
    tokens = p["max_context"] if tokens is None else tokens
    per_token = cache_bytes(1, p["n_layers"], p["n_kv_heads"], p["d_head"], bytes_per_value)
    return {"name": name, **p, "tokens": tokens, "bytes_per_token": per_token,
            "cache_bytes": per_token * tokens,
            "madds_per_token": kv_madds_per_token(p["d_model"], p["n_layers"],
                                                  p["n_kv_heads"], p["d_head"])}


def kv_head_of(query_head, n_heads, n_kv_heads):
    """The K/V head a query head reads under grouped-query attention: the n_heads query heads
    are cut into n_kv_heads consecutive groups of n_heads / n_kv_heads, each sharing one K/V
    head (n_kv_heads = n_heads: multi-head attention; 1: multi-query attention)."""
    if n_heads % n_kv_heads:
        raise ValueError(f"n_kv_heads ({n_kv_heads}) must divide n_heads ({n_heads})")
    return query_head // (n_heads // n_kv_heads)


def latent_bytes_per_token(n_layers, d_latent, d_rope, bytes_per_value=2):
    """Multi-head latent attention caches, per layer and token, one compressed vector c of
    d_latent numbers (K and V of every head are up-projected from it) and one shared RoPE key
    of d_rope numbers: L * (d_latent + d_rope) * bytes_per_value."""
    return n_layers * (d_latent + d_rope) * bytes_per_value
