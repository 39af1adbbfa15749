"""The notebook lesson of the widget clip-matrix (its view: __init__.py beside it):
the view's numbers its notebook shows, and the NumPy under them, step by step (what a lesson
holds: bookbuild/lessons/__init__.py)."""
import numpy as np

from bookbuild.lessons import step

TITLE = "CLIP：图文相似度矩阵与对比损失"
KEYS = ["tau", "captions", "texts", "cos", "loss_i2t", "loss_t2i", "loss"]
MOVED = {"tau": 0.05, "captions": "edit"}


def lesson(params, view, same):
    step("两边的向量先归一化成单位长度，余弦矩阵就是一次矩阵乘法：行是图，列是说明。")
    from pycore.widgets import clip_matrix as cm
    img = np.array([f for _, f in cm.IMAGES])  # (5, 6)
    txt = np.array([f for _, f in cm.captions_of(params["captions"])])  # (5, 6)
    img = img / np.linalg.norm(img, axis=1, keepdims=True)
    txt = txt / np.linalg.norm(txt, axis=1, keepdims=True)
    cos = img @ txt.T  # (5, 5)
    print(np.round(cos, 3))
    same(cos, view["cos"])

    step(r"logits 是余弦除以 $\tau$。按行做交叉熵（图→文），按列再做一次（文→图），正确答案都是对角线，两者取平均。")
    z = cos / params["tau"]
    def ce(z):  # 每一行的交叉熵，答案是对角线
        z = z - z.max(axis=1, keepdims=True)
        return np.mean(np.log(np.exp(z).sum(axis=1)) - np.diag(z))
    i2t, t2i = ce(z), ce(z.T)
    print(f"图→文 {i2t:.4f}，文→图 {t2i:.4f}，平均 {(i2t + t2i) / 2:.4f}")
    same(i2t, view["loss_i2t"])
    same(t2i, view["loss_t2i"])
    same((i2t + t2i) / 2, view["loss"])
