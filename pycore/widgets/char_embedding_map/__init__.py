"""Widget char-embedding-map: the poem model's 2,658 character embeddings (128 numbers each)
projected on their first two principal axes (pycore.gpt.poem_inside.embedding_pca, NumPy's
SVD), as a cloud of points; the reader types a character in the search box and sees it and
its k nearest neighbours (cosine similarity in all 128 dimensions) marked on the map and
listed as bars.

The typed character is a page input (INPUTS): any text is answered. Its first character is
looked up; an empty box, or a character outside the vocabulary, gets a note and no marks.

Parts: `cloud` (the projection and the points: it reads nothing, so it is computed and sent
once) and `found` (the typed character, its neighbours and their marks).
"""
import numpy as np

from ... import figure
from ...gpt import poem_inside, poem_run, poems

DATA_FILES = poem_run.DATA_FILES
INPUTS = ("query",)
SLOTS = 12  # the most neighbours: marks and bars kept on the page, the unused ones hidden
MAP = {"width": 560, "height": 300, "pad": 14, "dot": 2.0}
BARS = {"width": 260, "row": 20, "label_w": 44, "value_w": 48, "top": 1.0, "bottom": 0.0}
DEFAULT = "春"

PARAMS = {
    "k": {"type": "int", "min": 1, "max": SLOTS, "default": 8,
          "help": "how many nearest characters are marked"},
}


def placed(xy):
    """Plot coordinates of the projection: each axis scaled on its own to the map's box (the
    first axis spreads the points several times wider than the second), the second axis up."""
    w, h, pad = MAP["width"], MAP["height"], MAP["pad"]
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    x = pad + (xy[:, 0] - lo[0]) / (hi[0] - lo[0]) * (w - 2 * pad)
    y = h - pad - (xy[:, 1] - lo[1]) / (hi[1] - lo[1]) * (h - 2 * pad)
    return np.round(x, 1), np.round(y, 1)


def cloud():
    params, _, _ = poem_run.poem_model()
    pca = poem_inside.embedding_pca(params)
    x, y = placed(pca["xy"])
    d = MAP["dot"]
    path = "".join(f"M{a:g} {b:g}h{d:g}v{d:g}h-{d:g}z" for a, b in zip(x - d / 2, y - d / 2))
    return {"share": [float(s) for s in pca["share"]], "cloud": path,
            "map": {"width": MAP["width"], "height": MAP["height"]}, "_x": x, "_y": y}


def note_of(query, vocab):
    if not query:
        return "框是空的：输入一个字，看它在图上的位置和离它最近的字。"
    c = query[0]
    more = f"只查第一个字「{c}」。" if len(query) > 1 else ""
    if c not in vocab or c == poems.UNKNOWN:
        return more + f"「{c}」不在词表里（训练文本里出现不到三次的字，模型都读作同一个“未知字”）。"
    return more


def found(k, cloud, query=None):
    query = DEFAULT if query is None else query
    if not isinstance(query, str):
        query = ""
    params, _, record = poem_run.poem_model()
    vocab = record["vocab"]
    note = note_of(query, vocab)
    known = bool(query) and query[0] in vocab and query[0] != poems.UNKNOWN
    ids, sims = (poem_inside.neighbours(params, vocab.index(query[0]), k) if known
                 else (np.zeros(0, dtype=int), np.zeros(0)))
    chars = [vocab[j] for j in ids]
    shown = lambda c: "未知" if c == poems.UNKNOWN else {"\n": "↵", " ": "␣"}.get(c, c)  # noqa: E731
    labels = [shown(c) for c in chars] + [""] * (SLOTS - len(chars))
    values = list(map(float, sims)) + [0.0] * (SLOTS - len(chars))
    bars = figure.bars(values, labels, form="horizontal", texts=[figure.fmt(v, 3) for v in values],
                       **BARS)
    x, y = cloud["_x"], cloud["_y"]
    marks = []
    for slot in range(SLOTS):
        j = int(ids[slot]) if slot < len(ids) else 0
        used = slot < len(ids)
        bars["rows"][slot]["hidden"] = not used
        marks.append({"x": float(x[j]), "y": float(y[j]), "hidden": not used,
                      "say": f"{labels[slot]}：余弦相似度 {values[slot]:.3f}" if used else ""})
    i = vocab.index(query[0]) if known else 0
    return {"query": query, "note": note, "found": known, "k": k,
            "char": shown(query[0]) if known else "",
            "at": {"x": float(x[i]), "y": float(y[i]), "hidden": not known,
                   "tx": float(min(x[i] + 8, MAP["width"] - 20)), "ty": float(max(y[i] - 8, 14))},
            "neighbours": [{"char": c, "cos": v} for c, v in zip(labels, values)],
            "marks": marks, "bars": bars}


PARTS = (cloud, found)
