"""The notebook lesson of the widget learned-vs-handmade (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "手写的头与学出来的头"
KEYS = ["adjective", "head", "grammar"]
MOVED = {"adjective": "宽", "head": "0-3"}


def lesson(params, view, same):
    step("手写的语义头只看 6 维手写特征；“宽”和“累”在特征里是同一行，所以换形容词时，“它”那一行纹丝不动。")
    from pycore import example
    X = example.EMBEDDINGS  # (9, 6)
    W_q, W_k, W_v = example.semantic_head()
    i = example.TOKENS.index("它")
    s = (X[i] @ W_q) @ (X @ W_k).T / np.sqrt(6)  # (9,)
    hand = np.exp(s - s.max()); hand = hand / hand.sum()
    print(dict(zip(view["hand"]["tokens"], np.round(hand, 4).tolist())))
    same(hand, view["hand"]["row"])

    step("学出来的头在训练好的模型里：取所选层进注意力之前的 LayerNorm 输出，用这个头的那 12 列 $W_Q$、$W_K$ 打分，看“=”那一行。")
    from pycore.gpt import run
    weights, cfg, _ = run.book_model()
    words = view["learned"]["tokens"]  # 例句加上“， 它 =”
    layer, h = (int(c) for c in params["head"].split("-"))
    x = run.trace(words)["layers"][layer]["ln1"]["output"]  # (12, 48)
    cols = slice(12 * h, 12 * (h + 1))  # 第 h 个头的列
    q = x[-1] @ weights[f"layers.{layer}.attn.w_q"][:, cols]  # (12,)：“=”的查询
    k = x @ weights[f"layers.{layer}.attn.w_k"][:, cols]  # (12, 12)
    s = k @ q / np.sqrt(12)  # “=”是最后一个词，因果掩码什么也不遮
    learned = np.exp(s - s.max()); learned = learned / learned.sum()
    print(f"指向「{words[int(np.argmax(learned))]}」：{learned.max():.4f}")
    same(learned, view["learned"]["row"])
