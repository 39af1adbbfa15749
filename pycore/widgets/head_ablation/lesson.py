"""The notebook lesson of the widget head-ablation (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "关掉注意力头：消融"
KEYS = ["accuracy", "correct", "n", "off"]
MOVED = {"l0h0": False, "l0h1": True, "l0h2": False, "l0h3": True, "l1h0": True,
         "l1h1": False, "l1h2": True, "l1h3": True}


def lesson(params, view, same):
    step("一个头的输出只经过 $W_O$ 里属于它的 12 行进入残差流，所以把这 12 行清零，就等于关掉这个头。用这样改过的权重，在同一批留出句子上数一数答对几句。")
    from pycore.gpt import corpus, evaluate, model, run
    weights, cfg, _ = run.book_model()
    off = [(l, h) for l in range(2) for h in range(4) if not params[f"l{l}h{h}"]]
    w = dict(weights)
    for l, h in off:
        name = f"layers.{l}.attn.w_o"
        w[name] = w[name].copy()
        w[name][12 * h:12 * (h + 1)] = 0.0  # 第 h 个头的 12 行
    b = corpus.batch(evaluate.heldout(view["n"]))
    hidden, _ = model.forward(w, cfg, b["inputs"])  # (句数, 长度, 48)
    rows = np.arange(len(b["query"]))
    answer = model.logits(w, hidden[rows, b["query"]]).argmax(axis=-1)  # “=”处
    right = int((answer == b["answer"]).sum())
    print(f"关掉 {off}：{view['n']} 句里答对 {right} 句")
    same(right, view["correct"])
