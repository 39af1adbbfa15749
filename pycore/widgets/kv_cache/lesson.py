"""The notebook lesson of the widget kv-cache (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "KV 缓存省下的计算"
KEYS = ["step", "prompt", "n_steps", "context_rows", "step_nocache", "step_cache", "total_nocache",
        "total_cache", "cache_bytes"]
MOVED = {"step": 5, "prompt": 2, "preset": "LLaMA-7B", "context": 4096,
         "dtype": "int8",  # six tokens, a prompt of 2: steps 1..4, step 5 shown as 4
         "example": {**EDITED_EXAMPLE, "tokens": ["小猫", "马路", "小狗", "因为", "它", "累"]}}


def lesson(params, view, same):
    step("玩具模型就是语义头（1 层、1 个头、d = 6）：句子里每个被读入的词（最后一个词只被生成，"
         "不被读入）有一行 $K = XW_K$ 和一行 $V = XW_V$，算出来就不再变。")
    from pycore import example
    ex = example.resolve_example(params.get("example"))[0]  # 你改过的例子，或书中的
    tokens = ex["tokens"]  # 句子里的词（你可能增删过）
    X = example.sentence_embeddings(ex)[:-1]  # (n - 1, 6)
    _, W_k, W_v = example.semantic_head_of(ex)
    KV = np.hstack([X @ W_k, X @ W_v])  # (n - 1, 12)：K | V
    same(KV, view["kv"][:len(X)])  # 表有 11 行位置，多出的为 0

    step("每个位置的 K 和 V 是两次 6×6 投影，共 72 次乘加。不缓存时每一步要为整个前缀重算，"
         "缓存后只算新来的那一行。n 个词的句子、P 个词的提示共有 n − P 步；提示最长取到倒数第二个词，"
         "步数超出时显示最后一步（view 里的 prompt 和 step）。")
    n, P = len(tokens), min(params["prompt"], len(tokens) - 1)
    same(P, view["prompt"])
    same(min(params["step"], n - P), view["step"])
    per_row = 2 * 6 * 6
    steps = range(1, view["step"] + 1)
    context = [P + s - 1 for s in steps]
    new = [P if s == 1 else 1 for s in steps]
    print("读入：", " ".join(tokens[:context[-1]]), "→ 产出：", tokens[context[-1]])
    same(context[-1] * per_row, view["step_nocache"])
    same(new[-1] * per_row, view["step_cache"])
    same(sum(context) * per_row, view["total_nocache"])
    same(sum(new) * per_row, view["total_cache"])

    step("真实模型的缓存：每层、每个键值头、每个 token 存 K 和 V 两个 $d_{head}$ 维向量。")
    bytes_ = 2 * params["context"] * view["layers"] * view["kv_heads"] \
        * view["d_head"] * view["bytes_per_value"]
    print(f"{bytes_:,} 字节")
    same(bytes_, view["cache_bytes"])
