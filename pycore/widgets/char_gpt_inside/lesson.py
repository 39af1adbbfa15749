"""The notebook lesson of the widget char-gpt-inside (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "字符级模型的内部：注意力和逻辑透镜"
KEYS = ["layer", "head", "n_read", "n"]
MOVED = {"layer": 0, "head": 1, "at": 5}


def lesson(params, view, same):
    step("模型读文本的最后 64 个字，词表外的字读作编号 0；整个模型前向一遍，缓存里留着每一层每个头的注意力权重。")
    from pycore.gpt import model, poem_run
    weights, cfg, record = poem_run.poem_model()
    text = view["text"][-cfg["n_positions"]:]
    index = {c: i for i, c in enumerate(record["vocab"])}
    ids = np.array([[index.get(c, 0) for c in text]])  # (1, T)
    h, cache = model.forward(weights, cfg, ids)
    a = cache["blocks"][params["layer"]]["attn"]["weights"][0, params["head"]]  # (T, T)
    n = view["n"]
    print("所选的头在最后", n, "个字上的权重：\n", np.round(a[-n:, -n:], 3))
    same(a[-n:, -n:], np.array(view["weights"])[:n, 1:n + 1])
    same(a[-n:, :-n].sum(axis=1), np.array(view["weights"])[:n, 0])

    step("逻辑透镜：把每一层之后的残差流（嵌入之后是第 0 块的输入）在所选的字上直接送进最终的 LayerNorm 和输出层。")
    from pycore import norms
    at = len(text) - n + view["at"]  # the picked character: view["at"] counts within the heatmap's n
    print("所选的字：", text[at])
    stream = [b["x"][0, at] for b in cache["blocks"]] + [cache["x"][0, at]]  # L + 1 个 (D,)
    k = len(view["lens"]["cols"])
    for row, x in enumerate(stream):
        z = model.logits(weights, norms.layer_norm(x, weights["ln_f.gamma"], weights["ln_f.beta"]))
        p = np.exp(z - z.max()); p = p / p.sum()
        top = np.sort(p)[::-1][:k]
        print(view["lens"]["rows"][row]["label"], np.round(top, 3))
        same(top, [c["v"] for c in view["lens"]["cells"][row * k:(row + 1) * k]])
