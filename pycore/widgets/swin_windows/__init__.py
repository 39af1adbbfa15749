"""Widget swin-windows: the patch grid of an image cut into w x w windows (one layer; chapter
11's w, the parameter M), the shifted windows of the next layer, the cyclic roll that computes them, and the score counts.

The picture, in SVG units of one patch (the viewBox is the padded grid):
- Windows are told apart by colour: every layer's pieces form a grid of row bands times column
  bands (pycore.swin cuts each axis on its own), so a checkerboard of colours is two sets of
  stripes, one of the odd row bands and one of the odd column bands, over a base colour: four
  tones, and neighbouring pieces always differ in one of them. Two paths, however many
  windows there are.
- The pieces' borders are the band cuts, drawn across the grid as one path; the previous
  layer's windows (on the shifted layer) as a dashed path; padding as two rectangles.
- Each piece's window id is written at its centre when the ids fit (at most LABEL_SLOTS
  pieces, and a font at least 7 px high in a 420 px wide figure); an unused slot is empty.
- The cyclic layer colours every patch by the regular window it lands in after the roll, and
  an inset draws the rolled grid itself: its regular windows, and inside them (dashed) where
  the mask separates patches that came from different edges.
The view comes in parts (PARTS, pycore/view_parts.py): the windows and their counts, and the
picture of the layer drawn; another layer brings the picture alone.
"""
from functools import lru_cache

import numpy as np

from ... import figure, swin
from ...vit import grid_shape

LAYERS = ["regular", "shifted", "cyclic"]
LAYER_NAMES = {"regular": "本层：规则窗口", "shifted": "下一层：移位窗口",
               "cyclic": "移位的算法：循环移位 + 掩码"}
LABEL_SLOTS = 100   # window ids written at most (a 10 x 10 grid of pieces)
FIG_PX = 420        # the grid's width on a wide page, for the size of the ids

PARAMS = {
    "image_size": {"type": "choice", "choices": [224, 256, 384], "default": 224,
                   "help": "side of the square input image in pixels"},
    "P": {"type": "choice", "choices": [4, 8, 16, 32], "default": 4,
          "help": "patch side in pixels"},
    "M": {"type": "int", "min": 2, "max": 16, "default": 7, "help": "window side in patches"},
    "layer": {"type": "choice", "choices": LAYERS, "default": "regular",
              "help": "which windows to draw: this layer, the next (shifted) layer, or the roll"},
}

CAPTIONS = {
    "regular": "每个 w×w 窗口一种色调（四种相间），数字是窗口编号：一个图块只和同一窗口里的图块做注意力。",
    "shifted": "下一层的窗口向右下错开 {s} 个图块，跨在上一层窗口（虚线）的边界上，边上剩下较小的窗口；"
               "编号相同的图块互相注意。",
    "cyclic": "Swin 并不真的切出大小不一的窗口：它把整张网格向左上循环卷动 {s} 个图块（下面的小图），"
              "再切规则的 w×w 窗口，窗口数不变。大图按卷动后所在的窗口着色：四个角的图块落进同一个窗口，"
              "编号相同；小图里的虚线是掩码，同一窗口里来自不同区域的图块互不相看。",
}


def runs(line):
    """Start of every run of equal values in a 1-D array, plus its end: [0, ..., len]."""
    line = np.asarray(line)
    starts = np.flatnonzero(line[1:] != line[:-1]) + 1
    return [0, *starts.tolist(), len(line)]


def pieces(ids, colour_of):
    """[[r0, c0, rows, cols, id, colour], ...]: the rectangles of equal id in an (h, w) grid.

    colour_of(id, i, j) -> 0..3 for the piece in row band i and column band j.
    """
    ids = np.asarray(ids)
    row_cuts, col_cuts = runs(ids[:, 0]), runs(ids[0, :])
    out = []
    for i, (r0, r1) in enumerate(zip(row_cuts, row_cuts[1:])):
        for j, (c0, c1) in enumerate(zip(col_cuts, col_cuts[1:])):
            k = int(ids[r0, c0])
            out.append([r0, c0, r1 - r0, c1 - c0, k, colour_of(k, i, j)])
    return out


def band_colour(_, i, j):
    """Four colours in a checkerboard of bands: neighbouring pieces never share one."""
    return 2 * (i % 2) + j % 2


def window_colour(n_cols):
    """Colour of a rolled window by its place (row, column) among the regular windows."""
    def colour(k, *_):
        r, c = divmod(k, n_cols)
        return 2 * (r % 2) + c % 2
    return colour


