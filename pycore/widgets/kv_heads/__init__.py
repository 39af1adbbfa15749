"""Widget kv-heads: how many K/V heads a layer keeps, and what the KV cache costs per token.

The reader picks the number of K/V heads (32 = multi-head attention, fewer = grouped-query,
1 = multi-query) or switches to multi-head latent attention with a latent of d_c numbers, and a
context length. The picture links each of the 32 query heads to the K/V head it reads (under
MLA: to the one latent vector every head's K and V are rebuilt from); bars compare the bytes
per token of the four schemes; the key figures are this scheme's bytes per token and for the
whole context (pycore/kvcache.py).

The configuration is stated, not a named model's: 32 layers, d = 4096, 32 query heads of
d_head = 128, values in fp16 (2 bytes); MLA adds a shared RoPE key of 64 numbers per token.
"""
from ... import figure
from ...kvcache import cache_bytes, kv_head_of, latent_bytes_per_token
from ..attention_cost import binary_bytes

LAYERS, D_MODEL, HEADS, D_HEAD, BYTES = 32, 4096, 32, 128, 2
D_ROPE = 64
KV_CHOICES = [32, 16, 8, 4, 2, 1]
PARAMS = {
    "kv_heads": {"type": "choice", "choices": KV_CHOICES, "default": 8,
                 "help": "K/V heads per layer: 32 = MHA, 1 = MQA, between = GQA"},
    "mla": {"type": "bool", "default": False,
            "help": "multi-head latent attention: cache one latent vector instead of K and V"},
    "latent": {"type": "choice", "choices": [128, 256, 512, 1024], "default": 512,
               "help": "MLA's latent dimension d_c"},
    "context": {"type": "int", "min": 1024, "max": 1_048_576, "default": 32768, "scale": "log",
                "step": 0.05, "help": "context length in tokens (the slider is log-scaled)"},
}

BAR_NAMES = ["MHA（32 组）", "GQA（所选组数）", "MQA（1 组）", "MLA（潜向量）"]


def scheme_name(kv_heads, mla, latent):
    """What the reader picked, in words."""
    if mla:
        return f"MLA，潜向量 d_c = {latent}（另加 {D_ROPE} 维 RoPE 键）"
    kind = {HEADS: "MHA", 1: "MQA"}.get(kv_heads, "GQA")
    return f"{kind}，{kv_heads} 个 K/V 头，每 {HEADS // kv_heads} 个查询头共用一个"


# The picture, SVG units: the query heads in a row, the K/V heads (or the latent) below.
SLOT, LEFT, Q_Y, KV_Y, BOX = 18, 6, 8, 92, 14


def head_x(i):
    """The centre of query head i's box."""
    return LEFT + i * SLOT + SLOT / 2


def picture(kv_heads, mla):
    """Query heads (fixed), K/V heads (32 slots: the n_kv used ones centred under their group,
    the others hidden), one line per query head to what it reads, and MLA's latent bar."""
    group = HEADS // kv_heads
    kv = []
    for j in range(HEADS):
        used = j < kv_heads and not mla
        cx = (head_x(j * group) + head_x((j + 1) * group - 1)) / 2 if j < kv_heads else 0.0
        kv.append({"x": figure.r(cx - BOX / 2), "hidden": not used,
                   "say": f"K/V 头 {j + 1}：查询头 {j * group + 1}–{(j + 1) * group} 共用"
                   if used else ""})
    width = LEFT * 2 + HEADS * SLOT
    lines = [{"x1": head_x(i), "x2": width / 2 if mla else
              kv[kv_head_of(i, HEADS, kv_heads)]["x"] + BOX / 2} for i in range(HEADS)]
    return {"width": width, "height": KV_Y + BOX + 30, "box": BOX,
            "q": [{"x": figure.r(head_x(i) - BOX / 2), "cx": head_x(i)} for i in range(HEADS)],
            "q_y": Q_Y, "kv_y": KV_Y, "kv": kv, "lines": lines,
            "line_y1": Q_Y + BOX, "line_y2": KV_Y,
            "latent": {"x": LEFT + SLOT, "w": width - 2 * (LEFT + SLOT), "hidden": not mla},
            "row_label_y": KV_Y + BOX + 20}


def view(kv_heads, mla, latent, context):
    """Who shares which K/V head, the bytes per token of MHA, this GQA, MQA and MLA, and this
    scheme's cache per token and for the context."""
    per = [cache_bytes(1, LAYERS, HEADS, D_HEAD, BYTES),
           cache_bytes(1, LAYERS, kv_heads, D_HEAD, BYTES),
           cache_bytes(1, LAYERS, 1, D_HEAD, BYTES),
           latent_bytes_per_token(LAYERS, latent, D_ROPE, BYTES)]
    picked = 3 if mla else 1
    per_token = per[picked]
    kib = [b / 1024 for b in per]
    bars = figure.bars(kib, BAR_NAMES, form="horizontal", width=560, label_w=120, value_w=84,
                       top=512.0, bottom=0.0, texts=[binary_bytes(b) for b in per])
    return {
        "kv_heads": kv_heads, "mla": mla, "latent": latent, "context": context,
        "context_text": f"{context:,}", "context_say": f"{context:,} 个 token",
        "scheme": scheme_name(kv_heads, mla, latent), "group": HEADS // kv_heads,
        "per_token": per_token, "per_token_text": binary_bytes(per_token),
        "total": per_token * context, "total_text": binary_bytes(per_token * context),
        "vs_mha": per_token / per[0], "kib": kib, "picked": picked,
        "pick_rows": [{"hidden": i != picked} for i in range(len(per))],
        "fig": picture(kv_heads, mla), "bars": bars,
    }
