"""Widget clip-matrix: CLIP's contrastive matching on a small batch made for the book.

Five pictures, each described by what an image encoder might see in it, and their five
captions, embedded by a text encoder into the same six features (both hand-made: the numbers
differ between the two sides, as two encoders' would). The view draws three matrices of
images × captions: the cosines, the softmax along each row (image → text) and along each
column (text → image), the diagonal (the right pairs) framed; and the loss, the mean of the
two cross-entropies. The reader moves the temperature and may swap two captions or get one
wrong, and sees the loss react.
"""
from ... import figure
from ...clip import contrastive

FEATURES = ["猫", "狗", "草地", "室内", "夜晚", "水边"]

# (what the picture shows, the image encoder's features of it)
IMAGES = [
    ("草地上趴着一只猫", [0.8, 0.3, 0.6, 0.1, 0.1, 0.1]),
    ("沙发上睡着一只狗", [0.3, 0.8, 0.1, 0.6, 0.2, 0.0]),
    ("夜里亮着路灯的街道", [0.1, 0.1, 0.2, 0.4, 0.8, 0.2]),
    ("停在海边的一条小船", [0.0, 0.1, 0.2, 0.1, 0.4, 0.8]),
    ("在草地上奔跑的狗", [0.3, 0.7, 0.7, 0.1, 0.1, 0.2]),
]

# (the caption, the text encoder's features of it); row i belongs to image i
CAPTIONS = [
    ("草地上的一只猫", [1.0, 0.0, 0.7, 0.0, 0.0, 0.0]),
    ("沙发上睡觉的狗", [0.0, 1.0, 0.0, 0.8, 0.0, 0.0]),
    ("夜晚灯光下的街", [0.0, 0.0, 0.0, 0.3, 1.0, 0.0]),
    ("海边的小船", [0.0, 0.0, 0.0, 0.0, 0.2, 1.0]),
    ("草地上跑着的狗", [0.0, 1.0, 0.8, 0.0, 0.0, 0.0]),
]

# What the reader may do to the captions: keep them, swap the two grass captions (the cat's
# and the running dog's: two pictures that share a lawn), or get the sofa dog's caption wrong
# (a cat on the sofa: right place, wrong animal).
WRONG_SOFA = ("沙发上睡觉的猫", [1.0, 0.0, 0.0, 0.8, 0.0, 0.0])
CHANGES = {"right": "说明都对", "swap": "交换文1和文5", "edit": "把文2改成猫"}

PARAMS = {
    "tau": {"type": "float", "min": 0.01, "max": 1.0, "default": 0.2, "scale": "log",
            "help": "the temperature tau: logits = cosine / tau (CLIP learns 1/tau)"},
    "captions": {"type": "choice", "choices": list(CHANGES), "default": "right",
                 "help": "keep the captions, swap two of them, or get one wrong"},
}

CELL, LABEL_W, LABEL_H = 40, 36, 22
ROWS = [f"图{i + 1}" for i in range(len(IMAGES))]
COLS = [f"文{j + 1}" for j in range(len(CAPTIONS))]
STRONG = 6  # a cell of this colour class or darker takes the light ink (book.css --seq-ink-dark)


def captions_of(change):
    """The batch's captions after the reader's change."""
    caps = list(CAPTIONS)
    if change == "swap":
        caps[0], caps[4] = caps[4], caps[0]
    elif change == "edit":
        caps[1] = WRONG_SOFA
    return caps


def matrix_figure(m, name):
    """One images × captions heatmap on a fixed 0..1 scale, the diagonal framed, each cell's
    value written in it (its ink chosen to stand out from its colour, in both themes)."""
    heat = figure.heatmap(m, ROWS, COLS, cell=CELL, lo=0.0, hi=1.0, label_w=LABEL_W,
                          label_h=LABEL_H, row_name="图", col_name="文",
                          frames={"cells": [(i, i) for i in range(len(ROWS))]})
    for c in heat["cells"]:
        c["strong"] = c["c"] >= STRONG
        c["tx"], c["ty"] = c["x"] + CELL / 2, c["y"] + CELL / 2 + 4
        c["say"] = f"{name}：{c['say']}"
    return heat


def view(tau, captions):
    caps = captions_of(captions)
    m = contrastive([v for _, v in IMAGES], [v for _, v in caps], tau)
    diag = range(len(IMAGES))
    return {
        "tau": tau, "inv_tau": 1 / tau, "captions": captions,
        "images": [t for t, _ in IMAGES], "texts": [t for t, _ in caps],
        "cos": m["cos"], "image_to_text": m["image_to_text"], "text_to_image": m["text_to_image"],
        "loss": m["loss"], "loss_i2t": m["loss_i2t"], "loss_t2i": m["loss_t2i"],
        "right_i2t": [float(m["image_to_text"][i][i]) for i in diag],
        "right_t2i": [float(m["text_to_image"][i][i]) for i in diag],
        "heat_cos": matrix_figure(m["cos"], "余弦"),
        "heat_i2t": matrix_figure(m["image_to_text"], "按行 softmax（图→文）"),
        "heat_t2i": matrix_figure(m["text_to_image"], "按列 softmax（文→图）"),
    }