# ---------------------------------------------------------------- the picture

def stripes(odd, length, across):
    """One path of the rectangles where `odd` (one flag per position along an axis) holds:
    across=False: rows y..y+n spanning the width `length`; True: columns spanning the height."""
    odd = np.asarray(odd)
    d, cuts = [], runs(odd)
    for a, b in zip(cuts, cuts[1:]):
        if odd[a]:
            d.append(f"M{a} 0V{length}h{b - a}V0z" if across else
                     f"M0 {a}H{length}v{b - a}H0z")
    return "".join(d)


def cut_lines(row_cuts, col_cuts, width, height):
    """The lines at the interior cuts of both axes, each across the whole grid, as one path."""
    d = [f"M0 {y}H{width}" for y in row_cuts if 0 < y < height]
    d += [f"M{x} 0V{height}" for x in col_cuts if 0 < x < width]
    return "".join(d)


@lru_cache(maxsize=16)
def grid_lines(width, height):
    """The patch grid: a line between every two rows and every two columns."""
    return cut_lines(range(height + 1), range(width + 1), width, height)


def parity_of_runs(values):
    """For each position, the parity (0 or 1) of the run of equal values it belongs to."""
    cuts = runs(values)
    out = np.zeros(len(values), dtype=int)
    for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
        out[a:b] = k % 2
    return out


def labels(ids, row_cuts, col_cuts, padded_w, m):
    """The window id at every piece's centre, in LABEL_SLOTS slots, and the font size (SVG
    units): ids are written only where they fit and are at least 7 px high on the page."""
    font = min(16 * padded_w / FIG_PX, 0.34 * m)
    n_pieces = (len(row_cuts) - 1) * (len(col_cuts) - 1)
    shown = font * FIG_PX / padded_w >= 7 and n_pieces <= LABEL_SLOTS
    slots = []
    if shown:
        for r0, r1 in zip(row_cuts, row_cuts[1:]):
            for c0, c1 in zip(col_cuts, col_cuts[1:]):
                k = int(ids[r0, c0])
                fits = r1 - r0 >= font and c1 - c0 >= 0.6 * font * len(str(k)) + 0.3
                if fits:
                    slots.append({"x": figure.r((c0 + c1) / 2), "y": figure.r((r0 + r1) / 2),
                                  "text": str(k)})
    blank = {"x": 0, "y": 0, "text": ""}  # an unused slot: no text, nothing drawn
    return slots + [blank] * (LABEL_SLOTS - len(slots)), figure.r(font, 3)


def rolled(h, w, m, shift):
    """The grid after the roll by (-shift, -shift), padded to (Hp, Wp): which band of the
    shifted layer each rolled row and column holds (their parities colour the inset), the
    regular window cuts, the mask's cuts inside the windows, and the padding rows/columns."""
    Hp, Wp = swin.padded(h, m), swin.padded(w, m)

    def axis(n, n_padded):
        original = (np.arange(n_padded) + shift) % n_padded  # rolled position -> original
        band = (original + m - shift) // m if shift else original // m
        windows = list(range(0, n_padded + 1, m))
        mask = [c for c in runs(band) if c not in windows]
        return parity_of_runs(band), windows, mask, original >= n

    rows, row_windows, row_mask, pad_rows = axis(h, Hp)
    cols, col_windows, col_mask, pad_cols = axis(w, Wp)
    pad = "".join(f"M0 {y}h{Wp}v1h-{Wp}z" for y in np.flatnonzero(pad_rows)) + \
        "".join(f"M{x} 0h1v{Hp}h-1z" for x in np.flatnonzero(pad_cols))
    return {"viewbox": f"0 0 {Wp} {Hp}",
            "rows": stripes(rows, Wp, False), "cols": stripes(cols, Hp, True),
            "windows": cut_lines(row_windows, col_windows, Wp, Hp),
            "mask": cut_lines(row_mask, col_mask, Wp, Hp),
            "pad": pad, "hidden": False}


NO_ROLL = {"viewbox": "0 0 1 1", "rows": "", "cols": "", "windows": "", "mask": "", "pad": "",
           "hidden": True}  # the inset, when the cyclic layer is not shown


