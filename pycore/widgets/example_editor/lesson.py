"""The notebook lesson of the widget example-editor (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import EDITED_EXAMPLE, step

TITLE = "改写运行示例"
KEYS = ["query", "x", "pronoun", "n_changed", "changes", "row", "top"]
MOVED = {"query": "小狗", "head": False,  # a sentence of 5, palette tokens in
         "example": {**EDITED_EXAMPLE, "tokens": ["小狗", "马路", "因为", "它", "饿"]}}


def lesson(params, view, same):
    step("小部件先检查改过的例子：每格取整并夹到 0 到 2 之间；再数出哪些格与书中的不同，句子增删过词也算一处。没有改过（params 里没有 example）时就是书中的例子。")
    from pycore import example
    ex, problem = example.resolve_example(params.get("example"))  # 坏的例子：书中的
    book = example.default_example()
    X, X_book = np.array(ex["x"]), np.array(book["x"])  # 各 (9, 6)
    changed = np.sum(X != X_book) + np.sum(np.array(ex["pronoun"])
                                           != np.array(book["pronoun"]))
    changed += ex["tokens"] != book["tokens"]  # 句子换过：一处
    print(f"改了 {changed} 处")
    same(X, view["x"])
    same(changed, view["n_changed"])

    step("预览的是语义头在查询词那一行的权重，算在你的句子上（词板上的词用它的固定特征）：$W_Q$ "
         r"是单位矩阵，只有代词那一行换成你设的数；$W_K$、$W_V$ 是单位矩阵。打分除以 $\sqrt{6}$ "
         "再 softmax。句子里没有的查询词换成“它”。")
    tokens = ex["tokens"]  # 句子里的词（你可能增删过）
    S = np.array([example.features_of(ex, t) for t in tokens])  # (n, 6)
    W_q = np.eye(6)
    W_q[5] = ex["pronoun"]  # 代词那一行：它要找什么
    query = params["query"] if params["query"] in tokens else "它"
    i = tokens.index(query)
    s = (S[i] @ W_q) @ S.T / np.sqrt(6)  # (n,)：查询词对每个词的分数
    w = np.exp(s - s.max()); w = w / w.sum()
    print(query, dict(zip(tokens, np.round(w, 3).tolist())))
    n = len(tokens)
    assert query == view["query"]
    same(w, view["row"][:n])  # 图有 12 个位置，多出的为 0
    assert tokens[int(np.argmax(w))] == view["top"]["token"]
