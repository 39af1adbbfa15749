"""The notebook lesson of the widget multi-head (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "两个头，拼接后乘 W_O"
KEYS = ["query", "heads", "row_a", "row_b", "output_row"]
MOVED = {"query": "小狗", "heads": "B",  # a sentence of 10, with a palette token
         "example": {**EDITED_EXAMPLE, "tokens": ["小猫", "过", "马路", "小狗", "因为", "它",
                                          "太", "累", "了", "饿"]}}


def lesson(params, view, same):
    step("头 A 看语义，头 B 看前一个位置；各自算出注意力权重。")
    from pycore import example, multihead
    ex = example.resolve_example(params.get("example"))[0]  # 你改过的例子，或书中的
    tokens = ex["tokens"]  # 句子里的词（你可能增删过）
    n = len(tokens)
    X = example.sentence_embeddings(ex)  # (n, 6)
    r = multihead.two_heads(X, w_q=example.semantic_head_of(ex)[0])
    i = tokens.index(view["query"])  # 句子里没有所选的词时，小部件改看「它」
    same(r["heads"][0]["weights"][i], view["row_a"][:n])  # 图有 12 个位置
    same(r["heads"][1]["weights"][i], view["row_b"][:n])

    step("把用到的头的输出并排拼起来，再乘 $W_O$（这里取各头的平均），得到这一层的输出。")
    used = ["A", "B"] if params["heads"] == "A+B" else [params["heads"]]
    outs = [h["output"] for h in r["heads"] if h["name"] in used]
    concat = np.concatenate(outs, axis=1)  # (n, 6 × 头数)
    W_o = np.vstack([np.eye(6)] * len(outs)) / len(outs)  # (6 × 头数, 6)
    out = concat @ W_o  # (n, 6)
    same(out[i], view["output_row"])
