"""Widget param-count: the 12 L d^2 + V d estimate against the exact count, for a preset's
architecture (biases, norms, position table, tied output, SwiGLU, grouped K/V) with d_model,
L, V and d_ff changed by the reader; and a table of every preset with its published count.

A size of 0 means "the preset's own value". With ff_4d, d_ff follows d_model: 4 d for a
two-matrix MLP; for SwiGLU, two thirds of 4 d rounded up to a multiple of 256 (LLaMA's rule,
11008 for d = 4096).

The picture: the exact count as one stacked bar of where the parameters are (embedding
tables, attention, FFN, norms, the rest), and every preset's estimate against its published
count as bars of the relative error, the chosen preset framed.
"""
from ... import figure
from ...params import PRESETS, compare, count, estimate
from ...schedule import chinchilla

LIMITS = {"d_model": (64, 16384), "layers": (1, 128), "vocab": (256, 262144), "d_ff": (64, 65536)}
CONFIG_KEY = {"d_model": "d_model", "layers": "n_layers", "vocab": "vocab"}

STEPS = {"d_model": 64, "layers": 1, "vocab": 1, "d_ff": 64}  # a slider's step (or arrow key)

PARAMS = {
    "preset": {"type": "choice", "choices": list(PRESETS), "default": "GPT-2 small",
               "help": "architecture family and starting sizes"},
    **{k: {"type": "int", "min": 0, "max": hi, "default": 0, "step": STEPS[k],
           "help": f"{k}; 0 = the preset's value, else {lo} to {hi}"}
       for k, (lo, hi) in LIMITS.items()},
    "ff_4d": {"type": "bool", "default": True,
              "help": "d_ff follows d_model (4 d; SwiGLU: 2/3 of 4 d up to a multiple of 256); "
                      "false keeps d_ff (LLaMA-2-70B needs false for its own 28672)"},
}

PART_NAMES = {
    "token_embedding": "词嵌入 |𝒱|·d", "position_embedding": "位置嵌入表",
    "token_type_embedding": "句子类型嵌入", "embedding_norm": "嵌入后的归一化",
    "attention": "注意力（L 层）", "mlp": "FFN（L 层）", "layer_norms": "层内归一化（L 层）",
    "final_norm": "最终归一化", "output": "输出矩阵（不共享时）", "pooler": "池化层",
}


# the stacked bar's segments: which parts of count() each one adds up
GROUPS = [("嵌入表", ("token_embedding", "position_embedding", "token_type_embedding")),
          ("注意力", ("attention",)), ("FFN", ("mlp",)),
          ("归一化", ("embedding_norm", "layer_norms", "final_norm")),
          ("输出矩阵与池化层", ("output", "pooler"))]


