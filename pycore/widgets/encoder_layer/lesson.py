"""The notebook lesson of the widget encoder-layer (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "编码器层的一步步"
KEYS = ["layout", "step", "name", "formula", "tokens", "n", "shape", "row_std"]
MOVED = {"step": 4, "layout": "pre",  # and a sentence of the reader's
         "example": {**EDITED_EXAMPLE, "tokens": ["小狗", "没有", "过", "马路", "因为",
                                          "它", "很", "饿", "了", "它们"]}}


def lesson(params, view, same):
    step("pycore.encoder 把整层拆成一串步骤，每步给出 n×6 的矩阵（句子里每个词一行）；LayerNorm 之后每行的标准差接近 1。")
    from pycore import example
    from pycore.encoder import encoder_steps
    ex = example.resolve_example(params.get("example"))[0]  # 你改过的例子，或书中的
    tokens = ex["tokens"]  # 句子里的词（你可能增删过）
    X = example.sentence_embeddings(ex)  # (n, 6)
    s = encoder_steps(params["layout"], x=X,
                      w_q=example.semantic_head_of(ex)[0])[view["step"] - 1]
    m = s["matrix"]  # (n, 6)
    print(s["key"], m.shape)
    print({t: round(float(sd), 4) for t, sd in zip(tokens, m.std(axis=1))})
    same(m.std(axis=1), view["row_std"])
    same(len(m), view["n"])  # 一个词一行：图和表有 12 行，只用前 n 行
