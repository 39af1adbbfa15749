"""The notebook lesson of the widget train-live (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "在页面里训练一个小模型"
KEYS = ["seed", "steps", "lr", "accuracy", "evaluated_at", "head"]
MOVED = {"seed": 1, "steps": 6, "head": "0-2", "adjective": "宽"}  # few steps: fast


def lesson(params, view, same):
    step("学习率先在 100 步里线性升到峰值，再按余弦降到最小值。")
    from pycore.gpt import live
    S = live.LIVE  # 这个小模型的训练设置
    t, peak, lo = params["steps"], S["peak_lr"], S["min_lr"]
    if t < S["warmup"]:
        lr = peak * t / S["warmup"]
    else:
        progress = (t - S["warmup"]) / (S["steps"] - S["warmup"])
        lr = lo + (peak - lo) * 0.5 * (1 + np.cos(np.pi * progress))
    print(f"第 {t} 步的学习率 {lr:.2e}")
    same(lr, view["lr"])

    step("用这次训练到第 steps 步的权重，把例句送过所选层之前的各层，再用所选的头算“=”那一行的注意力：它给答案名词的权重就是图里的那个数。")
    from pycore.gpt import corpus, layers, live_runs, model
    from pycore.norms import layer_norm
    run = live_runs.advance(params["seed"], params["steps"])  # 小部件刚训练到的这一次
    w, cfg = run["state"]["params"], run["state"]["settings"]["model"]
    words = live.EXAMPLES[0 if params["adjective"] == "累" else 1]
    ids = np.array([corpus.encode(words)])  # (1, 12)
    x = w["tok_emb"][ids] + w["pos_emb"][:ids.shape[1]]  # (1, 12, 32)
    layer, h = (int(c) for c in params["head"].split("-"))
    for j in range(layer):  # 所选层之前的那些层，整层照搬
        x, _ = layers.block(x, model.layer(w, j), cfg["n_heads"],
                            cfg["activation"])
    p = model.layer(w, layer)
    x = layer_norm(x[0], p["ln1.gamma"], p["ln1.beta"])  # (12, 32)
    Dh = x.shape[1] // cfg["n_heads"]
    cols = slice(Dh * h, Dh * (h + 1))
    q = x[-1] @ p["attn.w_q"][:, cols]  # “=”的查询
    s = (x @ p["attn.w_k"][:, cols]) @ q / np.sqrt(Dh)  # (12,)
    a = np.exp(s - s.max()); a = a / a.sum()  # (12,)：“=”那一行
    noun = words.index(corpus.answer_of(words))
    print(f"给「{words[noun]}」{a[noun]:.4f}")
    same(a[noun], view["on_answer"]["weight"])
