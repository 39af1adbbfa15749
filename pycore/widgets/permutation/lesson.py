"""The notebook lesson of the widget permutation (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "打乱词序：没有位置信息时注意力看不出来"
KEYS = ["perm", "perm_note", "positions", "tokens", "max_abs_diff", "n_changed"]
MOVED = {"seed": 3, "perm": [3, 0, 1, 2, 4, 5, 6, 7, 9, 8], "positions": True,
         "example": {**EDITED_EXAMPLE, "tokens": ["小猫", "马路", "小狗", "过", "因为", "它",
                                          "太", "累", "饿", "了"]}}


def lesson(params, view, same):
    step("把句子按 perm 重排后再算注意力，与“原输出跟着词挪位置”比较；加上正弦位置编码后，两者才会不同。")
    from pycore import example
    from pycore.positional import sinusoidal

    ex = example.resolve_example(params.get("example"))[0]  # 你改过的例子，或书中的

    def semantic_attention(x):
        W_q, W_k, W_v = example.semantic_head_of(ex)
        q, k, v = x @ W_q, x @ W_k, x @ W_v
        s = q @ k.T / np.sqrt(q.shape[1])
        w = np.exp(s - s.max(axis=1, keepdims=True))
        return (w / w.sum(axis=1, keepdims=True)) @ v

    tokens = ex["tokens"]  # 句子里的词（你可能增删过）
    n = len(tokens)
    X = example.sentence_embeddings(ex)  # (n, 6)
    perm = np.array(view["perm"])  # 第 s 个座位坐原来的第 perm[s] 个词
    print("".join(tokens[i] for i in perm))
    if view["perm_note"]:
        print(view["perm_note"])  # 给定的 perm 不适用于这句话
    pe = sinusoidal(n, 6) if params["positions"] else np.zeros_like(X)  # (n, 6)
    diff = np.abs(semantic_attention(X[perm] + pe) - semantic_attention(X + pe)[perm])
    print(f"最大差 {diff.max():.2e}")
    same(diff.max(), view["max_abs_diff"])
    same(diff.max(axis=1), view["diff_per_slot"])
