"""The notebook lesson of the widget trained-model (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "训练好的模型"
KEYS = ["tokens", "grammar", "answer", "position", "stage", "head"]
MOVED = {"frame": "I 挡住 了 A", "animal": "兔子", "obstacle": "楼梯",
         "adjective": "宽", "position": 7, "stage": "l0-ffn", "head": 2, "section": "next",
         "temperature": 0.7, "top_k": 5, "top_p": 0.9, "seed": 3, "draws": 200}


def lesson(params, view, same):
    step("最后一层 LayerNorm 的输出 h 乘以词向量表的转置（输出层与输入层共用 E），"
         "就是每个位置下一个词的分数；去掉 padding 再 softmax，“=”处概率最大的词就是答案。")
    from pycore.gpt import corpus, run
    weights, cfg, _ = run.book_model()  # 书里训练好的权重
    words = view["tokens"]  # 12 个词，最后是“=”
    t = run.trace(words)  # 一次前向，中间结果都留着
    h = t["final_norm"]["output"]  # (12, 48)
    z = h @ weights["tok_emb"].T  # (12, 56)
    z[:, corpus.PAD_ID] = -np.inf
    p = np.exp(z[-1] - z[-1].max()); p = p / p.sum()
    best = int(np.argmax(p))
    print(f"答案「{corpus.VOCAB[best]}」，概率 {p[best]:.4f}")
    same(p[best], view["answer"]["p"])
    assert corpus.VOCAB[best] == view["answer"]["word"]

    step("所选那一层的注意力：进注意力之前的 LayerNorm 输出乘 $W_Q$、$W_K$，"
         "按头切成 4 份（每头 12 维），因果地打分再 softmax；这里是所选词那一行，4 个头各一行。")
    L = view["attn"]["layer"]
    x = t["layers"][L]["ln1"]["output"]  # (T, 48)
    T, H = len(words), cfg["n_heads"]
    Dh = x.shape[1] // H
    q = (x @ weights[f"layers.{L}.attn.w_q"]).reshape(T, H, Dh).transpose(1, 0, 2)
    k = (x @ weights[f"layers.{L}.attn.w_k"]).reshape(T, H, Dh).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(Dh)  # (H, T, T)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    i = params["position"]
    print(f"L{L} 各头在「{words[i]}」处最看重：", [words[j] for j in a[:, i].argmax(1)])
    same(a[:, i], view["attn"]["rows"])