def picture(layers, layer, h, w, Hp, Wp, m, shift):
    """The grid of one layer: colour stripes, cuts, the previous layer's borders, ids."""
    ids = layers[layer]
    row_cuts, col_cuts = runs(ids[:, 0]), runs(ids[0, :])
    if layer == "cyclic":  # coloured by the window after the roll (a checkerboard of windows)
        r = ((np.arange(h) - shift) % Hp) // m
        c = ((np.arange(w) - shift) % Wp) // m
        row_odd, col_odd = r % 2, c % 2
        row_cuts, col_cuts = runs(layers["shifted"][:, 0]), runs(layers["shifted"][0, :])
    else:
        row_odd, col_odd = parity_of_runs(ids[:, 0]), parity_of_runs(ids[0, :])
    slots, font = labels(ids, row_cuts, col_cuts, Wp, m)
    regular = layers["regular"]
    borders = "" if layer != "shifted" else \
        cut_lines(runs(regular[:, 0]), runs(regular[0, :]), w, h)
    return {
        "viewbox": f"0 0 {Wp} {Hp}", "w": w, "h": h,
        "rows": stripes(row_odd, w, False), "cols": stripes(col_odd, h, True),
        "cuts": cut_lines(row_cuts, col_cuts, w, h), "borders": borders,
        "grid": grid_lines(Wp, Hp),
        "pad": [{"x": 0, "y": h, "w": Wp, "h": Hp - h, "hidden": Hp == h},
                {"x": w, "y": 0, "w": Wp - w, "h": h, "hidden": Wp == w}],
        "labels": slots, "font": font, "halo": figure.r(0.18 * font, 3),
        "row_cuts": row_cuts, "col_cuts": col_cuts,
    }


def score_bars(glob, windowed):
    """Global against windowed scores as two bars on one linear axis (so the windowed bar is
    as small as it is), their values written in full."""
    chart = figure.bars([glob, windowed], ["全局注意力 N²", "窗口注意力"], width=360, height=180,
                        digits=0, axis_space=52)
    for b in chart["bars"]:
        b["text"] = f"{int(b['value']):,}"
        b["say"] = f"{b['label']}：{b['text']} 个分数"
    for t in chart["ticks"]:  # 2000000 -> "200 万": the axis reads in the units of the prose
        value = float(t["label"] or 0)
        if value >= 100_000_000 and value % 100_000_000 == 0:
            t["label"] = f"{value / 100_000_000:g} 亿"
        elif value >= 10_000:
            t["label"] = f"{value / 10_000:g} 万"
    return chart


def windows(image_size, P, M):
    """The windows of the grid and what they cost, whatever layer is drawn (another layer
    leaves them as they are)."""
    h, w = grid_shape(image_size, image_size, P)
    layers = swin.two_layers(h, w, M)
    m = layers["M"]
    counts = swin.score_counts(h, w, m)
    Hp, Wp = counts["padded_grid"]
    n = counts["n_patches"]
    note = ""
    if m != M:
        note = f"网格只有 {h}×{w}，不比 w = {M} 大：窗口缩小为整个网格（w = {m}），不再移位。"
    elif (Hp, Wp) != (h, w):
        note = f"w = {m} 不能整除网格边长：网格补齐到 {Hp}×{Wp}（灰色），补齐的空图块也参与窗口计算。"
    return {
        "image_size": image_size, "P": P, "M": M,
        "M_used": m, "shift": layers["shift"], "shrunk": m != M,
        "grid_h": h, "grid_w": w, "padded_h": Hp, "padded_w": Wp,
        "n_patches": n, "n_windows": counts["n_windows"],
        "window_tokens": m * m, "window_scores": (m * m) ** 2,
        "global": counts["global"], "windowed": counts["windowed"], "ratio": counts["ratio"],
        "n_over_m2": n / (m * m),
        "n_shifted_groups": int(layers["shifted"].max()) + 1,
        "n_cyclic_windows": len(np.unique(layers["cyclic"])),
        "shifted_pairs": swin.allowed_pairs(layers["shifted"]),
        "note": note, "layer_names": LAYER_NAMES,
        "bars": score_bars(counts["global"], counts["windowed"]),
        "_layers": layers,
    }


def drawn_layer(windows, layer):
    """The picture of one layer's windows."""
    layers, h, w = windows["_layers"], windows["grid_h"], windows["grid_w"]
    m, shift = layers["M"], layers["shift"]
    Hp, Wp = swin.padded(h, m), swin.padded(w, m)
    return {
        "layer": layer,
        "caption": CAPTIONS[layer].format(s=shift),
        "grid_say": f"{h}×{w} 的图块网格（{LAYER_NAMES[layer]}），颜色区分窗口，数字是窗口编号",
        "fig": picture(layers, layer, h, w, Hp, Wp, m, shift),
        "roll": rolled(h, w, m, shift) if layer == "cyclic" else NO_ROLL,
    }


PARTS = (windows, drawn_layer)
