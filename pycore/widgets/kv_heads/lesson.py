"""The notebook lesson of the widget kv-heads (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import step

TITLE = "KV 缓存：几个查询头共用一组键和值"
KEYS = ["scheme", "per_token", "total", "vs_mha"]
MOVED = {"kv_heads": 2, "mla": True, "latent": 256, "context": 4096}


def lesson(params, view, same):
    step("32 层、32 个查询头、每个头 128 维、fp16：MHA、GQA、MQA 每个 token 存 "
         "2 × 层数 × K/V 头数 × 128 × 2 字节；MLA 存 层数 × (d_c + 64) × 2 字节。")
    layers, d_head, b = 32, 128, 2
    gqa = 2 * layers * params["kv_heads"] * d_head * b
    mla = layers * (params["latent"] + 64) * b
    per_token = mla if params["mla"] else gqa
    print(gqa, mla)
    same(per_token, view["per_token"])

    step("整段上下文的缓存是每个 token 的字节数乘 token 数；和 MHA（32 个 K/V 头）相比是几分之几。")
    total = per_token * params["context"]
    same(total, view["total"])
    same(per_token / (2 * layers * 32 * d_head * b), view["vs_mha"])
