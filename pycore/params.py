"""Where the parameters are: the 12 L d^2 + V d estimate and exact counts for real models.

Per layer, attention has four d x d matrices (W_Q, W_K, W_V, W_O: 4 d^2) and the MLP two
(d x 4d and 4d x d: 8 d^2), so 12 d^2; the token embedding adds V d. The exact count adds
biases, norms, position tables, an untied output matrix, and handles SwiGLU and grouped K/V.

What count() includes, in order: token embedding V d; a learned position table n_positions d
(0 for sinusoidal, RoPE or ALiBi); token-type table (BERT); an embedding norm (BERT); per
layer attention (+ biases), MLP (+ biases) and two norms (LayerNorm: gamma and beta, 2 d;
RMSNorm: g, d); a final norm (GPT-2, LLaMA); an output matrix V d unless tied to the
embedding; BERT's pooler (d x d + d). BERT-base is counted as the bare encoder with pooler
(no masked-LM head): 109,482,240, published as "110M".
"""
from . import ffn

PRESETS = {
    "GPT-2 small": {
        "config": {"d_model": 768, "n_layers": 12, "vocab": 50257, "n_positions": 1024},
        "published": 124_000_000, "published_label": "124M"},
    "GPT-2 XL": {
        "config": {"d_model": 1600, "n_layers": 48, "vocab": 50257, "n_positions": 1024},
        "published": 1_558_000_000, "published_label": "1.5B (1558M)"},
    "BERT-base": {
        "config": {"d_model": 768, "n_layers": 12, "vocab": 30522, "n_positions": 512,
                   "n_token_types": 2, "embedding_norm": True, "final_norm": False,
                   "pooler": True},
        "published": 110_000_000, "published_label": "110M"},
    "GPT-3 175B": {
        "config": {"d_model": 12288, "n_layers": 96, "vocab": 50257, "n_positions": 2048},
        "published": 175_000_000_000, "published_label": "175B"},
    "LLaMA-7B": {
        "config": {"d_model": 4096, "n_layers": 32, "vocab": 32000, "d_ff": 11008,
                   "mlp": "swiglu", "bias": False, "norm": "rmsnorm", "tied": False},
        "published": 6_700_000_000, "published_label": "6.7B"},
    "LLaMA-2-70B": {
        "config": {"d_model": 8192, "n_layers": 80, "vocab": 32000, "d_ff": 28672,
                   "n_heads": 64, "n_kv_heads": 8, "mlp": "swiglu", "bias": False,
                   "norm": "rmsnorm", "tied": False},
        "published": 70_000_000_000, "published_label": "70B"},
}


def estimate(d_model, n_layers, vocab, d_ff=None):
    """12 L d^2 + V d; with a d_ff other than 4 d: L (4 d^2 + 2 d d_ff) + V d."""
    d_ff = 4 * d_model if d_ff is None else d_ff
    return n_layers * (4 * d_model * d_model + 2 * d_model * d_ff) + vocab * d_model


def count(d_model, n_layers, vocab, d_ff=None, n_heads=None, n_kv_heads=None, mlp="gelu",
          bias=True, norm="layernorm", final_norm=True, tied=True, n_positions=0,
          n_token_types=0, embedding_norm=False, pooler=False):
    """Exact parameter count, as a dict of parts plus "per_layer" and "total".

    mlp: "gelu" (any two-matrix MLP: ReLU or GELU count the same) or "swiglu".
    n_kv_heads (with n_heads): grouped-query attention, K and V are d x (n_kv_heads d_head).
    """
    d = d_model
    d_ff = 4 * d if d_ff is None else d_ff
    kv = d if n_kv_heads is None else n_kv_heads * (d // n_heads)
    if norm not in ("layernorm", "rmsnorm"):
        raise ValueError(f"norm must be 'layernorm' or 'rmsnorm', not {norm!r}")
    norm_size = 2 * d if norm == "layernorm" else d
    attn = 2 * d * d + 2 * d * kv + ((2 * d + 2 * kv) if bias else 0)
    mlp_n = ffn.ffn_params(d, d_ff, "swiglu" if mlp == "swiglu" else "mlp", bias)
    per_layer = attn + mlp_n + 2 * norm_size
    parts = {
        "token_embedding": vocab * d,
        "position_embedding": n_positions * d,
        "token_type_embedding": n_token_types * d,
        "embedding_norm": norm_size if embedding_norm else 0,
        "attention": n_layers * attn,
        "mlp": n_layers * mlp_n,
        "layer_norms": n_layers * 2 * norm_size,
        "final_norm": norm_size if final_norm else 0,
        "output": 0 if tied else vocab * d,
        "pooler": d * d + d if pooler else 0,
    }
    return {**parts, "per_layer": per_layer, "total": sum(parts.values())}


def compare(name):
    """A preset's estimate, exact count and published figure, with relative errors."""
    preset = PRESETS[name]
    cfg = preset["config"]
    est = estimate(cfg["d_model"], cfg["n_layers"], cfg["vocab"])
    exact = count(**cfg)["total"]
    pub = preset["published"]
    return {"name": name, **cfg, "estimate": est, "exact": exact, "published": pub,
            "published_label": preset["published_label"],
            "estimate_rel_error": (est - pub) / pub, "exact_rel_error": (exact - pub) / pub,
            "estimate_vs_exact": (est - exact) / exact}