def tied_d_ff(d_model, mlp="gelu"):
    """The d_ff that "d_ff = 4d" means for this MLP kind."""
    if mlp != "swiglu":
        return 4 * d_model
    hidden = 2 * (4 * d_model) // 3
    return 256 * -(-hidden // 256)  # round up to a multiple of 256


def short(n):
    """124439808 -> '124.4M', 6738415616 -> '6.738B' (four significant digits)."""
    for unit, size in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if n >= size:
            return f"{n / size:.4g}{unit}"
    return str(int(n))


def sizes(preset, d_model, layers, vocab, d_ff, ff_4d):
    """The effective (d_model, layers, vocab, d_ff) and the config to count."""
    cfg = dict(PRESETS[preset]["config"])
    given = {"d_model": d_model, "layers": layers, "vocab": vocab}
    for key, value in given.items():
        if value:
            cfg[CONFIG_KEY[key]] = value
    base_ff = cfg.get("d_ff", 4 * PRESETS[preset]["config"]["d_model"])
    cfg["d_ff"] = tied_d_ff(cfg["d_model"], cfg.get("mlp", "gelu")) if ff_4d else (d_ff or base_ff)
    return cfg


def _pct(a, b):
    return 100.0 * (a - b) / b


def _preset_rows():
    rows = []
    for name in PRESETS:
        c = compare(name)
        rows.append({
            "key": name, "name": name, "d_model": c["d_model"], "layers": c["n_layers"],
            "vocab": c["vocab"], "d_ff": c.get("d_ff", 4 * c["d_model"]),
            "ff_tied": c.get("d_ff", 4 * c["d_model"]) == tied_d_ff(c["d_model"], c.get("mlp")),
            "estimate": c["estimate"], "exact": c["exact"], "published": c["published"],
            "estimate_text": f"{c['estimate']:,}", "exact_text": f"{c['exact']:,}",
            "published_text": c["published_label"], "published_short": short(c["published"]),
            "estimate_short": short(c["estimate"]),
            "estimate_vs_exact_pct": 100.0 * c["estimate_vs_exact"],
            "estimate_vs_published_pct": 100.0 * c["estimate_rel_error"],
        })
    return rows


def _where(parts):
    """The exact count as one stacked bar of GROUPS."""
    values = [sum(parts[k] for k in keys) for _, keys in GROUPS]
    bar = figure.bars(values, [name for name, _ in GROUPS], form="stacked", width=560, height=28)
    for seg in bar["segments"]:
        seg["count"] = f"{int(seg['value']):,}"
        seg["text"] = f"{seg['pct']:.{2 if seg['pct'] < 1 else 1}f} %"  # norms: 0.03 %, not 0.0
        seg["say"] = f"{seg['label']}：{seg['count']}（{seg['text']}）"
    return bar


def _errors(rows, preset):
    """Every preset's estimate against its published count: bars of the relative error."""
    errors = [r["estimate_vs_published_pct"] for r in rows]
    chart = figure.bars(errors, [f"{r['name']} · {r['published_short']}" for r in rows],
                        form="horizontal", width=330, row=22, label_w=124, value_w=58,
                        top=0.0 if max(errors) <= 0 else None,  # every estimate is below
                        texts=[f"{r['estimate_vs_published_pct']:+.2f} %" for r in rows])
    for row, r in zip(chart["rows"], rows):
        row["on"] = r["key"] == preset
        row["say"] = (f"{r['name']}：估算 {r['estimate_short']}，公布 {r['published_text']}，"
                      f"相差 {r['estimate_vs_published_pct']:+.2f} %")
    return chart


def _family(cfg):
    mlp = "SwiGLU FFN" if cfg.get("mlp") == "swiglu" else "两矩阵 FFN"
    norm = "RMSNorm" if cfg.get("norm") == "rmsnorm" else "LayerNorm"
    bias = "带偏置" if cfg.get("bias", True) else "无偏置"
    pos = f"可学习位置表 {cfg['n_positions']} 行" if cfg.get("n_positions") else "位置无参数（RoPE）"
    tied = "输出与词嵌入共享" if cfg.get("tied", True) else "输出矩阵单独一份"
    gqa = f"，{cfg['n_heads']} 头共用 {cfg['n_kv_heads']} 组 K/V" if cfg.get("n_kv_heads") else ""
    return f"{mlp}、{norm}、{bias}、{pos}、{tied}{gqa}"


def _published_note(preset, cfg, est, exact):
    base = PRESETS[preset]
    same = all(cfg[k] == v for k, v in base["config"].items()) and \
        cfg["d_ff"] == base["config"].get("d_ff", 4 * base["config"]["d_model"])
    if not same:
        return "尺寸改动过，公布值不再适用"
    pub = base["published"]
    return (f"{base['published_label']}；估算比它 {_pct(est, pub):+.2f} %，"
            f"精确数比它 {_pct(exact, pub):+.2f} %")


def view(preset, d_model, layers, vocab, d_ff, ff_4d):
    cfg = sizes(preset, d_model, layers, vocab, d_ff, ff_4d)
    parts = count(**cfg)
    exact = parts["total"]
    est = estimate(cfg["d_model"], cfg["n_layers"], cfg["vocab"])
    tokens = chinchilla(params=exact)["tokens"]
    presets = _preset_rows()
    return {
        "preset": preset, "family": _family(cfg), "ff_4d": ff_4d,
        "d_model": cfg["d_model"], "layers": cfg["n_layers"], "vocab": cfg["vocab"],
        "d_ff": cfg["d_ff"], "limits": LIMITS,
        "estimate": est, "estimate_text": f"{est:,}", "estimate_short": short(est),
        "exact": exact, "exact_text": f"{exact:,}", "exact_short": short(exact),
        "estimate_error_pct": _pct(est, exact),
        "published_note": _published_note(preset, cfg, est, exact),
        "chinchilla_short": short(tokens),
        "parts": [{"key": k, "name": name, "value": parts[k], "text": f"{parts[k]:,}",
                   "pct": 100.0 * parts[k] / exact} for k, name in PART_NAMES.items()],
        "presets": presets,
        "where": _where(parts),
        "errors": _errors(presets, preset),
    }
