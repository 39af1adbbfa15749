"""The book's visual vocabulary as geometry: every mark a widget draws, computed here.

A widget's view returns numbers *and* the geometry of its picture (bar extents, cell colours,
curve end points, axis ticks), built with these functions; the templates
(templates/widgets/_marks.html) only print them and the page's JavaScript only binds them
(docs/widgets.md). Nothing is computed twice, in two languages.

Conventions:
- Coordinates are SVG user units of the figure's viewBox, y pointing down.
- Colours are class indices, never colour values: a sequential map of SEQ classes
  (`data-seq="0".."8"`, perceptual, light to dark; CSS --seq-k) for magnitudes such as weights
  and probabilities, and a diverging map of DIV classes (`data-div="0".."8"`, 4 = zero; CSS
  --div-k) for signed values. The book's colour rule (docs/widgets.md, "Colour"): attention
  weights on one fixed scale (weight_classes), embeddings and activations on the diverging
  map (ACTIVATION_LIMIT for the running example's vectors); the sequential map is the same
  ink in both themes (darker = larger), the diverging one's zero is the page's own tone.
- Every figure that uses a colour map carries its legend (`legend`), which says whether the map
  is scaled per row or over the whole figure.
- Text the page shows (value labels, readouts) is formatted here too, with `fmt`: pycore/fmt.py,
  the format of the build's `num` filter and of every number the live page shows.
"""
import functools
import math

import numpy as np

from .fmt import SEQ, number, weight_classes  # noqa: F401  (SEQ: data-seq 0 .. 8)

TICKS = 7        # tick slots of every axis: a live view redraws the same elements, so an
                 # axis always has TICKS of them, the unused ones hidden
DIV = 9          # classes of the diverging map: data-div 0 (most negative) .. 8; 4 is zero


def fmt(value, digits=3):
    """The book's one number format (pycore/fmt.py)."""
    return number(value, digits)


def r(value, places=2):
    """An SVG coordinate, rounded: sub-pixel digits only make the page heavier."""
    return round(float(value), places)


# ---------------------------------------------------------------- scales and colours

def scale(value, d0, d1, r0, r1):
    """Map value from the domain [d0, d1] to the range [r0, r1] (linearly)."""
    if d1 == d0:
        return (r0 + r1) / 2
    return r0 + (value - d0) / (d1 - d0) * (r1 - r0)


def seq_class(value, lo, hi):
    """The sequential class (0..SEQ-1) of value on [lo, hi]; outside values are clipped."""
    if hi <= lo:
        return SEQ - 1 if value >= hi else 0
    t = (value - lo) / (hi - lo)
    return min(SEQ - 1, max(0, int(math.floor(t * SEQ))))


def div_class(value, limit):
    """The diverging class (0..DIV-1) of value on [-limit, limit], DIV // 2 for zero."""
    if limit <= 0:
        return DIV // 2
    t = max(-1.0, min(1.0, value / limit))
    half = DIV // 2
    return half + int(round(t * half))


def nice_step(span, count=5):
    """A round step (1, 2 or 5 times a power of ten) giving about `count` ticks over span."""
    if span <= 0:
        return 1.0
    raw = span / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power * (1 + 1e-9):
            return m * power
    return 10 * power


def nice_ticks(lo, hi, count=5):
    """Round tick values covering [lo, hi]: the ticks of a readable axis."""
    step = nice_step(hi - lo, count)
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    return [round(k * step, 12) + 0.0 for k in range(first, last + 1)]  # + 0.0: no -0.0


def padded(ticks, blank):
    """ticks [{...}] filled up to TICKS entries with hidden copies of `blank`."""
    ticks = [{**t, "hidden": False} for t in ticks[:TICKS]]
    return ticks + [{**blank, "hidden": True} for _ in range(TICKS - len(ticks))]


def nice_max(value, count=5):
    """The smallest round tick at or above value (an autoscaled axis's top)."""
    step = nice_step(value, count)
    return math.ceil(value / step - 1e-9) * step if value > 0 else step


def tick_label(value, step):
    """A tick's text with just enough digits for its step (0.25 -> 0.25, 1000 -> 1000)."""
    digits = max(0, -int(math.floor(math.log10(step) + 1e-9))) if step < 1 else 0
    return fmt(value, digits)


# ---------------------------------------------------------------- the book's colour rule

# Attention weights are drawn on ONE scale in every figure of the book (weight_classes, in
# pycore/fmt.py with the weights tables' shades): the sequential map over a fixed 0..1, so that
# the same head looks the same in every chapter, a sharper head (a larger logit scale, a
# trained head) darker and a soft one paler; class k for sqrt(w) in [k/9, (k+1)/9).
WEIGHT_MARKS = (0.1, 0.5)  # the weight legend's inner labels: where the steps fall
# The running example's embeddings and activations (the 0/1 features, X + PE, a LayerNorm's
# output) on the diverging map over one fixed range, so that one matrix looks the same in
# every figure: |value| 2.5 gets the strongest colour (a LayerNorm's outputs stay within it).
ACTIVATION_LIMIT = 2.5


def weight_class(value):
    """weight_classes of one weight: weight_class(0.21) -> 4, weight_class(1/81) -> 1."""
    return int(weight_classes(value))


def weight_legend(width=180, height=10):
    """The legend of the weight scale: the swatches, 0 and 1 at its ends and WEIGHT_MARKS
    where their steps fall (sqrt(w) of the width), and the note saying it is fixed."""
    key = legend(0.0, 1.0, width=width, height=height, digits=0)
    key.update(scale="weights", note="全书统一 0–1 刻度",
               marks=[{"x": r(math.sqrt(m) * width), "text": f"{m:g}"} for m in WEIGHT_MARKS])
    return key


# ---------------------------------------------------------------- legend

def legend(lo, hi, *, kind="seq", width=180, height=10, scaled="global", digits=2):
    """A colour legend: one swatch per class over `width`, the range's ends as labels, and
    what the map is scaled over ('global': the whole figure; 'row': each row on its own)."""
    note = {"global": "全图统一刻度", "row": "每行单独刻度"}[scaled]
    swatches = [dict(s) for s in _swatches(SEQ if kind == "seq" else DIV, width)]
    return {"kind": kind, "width": width, "height": height, "swatches": swatches,
            "lo": fmt(lo, digits), "hi": fmt(hi, digits), "scaled": scaled, "note": note}


@functools.lru_cache(maxsize=32)
def _swatches(n, width):
    """A legend's n swatches over width: the same for every view of a figure."""
    w = width / n
    return tuple({"x": r(k * w), "w": r(w), "c": k} for k in range(n))


# ---------------------------------------------------------------- bars

def bars(values, labels, *, width=360, height=170, top=None, bottom=None, digits=3,
         gap=0.25, label_space=18, value_space=16, axis_space=30):
    """Vertical bars, one per value, with a baseline at 0, value labels and a round axis.

    top/bottom: the axis's ends (default: autoscaled to round ticks around the values; pass
    top=1 for probabilities, so that the reader compares with a fixed 0-1 scale). Returns
    {width, height (the viewBox), baseline (y of 0), ticks [{y, label}], bars [{x, y, w, h,
    cx (the bar's centre), ty (its value label's baseline), value, text, label, seq}]}. A
    negative bar hangs below the baseline."""
    values = [float(v) for v in values]
    lo = min([0.0] + values) if bottom is None else bottom
    hi = (nice_max(max([0.0] + values)) if top is None else top)
    if bottom is None and lo < 0:
        lo = -nice_max(-lo)
    plot_top, plot_bottom = value_space, height - label_space
    y = lambda v: scale(v, lo, hi, plot_bottom, plot_top)  # noqa: E731
    slot = (width - axis_space) / max(len(values), 1)  # the tick labels sit left of the bars
    bw = slot * (1 - gap)
    y0, w, biggest = y(0.0), r(bw), max(abs(lo), abs(hi))
    out = []
    for i, (v, label) in enumerate(zip(values, labels)):
        y1 = y(max(lo, min(hi, v)))
        top_y, h = min(y0, y1), abs(y1 - y0)
        left = axis_space + i * slot
        out.append({"x": r(left + (slot - bw) / 2), "y": r(top_y), "w": w, "h": r(h),
                    "cx": r(left + slot / 2),
                    "ty": r(top_y - 4 if v >= 0 else top_y + h + 12),
                    "value": v, "text": f"{v:.{digits}f}", "label": str(label),
                    "say": f"{label}：{v:.4f}", "seq": seq_class(abs(v), 0.0, biggest)})
    return {"width": width, "height": height, "baseline": r(y0),
            "ticks": [dict(t) for t in _bar_ticks(lo, hi, plot_bottom, plot_top)],
            "bars": out, "top": hi, "bottom": lo, "label_y": height - 4, "axis_x": axis_space}


@functools.lru_cache(maxsize=64)
def _bar_ticks(lo, hi, plot_bottom, plot_top):
    """bars' axis: the same for every view on a fixed axis, so worked out once."""
    y = lambda v: scale(v, lo, hi, plot_bottom, plot_top)  # noqa: E731
    step = nice_step(hi - lo)
    return tuple(padded([{"y": r(y(t)), "label": tick_label(t, step)} for t in nice_ticks(lo, hi)],
                        {"y": r(y(0.0)), "label": ""}))


# ---------------------------------------------------------------- heatmap

def heatmap(matrix, rows, cols, *, cell=32, scaled="global", lo=None, hi=None,
            diverging=False, digits=2, label_w=44, label_h=22, selected_row=None,
            selected_col=None, masked=None, row_name="", col_name="", weights=False):
    """A labelled heatmap. Each cell {i, j, x, y, w, h, c (colour class), v (value), text (the
    value at `digits`), say (the readout: "row → col：value"), masked}; rows/cols [{i, x|y,
    label}]; the selected row and column (for a highlight band); and the legend.

    scaled='row' colours each row over its own range (a row of attention weights), 'global'
    over the whole matrix (or [lo, hi] if given). diverging=True uses the diverging map around
    0. masked: a same-shape matrix of booleans, cells drawn as hidden (the causal mask).
    weights=True: attention weights, on the book's one weight scale (weight_classes; lo, hi
    and scaled are not used)."""
    m = _float_rows(matrix)
    n_rows, n_cols = len(m), len(m[0]) if m else 0
    flat = [x for row in m for x in row]
    g_lo = min(flat) if lo is None else lo
    g_hi = max(flat) if hi is None else hi
    limit = max(abs(g_lo), abs(g_hi))
    classes = weight_classes(m).tolist() if weights else \
        _cell_classes(m, scaled, g_lo, g_hi, limit, diverging)
    hidden = [[bool(x) for x in row] for row in masked] if masked is not None else None
    row_names, col_names = [str(t) for t in rows], [str(t) for t in cols]
    xs = [label_w + j * cell for j in range(n_cols)]
    cells = []  # a live view sends every cell: one dict each, the values formatted in place
    for i, (row, c_row) in enumerate(zip(m, classes)):
        y, name, h_row = label_h + i * cell, row_names[i], hidden[i] if hidden else None
        cells += [{"i": i, "j": j, "x": xs[j], "y": y, "w": cell, "h": cell, "c": c, "v": v,
                   "text": f"{v:.{digits}f}", "say": f"{name} → {col_names[j]}：{v:.4f}",
                   "masked": h_row[j] if h_row else False}
                  for j, (v, c) in enumerate(zip(row, c_row))]
    kind = "div" if diverging else "seq"
    width = min(180, label_w + n_cols * cell)
    if weights:
        key = weight_legend(width=width)
    else:
        key = legend(-limit if diverging else g_lo, limit if diverging else g_hi, kind=kind,
                     width=width, scaled=scaled, digits=digits)
        if scaled == "row":
            key["lo"], key["hi"] = "行内最小", "行内最大"
    return {"width": label_w + n_cols * cell, "height": label_h + n_rows * cell,
            "cell": cell, "label_w": label_w, "label_h": label_h,
            "rows": [{"i": i, "y": label_h + i * cell + cell / 2, "label": str(t)}
                     for i, t in enumerate(rows)],
            "cols": [{"j": j, "x": label_w + j * cell + cell / 2, "label": str(t)}
                     for j, t in enumerate(cols)],
            "cells": cells, "legend": key,
            "selected_row": selected_row, "selected_col": selected_col,
            "row_band": None if selected_row is None else
            {"x": 0, "y": label_h + selected_row * cell, "w": label_w + n_cols * cell,
             "h": cell},
            "col_band": None if selected_col is None else
            {"x": label_w + selected_col * cell, "y": 0, "w": cell,
             "h": label_h + n_rows * cell},
            "row_name": row_name, "col_name": col_name}


def _float_rows(matrix):
    """A matrix as rows of Python floats (one .tolist() for an array: per-entry float() calls
    on NumPy scalars cost several times more, in Pyodide most of all)."""
    if isinstance(matrix, np.ndarray) and matrix.ndim == 2:
        return matrix.astype(float).tolist()
    return [[float(x) for x in row] for row in matrix]


def _cell_classes(m, scaled, lo, hi, limit, diverging):
    """The colour class of every cell of heatmap(): the rule of div_class or seq_class, for the
    whole matrix in a few NumPy calls. A matrix that NumPy cannot take in one piece (ragged
    rows) or that holds a NaN or an infinity goes cell by cell (where seq_class raises)."""
    try:
        a = np.array(m, dtype=float)
    except ValueError:
        a = None
    if a is None or a.ndim != 2 or not np.isfinite(a).all() or \
            not all(math.isfinite(float(x)) for x in (lo, hi)):
        out = []
        for row in m:
            r_lo, r_hi = (min(row), max(row)) if scaled == "row" else (lo, hi)
            out.append([div_class(v, limit) if diverging else seq_class(v, r_lo, r_hi)
                        for v in row])
        return out
    if diverging:  # as div_class: round half to even, like Python's round
        if limit <= 0:
            return np.full(a.shape, DIV // 2).tolist()
        half = DIV // 2
        return (half + np.rint(np.clip(a / limit, -1.0, 1.0) * half)).astype(int).tolist()
    if scaled == "row":
        r_lo, r_hi = a.min(axis=1, keepdims=True), a.max(axis=1, keepdims=True)  # (n, 1)
    else:
        r_lo, r_hi = np.float64(lo), np.float64(hi)
    flat = r_hi <= r_lo  # a row (or a matrix) of one value: seq_class's special case
    span = np.where(flat, 1.0, r_hi - r_lo)
    t = np.clip(np.floor((a - r_lo) / span * SEQ), 0, SEQ - 1)
    return np.where(flat, np.where(a >= r_hi, SEQ - 1, 0), t).astype(int).tolist()


# ---------------------------------------------------------------- line chart

def axis_ticks(values, to, lo, hi, digits=None):
    """Ticks [{at (SVG units), label}] of an axis from lo to hi: round values unless given."""
    step = nice_step(hi - lo)
    values = nice_ticks(lo, hi) if values is None else values
    return padded([{"at": r(to(v)), "label": fmt(v, digits) if digits is not None else
                    tick_label(v, step)} for v in values], {"at": r(to(lo)), "label": ""})


X_LABEL_ROW = 18  # SVG units under a line chart's tick labels for its x axis's title


def line_chart(series, *, width=560, height=220, x_domain=None, y_domain=None,
               margin=(12, 16, 30, 52), x_ticks=None, y_ticks=None, x_label="", y_label="",
               x_digits=None, y_digits=None, points=False, probes=0, say=None):
    """A line chart with axes. series: [{name, x: [...], y: [...]}]. margin: (top, right,
    bottom, left). Returns {width, height, plot {x, y, w, h}, paths [{name, d, k (the series'
    index, for its colour)}], x_ticks/y_ticks [{x|y, label}], and for the crosshair each
    series' points [{x, y, vx, vy}] in SVG units and values} (points=True).

    probes=n: n evenly spaced points of the first series the reader can point at (or step
    through with the arrow keys), each {x, y (SVG), x0, w (its hit strip), say (the readout:
    say(x, y), default "x = …, y = …")}: the chart's crosshair."""
    top, right, bottom, left = margin
    x0, x1 = x_domain or _extent([x for s in series for x in s["x"]])
    # the x axis's title has a row of its own under the tick labels (at the right end it
    # would sit on the last one): the figure grows, the plot keeps its place and size
    full_height = height + X_LABEL_ROW if x_label else height
    y0, y1 = y_domain or _extent([y for s in series for y in s["y"]], 0.0)
    px, py, pw, ph = left, top, width - left - right, height - top - bottom
    sx = lambda v: scale(v, x0, x1, px, px + pw)  # noqa: E731
    sy = lambda v: scale(v, y0, y1, py + ph, py)  # noqa: E731
    paths = []
    for k, s in enumerate(series):
        cx = svg_coords(s["x"], x0, x1, px, px + pw)
        cy = svg_coords(s["y"], y0, y1, py + ph, py)
        d = " ".join([f"L{x},{y}" for x, y in zip(cx, cy)])
        entry = {"name": s.get("name", ""), "d": "M" + d[1:] if d else d, "k": k}
        if points:
            entry["points"] = [{"x": x, "y": y, "vx": float(vx), "vy": float(vy)}
                               for x, y, vx, vy in zip(cx, cy, s["x"], s["y"])]
        paths.append(entry)

    chart_probes = []
    if probes and series and len(series[0]["x"]) > 1:
        sx0, sy0 = series[0]["x"], series[0]["y"]
        picks = sorted({round(k * (len(sx0) - 1) / (probes - 1)) for k in range(probes)})
        strip = pw / max(len(picks) - 1, 1)
        for n in picks:
            vx, vy = float(sx0[n]), float(sy0[n])
            text = say(vx, vy) if say else f"x = {fmt(vx, 2)}，y = {fmt(vy, 3)}"
            chart_probes.append({"x": r(sx(vx)), "y": r(sy(vy)), "x0": r(sx(vx) - strip / 2),
                                 "w": r(strip), "say": text})
    xt = axis_ticks(x_ticks, sx, x0, x1, x_digits)
    yt = axis_ticks(y_ticks, sy, y0, y1, y_digits)
    return {"width": width, "height": full_height, "plot": {"x": px, "y": py, "w": pw, "h": ph},
            "paths": paths, "x_ticks": xt, "y_ticks": yt, "x_label": x_label,
            "probes": chart_probes,
            "y_label": y_label, "x_axis_y": py + ph, "y_axis_x": px}


def _extent(values, floor=None):
    """(min, max) of values as floats (with floor in the min: a y axis starts at 0)."""
    values = [float(v) for v in values]
    return (min(values if floor is None else [floor] + values), max(values))


def svg_coords(values, d0, d1, r0, r1):
    """[r(scale(v, d0, d1, r0, r1)) for v in values], the arithmetic in one NumPy pass (the
    same operations in the same order, so the same floats): a curve's hundreds of points."""
    if d1 == d0:
        return [r((r0 + r1) / 2)] * len(values)
    v = np.asarray(values, dtype=float)
    return [round(x, 2) for x in (r0 + (v - d0) / (d1 - d0) * (r1 - r0)).tolist()]


# ---------------------------------------------------------------- arrows on a grid

def arrow(x1, y1, x2, y2, head=9, spread=0.45):
    """A 2-D arrow from (x1, y1) to (x2, y2) in SVG units: the shaft ends where the head
    begins, and the head is a filled triangle ("M tip L left L right Z")."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return {"x1": r(x1), "y1": r(y1), "x2": r(x2), "y2": r(y2), "head": ""}
    ux, uy = dx / length, dy / length
    h = min(head, length)
    bx, by = x2 - ux * h, y2 - uy * h
    px, py = -uy * h * spread, ux * h * spread
    tip = f"M{r(x2)},{r(y2)} L{r(bx + px)},{r(by + py)} L{r(bx - px)},{r(by - py)} Z"
    return {"x1": r(x1), "y1": r(y1), "x2": r(bx), "y2": r(by), "head": tip,
            "tx": r(x2 + ux * 12), "ty": r(y2 + uy * 12 + 4)}


def plane(extent, size=300, step=1.0):
    """A square 2-D plane of [-extent, extent]² drawn in size × size units: the grid lines
    (every `step`, the axes marked) and a function mapping a point to SVG units."""
    to = lambda x, y: (scale(x, -extent, extent, 0, size),  # noqa: E731
                       scale(y, -extent, extent, size, 0))
    n = int(round(extent / step))
    lines = []
    for k in range(-n, n + 1):
        v = k * step
        (ax, _), (_, ay) = to(v, 0), to(0, v)
        lines.append({"x1": r(ax), "y1": 0, "x2": r(ax), "y2": size, "axis": k == 0})
        lines.append({"x1": 0, "y1": r(ay), "x2": size, "y2": r(ay), "axis": k == 0})
    return {"size": size, "extent": extent, "lines": lines}, to


# ---------------------------------------------------------------- attention over a sentence

def token_row(tokens, *, width, y, pad=6):
    """The tokens of a sentence laid out evenly across `width`: [{i, x (centre), y, label}]."""
    return [dict(t) for t in _token_row(tuple(str(t) for t in tokens), width, y, pad)]


@functools.lru_cache(maxsize=64)
def _token_row(labels, width, y, pad):
    """token_row of a sentence's labels: a figure's fixed sentence is laid out once."""
    slot = width / max(len(labels), 1)
    return tuple({"i": i, "x": r(i * slot + slot / 2), "y": y, "label": t, "w": r(slot - pad)}
                 for i, t in enumerate(labels))


def _floats(values):
    """values as a list of Python floats (an array in one .tolist())."""
    if isinstance(values, np.ndarray):
        return values.astype(float).ravel().tolist()
    return [float(v) for v in values]


def attention_curves(tokens, row, query, *, width=400, height=170, max_width=9.0,
                     min_opacity=0.08, digits=3, masked=None):
    """Attention as curves over the sentence: the tokens across the top (the query's row)
    and again across the bottom (the keys), one curve from the query token to every key,
    its width and opacity proportional to the weight. row: the query's weights (sum 1).
    Returns {width, height, top [...], bottom [...], curves [{j, d, sw (stroke width),
    op (opacity), weight, text, say, masked}], query}."""
    top_y, bottom_y = 16, height - 20  # token baselines; each key's weight goes under it
    top = [{**t, "query": t["i"] == query} for t in token_row(tokens, width=width, y=top_y)]
    bottom = [{**t, "wy": height - 4} for t in token_row(tokens, width=width, y=bottom_y)]
    weights = _floats(row)
    biggest = max(max(weights), 1e-12)
    qx = top[query]["x"]
    y0, y1 = top_y + 8, bottom_y - 16
    start, bend, end = r(y0), r((y0 + y1) / 2), r(y1)
    curves = []
    for j, w in enumerate(weights):
        kx = bottom[j]["x"]
        share = w / biggest
        curves.append({"j": j, "tokens": f"{query} {j}",
                       "d": f"M{qx},{start} C{qx},{bend} {kx},{bend} {kx},{end}",
                       "sw": r(0.6 + (max_width - 0.6) * share),
                       "op": r(min_opacity + (1 - min_opacity) * share, 3), "weight": w,
                       "text": f"{w:.{digits}f}", "say": f"{tokens[query]} → {tokens[j]}：{w:.4f}",
                       "masked": bool(masked[j]) if masked is not None else False,
                       "seq": seq_class(w, 0.0, biggest)})
    return {"width": width, "height": height, "top": top, "bottom": bottom, "curves": curves,
            "query": query}


# ---------------------------------------------------------------- an angle between two rays

def angle_arc(x0, y0, x1, y1, x2, y2, *, radius=28.0, label_gap=16.0):
    """The angle at (x0, y0) between the rays to (x1, y1) and to (x2, y2), in SVG units: an
    arc of `radius` over the smaller of the two angles (at most 180°), and where its label goes,
    on the bisector just outside the arc: {d, tx, ty}. Opposite rays (180°) are joined round
    the side a quarter turn counter-clockwise (on screen) from the first; a ray of zero length
    has no angle, so the arc is empty and the label sits at the corner."""
    ux, uy, vx, vy = x1 - x0, y1 - y0, x2 - x0, y2 - y0
    lu, lv = math.hypot(ux, uy), math.hypot(vx, vy)
    if lu < 1e-9 or lv < 1e-9:
        return {"d": f"M{r(x0)},{r(y0)}", "tx": r(x0), "ty": r(y0)}
    ux, uy, vx, vy = ux / lu, uy / lu, vx / lv, vy / lv
    mx, my = ux + vx, uy + vy
    lm = math.hypot(mx, my)
    mx, my = (mx / lm, my / lm) if lm > 1e-9 else (uy, -ux)
    # y points down: a positive cross product turns clockwise on screen, SVG's sweep flag 1
    sweep = 1 if ux * vy - uy * vx > 1e-12 else 0
    d = (f"M{r(x0 + radius * ux)},{r(y0 + radius * uy)} A{r(radius)},{r(radius)} 0 0,{sweep} "
         f"{r(x0 + radius * vx)},{r(y0 + radius * vy)}")
    out = radius + label_gap
    return {"d": d, "tx": r(x0 + out * mx), "ty": r(y0 + out * my + 4)}  # +4: text centred


# ---------------------------------------------------------------- frames over a heatmap

def heat_frames(heat, *, rows=(), cells=()):
    """Frames over a heatmap (from `heatmap`): one around each row i of `rows`, its label
    included, then one around each cell (i, j) of `cells`: [{x, y, w, h}]. A live view
    redraws the same frames, so a widget asks for the same number of them every time."""
    cell, label_w, label_h = heat["cell"], heat["label_w"], heat["label_h"]
    return ([{"x": 0, "y": label_h + i * cell, "w": heat["width"], "h": cell} for i in rows]
            + [{"x": label_w + j * cell, "y": label_h + i * cell, "w": cell, "h": cell}
               for i, j in cells])


# ---------------------------------------------------------------- histogram

@functools.lru_cache(maxsize=16)
def bin_labels(edges, digits):
    """"[e0, e1)" for every bin of a tuple of edges: fixed bins are labelled once."""
    return [f"[{a:.{digits}f}, {b:.{digits}f})" for a, b in zip(edges, edges[1:])]


def histogram(counts, edges, *, width=560, height=150, top=None, x_ticks=None, rules=(),
              margin=(8, 10, 24, 40), digits=0, unit="个"):
    """A histogram: one bar per bin [edges[i], edges[i+1]), side by side, on a numeric x axis,
    and a count axis from 0 to `top` (default: the largest count, rounded up to a round tick;
    give the same top to two histograms to compare them). x_ticks: the values to label on
    the x axis (default: round ones). rules: x values drawn as vertical reference lines (a
    mean, ± a standard deviation); one outside the axis is hidden. margin: (top, right,
    bottom, left). A count above top is drawn up to top.

    Returns {width, height, plot {x, y, w, h}, baseline, top, x_ticks, y_ticks [{at, label}],
    rules [{x, hidden}], bars}. The bars are columns, one entry per bin: bars.x, bars.w (they
    follow the bins), bars.y, bars.h (the counts) and bars.say (the readout). A live view
    redraws a hundred bars at a time, so they are computed with NumPy, not bar by bar."""
    counts = np.asarray(counts, dtype=int)
    edges = tuple(np.asarray(edges, dtype=float).tolist())
    lo, hi = edges[0], edges[-1]
    top = nice_max(int(counts.max(initial=1))) if top is None else top
    m_top, m_right, m_bottom, m_left = margin
    px, py, pw, ph = m_left, m_top, width - m_left - m_right, height - m_top - m_bottom
    sx = lambda v: scale(v, lo, hi, px, px + pw)  # noqa: E731
    base = py + ph
    bar_x, bar_w, x_axis, y_axis = _histogram_axes(
        edges, top, px, py, pw, ph, None if x_ticks is None else tuple(x_ticks))
    ys = np.round(base - np.minimum(counts, top) * (ph / top), 2)   # (bins,)
    says = [f"{label}：{c} {unit}" for label, c in zip(bin_labels(edges, digits), counts.tolist())]
    inside = lambda v: lo <= v <= hi  # noqa: E731
    return {"width": width, "height": height, "plot": {"x": px, "y": py, "w": pw, "h": ph},
            "baseline": r(base), "top": top,
            "bars": {"x": bar_x.copy(), "w": bar_w.copy(), "y": ys,
                     "h": np.round(base - ys, 2), "say": says},
            "x_ticks": [dict(t) for t in x_axis], "y_ticks": [dict(t) for t in y_axis],
            "rules": [{"x": r(sx(v) if inside(v) else px), "hidden": not inside(v)} for v in rules]}


@functools.lru_cache(maxsize=64)
def _histogram_axes(edges, top, px, py, pw, ph, x_ticks):
    """histogram()'s bins' columns and both axes: the same for every draw on fixed bins, so
    worked out once ((bins,) arrays of the bars' left edges and widths, the ticks)."""
    lo, hi = edges[0], edges[-1]
    sx = lambda v: scale(v, lo, hi, px, px + pw)  # noqa: E731
    sy = lambda v: scale(v, 0.0, top, py + ph, py)  # noqa: E731
    xs = np.round(px + (np.array(edges) - lo) * (pw / (hi - lo)), 2)  # (bins + 1,)
    return (xs[:-1], np.round(np.diff(xs), 2), tuple(axis_ticks(x_ticks, sx, lo, hi)),
            tuple(axis_ticks(None, sy, 0.0, top)))


# ---------------------------------------------------------------- log-log line chart

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decade_label(e):
    """The tick text of 10^e on a log axis: 1, 10, 10², 10³, ..."""
    return "1" if e == 0 else "10" if e == 1 else "10" + str(e).translate(SUPERSCRIPT)


def log_line_chart(series, *, x_decades, y_decades, x_every=1, y_every=1, mark=None,
                   **chart):
    """A line chart on log-log axes: series [{name, x, y}] of positive values, drawn as their
    log10 over 10^x_decades[0] .. 10^x_decades[1] (and y likewise), with ticks at every
    x_every-th (y_every-th) whole decade labelled 1, 10, 10², ... A straight line of slope s
    is a power law x^s. Other keywords go to line_chart (width, height, margin, probes, say;
    say gets log10 x and log10 y).
    mark: (x, [y of each series at x]), a point to mark (the reader's current value): the
    chart gets "mark", as log_mark gives it."""
    logs = [{**s, "x": [math.log10(v) for v in s["x"]], "y": [math.log10(v) for v in s["y"]]}
            for s in series]
    xt = list(range(x_decades[0], x_decades[1] + 1, x_every))
    yt = list(range(y_decades[0], y_decades[1] + 1, y_every))
    out = line_chart(logs, x_domain=x_decades, y_domain=y_decades, x_ticks=xt, y_ticks=yt,
                     **chart)
    for ticks, values in ((out["x_ticks"], xt), (out["y_ticks"], yt)):
        for t, e in zip(ticks, values):
            t["label"] = decade_label(e)
    out["decades"] = {"x": list(x_decades), "y": list(y_decades)}
    if mark is not None:
        out["mark"] = log_mark(out, *mark)
    return out


def log_mark(chart, x, ys):
    """Where one x value falls on a log_line_chart, and each series' y there: {x, points
    [{y}]} in SVG units, for a rule and a dot on each series. A chart whose lines never change
    is drawn once; only this follows the reader."""
    p, (x0, x1), (y0, y1) = chart["plot"], chart["decades"]["x"], chart["decades"]["y"]
    return {"x": r(scale(math.log10(x), x0, x1, p["x"], p["x"] + p["w"])),
            "points": [{"y": r(scale(math.log10(y), y0, y1, p["y"] + p["h"], p["y"]))}
                       for y in ys]}


# ---------------------------------------------------------------- marks on a linear chart

def chart_point(chart, x, y, *, x_domain, y_domain):
    """Where the data point (x, y) falls on a line_chart drawn over x_domain × y_domain, in
    SVG units: (sx, sy). A chart whose lines rarely change is drawn once; a mark that follows
    the reader (a rule, a dot) is placed with this."""
    p = chart["plot"]
    return (r(scale(x, x_domain[0], x_domain[1], p["x"], p["x"] + p["w"])),
            r(scale(y, y_domain[0], y_domain[1], p["y"] + p["h"], p["y"])))


def crosshair(chart, points, says, *, x_domain, y_domain):
    """Crosshair probes of a line_chart at chosen data points [(x, y)] (sorted by x, spaced
    as they come), in the format of line_chart's `probes`: {x, y (the dot), x0, w (its hit
    strip, reaching halfway to each neighbour and no further than the plot), say}. Use it
    where a series' own points are not where a reader should stop (a step curve)."""
    p = chart["plot"]
    xs = [chart_point(chart, x, y, x_domain=x_domain, y_domain=y_domain) for x, y in points]
    edges = ([p["x"]] + [(a[0] + b[0]) / 2 for a, b in zip(xs, xs[1:])]
             + [p["x"] + p["w"]])
    return [{"x": sx, "y": sy, "x0": r(edges[k]), "w": r(edges[k + 1] - edges[k]), "say": say}
            for k, ((sx, sy), say) in enumerate(zip(xs, says))]


def step_points(xs, ys):
    """A step function's corners: the values ys[k] at xs[k] held until the next x, as the
    fewest points a line_chart joins into the same staircase (a count that drops now and
    then over hundreds of steps costs a few dozen points, not hundreds)."""
    out_x, out_y = [xs[0]], [ys[0]]
    for k in range(1, len(xs)):
        if ys[k] != ys[k - 1]:
            out_x += [xs[k], xs[k]]
            out_y += [ys[k - 1], ys[k]]
    if out_x[-1] != xs[-1]:
        out_x.append(xs[-1])
        out_y.append(ys[-1])
    return out_x, out_y


# ---------------------------------------------------------------- attention between two rows

def cross_curves(top_tokens, bottom_tokens, row, query, *, width=400, height=170,
                 max_width=9.0, min_opacity=0.08, digits=3, masked=None, dim=None,
                 top_prefix="", bottom_prefix="", say=None):
    """Attention from one token of the top row (a decoder's query) to every token of the
    bottom row (the encoder's keys), which may be another sentence of another length: one
    curve per bottom token, its width and opacity proportional to its weight, as in
    attention_curves. row: the query's weights over the bottom row (sum 1).

    top_prefix / bottom_prefix name the two rows for pointing (data-tokens "t3", "s5"), so
    that two sentences' positions are not confused; dim: a flag per top token (a word not
    written yet); masked: a flag per bottom token (a key the query may not see).
    say(j, w): the readout of curve j (default "top → bottom：w"). Returns {width, height,
    top [{i, x, y, label, tokens, query, dim}], bottom [{j, x, y, wy, label, tokens}],
    curves [{j, d, sw, op, weight, text, say, masked, tokens, seq}], query}."""
    top_y, bottom_y = 16, height - 20
    top = [{**t, "tokens": f"{top_prefix}{t['i']}", "query": t["i"] == query,
            "dim": bool(dim[t["i"]]) if dim is not None else False}
           for t in token_row(top_tokens, width=width, y=top_y)]
    bottom = [{**t, "tokens": f"{bottom_prefix}{t['i']}", "wy": height - 4}
              for t in token_row(bottom_tokens, width=width, y=bottom_y)]
    weights = _floats(row)
    biggest = max(max(weights), 1e-12)
    qx = top[query]["x"]
    y0, y1 = top_y + 8, bottom_y - 16
    start, bend, end = r(y0), r((y0 + y1) / 2), r(y1)
    curves = []
    for j, w in enumerate(weights):
        kx = bottom[j]["x"]
        share = w / biggest
        text = say(j, w) if say else f"{top_tokens[query]} → {bottom_tokens[j]}：{w:.4f}"
        curves.append({
            "j": j, "tokens": f"{top_prefix}{query} {bottom_prefix}{j}",
            "d": f"M{qx},{start} C{qx},{bend} {kx},{bend} {kx},{end}",
            "sw": r(0.6 + (max_width - 0.6) * share),
            "op": r(min_opacity + (1 - min_opacity) * share, 3), "weight": w,
            "text": f"{w:.{digits}f}", "say": text,
            "masked": bool(masked[j]) if masked is not None else False,
            "seq": seq_class(w, 0.0, biggest)})
    return {"width": width, "height": height, "top": top, "bottom": bottom, "curves": curves,
            "query": query}
# ---------------------------------------------------------------- dense heatmap

def dense_heatmap(matrix, rows, cols, *, cell_w=7.0, cell_h=14.0, label_w=44.0, label_h=4.0,
                  diverging=True, lo=None, hi=None, digits=3, readout=True, weights=False):
    """A heatmap of many small cells whose colours change together, such as a hidden state
    (tokens × features), computed with NumPy and returned as columns, like histogram's bars:
    cell k = i * n_cols + j sits at cells.x[k], cells.y[k] (a grid fixed by the shape) and
    has the colour class cells.c[k] and the readout cells.say[k] ("row · col：value").
    diverging=True colours around 0 on [-limit, limit] (limit: the largest |value|, or
    max(|lo|, |hi|) when given), else sequentially on [lo, hi] (default: the values' range).
    cells.i, cells.j: each cell's row and column; rows [{i, y (the label's centre), top,
    label}], cols [{j, x (the label's centre), label}], and the legend. readout=False: no cells.say
    (a figure too dense to read cell by cell, read row by row instead). weights=True:
    attention weights, on the book's one weight scale (weight_classes)."""
    m = np.asarray(matrix, dtype=float)  # (n_rows, n_cols)
    n_rows, n_cols = m.shape
    if weights:
        diverging, classes = False, weight_classes(m)
        key = weight_legend(width=min(180.0, label_w + n_cols * cell_w))
    elif diverging:
        limit = float(np.abs(m).max()) if lo is None and hi is None else max(abs(lo), abs(hi))
        half = DIV // 2
        t = np.clip(m / limit, -1.0, 1.0) if limit > 0 else np.zeros_like(m)
        classes = half + np.round(t * half).astype(int)  # div_class, elementwise
        key = legend(-limit, limit, kind="div", width=min(180.0, label_w + n_cols * cell_w),
                     digits=digits)
    else:
        lo = float(m.min()) if lo is None else lo
        hi = float(m.max()) if hi is None else hi
        if hi <= lo:
            classes = np.where(m >= hi, SEQ - 1, 0)
        else:
            classes = np.clip(np.floor((m - lo) / (hi - lo) * SEQ), 0, SEQ - 1).astype(int)
        key = legend(lo, hi, kind="seq", width=min(180.0, label_w + n_cols * cell_w),
                     digits=digits)
    ii, jj = np.divmod(np.arange(n_rows * n_cols), n_cols)  # (n_rows * n_cols,) each
    flat = m.reshape(-1).tolist()
    row_names, col_names = [str(x) for x in rows], [str(x) for x in cols]
    says = np.array([f"{row_names[i]} · {col_names[j]}：{v:.{digits}f}"
                     for i, j, v in zip(ii.tolist(), jj.tolist(), flat)]) if readout else None
    return {"width": r(label_w + n_cols * cell_w), "height": r(label_h + n_rows * cell_h),
            "cell_w": cell_w, "cell_h": cell_h, "label_w": label_w, "label_h": label_h,
            "cells": {"x": np.round(label_w + jj * cell_w, 2),
                      "y": np.round(label_h + ii * cell_h, 2), "i": ii, "j": jj,
                      "c": classes.reshape(-1), **({"say": says} if readout else {})},
            "rows": [{"i": i, "y": r(label_h + i * cell_h + cell_h / 2),
                      "top": r(label_h + i * cell_h), "label": name}
                     for i, name in enumerate(row_names)],
            "cols": [{"j": j, "x": r(label_w + j * cell_w + cell_w / 2), "label": name}
                     for j, name in enumerate(col_names)],
            "legend": key, "kind": "div" if diverging else "seq"}


# ---------------------------------------------------------------- a chart that grows

def probe_slots(chart, slots, points, *, x_domain, y_domain, say):
    """The crosshair of a line chart (line_chart, drawn with these domains) whose series grows,
    such as a training curve: one probe per x of `slots`, the same elements at every step.
    points: {x: y} (the values reached so far); a slot with no point yet is hidden.
    say(x, y): the readout. Returns [{x, y, x0, w (its hit strip), say, hidden}]."""
    p = chart["plot"]
    sx = lambda v: scale(v, x_domain[0], x_domain[1], p["x"], p["x"] + p["w"])  # noqa: E731
    sy = lambda v: scale(v, y_domain[0], y_domain[1], p["y"] + p["h"], p["y"])  # noqa: E731
    strip = p["w"] / max(len(slots) - 1, 1)
    out = []
    for x in slots:
        y = points.get(x)
        hidden = y is None
        cy = sy(y_domain[0] if hidden else min(max(y, y_domain[0]), y_domain[1]))
        out.append({"x": r(sx(x)), "y": r(cy), "x0": r(sx(x) - strip / 2), "w": r(strip),
                    "say": "" if hidden else say(x, y), "hidden": hidden})
    return out


def attention_curve_columns(tokens, row, query, *, width=400, height=170, max_width=9.0,
                            min_opacity=0.08, digits=3, masked=None):
    """attention_curves' curves as columns, for a figure that redraws many of them: curve j's
    d, sw, op, text, say and masked at index j of each (the same values, without the token
    rows, which a sentence of fixed length draws once)."""
    top_y, bottom_y = 16, height - 20
    slot = width / max(len(tokens), 1)
    xs = [r(i * slot + slot / 2) for i in range(len(tokens))]
    y0, y1 = r(top_y + 8), r(bottom_y - 16)
    mid = r((top_y + 8 + bottom_y - 16) / 2)
    qx = xs[query]
    weights = [float(w) for w in row]
    biggest = max(max(weights), 1e-12)
    shares = [w / biggest for w in weights]
    name = tokens[query]
    return {"d": np.array([f"M{qx},{y0} C{qx},{mid} {kx},{mid} {kx},{y1}" for kx in xs]),
            "sw": np.array([r(0.6 + (max_width - 0.6) * s) for s in shares]),
            "op": np.array([r(min_opacity + (1 - min_opacity) * s, 3) for s in shares]),
            "text": np.array([fmt(w, digits) for w in weights]),
            "say": np.array([f"{name} → {t}：{fmt(w, 4)}" for t, w in zip(tokens, weights)]),
            "masked": np.zeros(len(tokens), dtype=bool) if masked is None
            else np.asarray(masked, dtype=bool)}


# ---------------------------------------------------------------- horizontal bars

def hbars(values, labels, *, width=260, row=22, label_w=44, value_w=46, top=None, bottom=None,
          digits=3, texts=None, gap=0.3, axis_h=18):
    """Horizontal bars, one row per value: its label left of the row, the bar from the 0 line,
    its value in a right-aligned column past the plot (a list reads like a table), and a round
    axis under the rows (vertical grid lines).

    top/bottom: the axis's ends (default: autoscaled to round ticks around the values; top=1,
    bottom=0 for probabilities, so that rows of different figures compare on one scale: the
    axis is then `fixed`, and a page need not rebind it). texts: the value labels (default
    fmt(value, digits)). Returns {width, height, row (the rows' pitch), bar_h (a bar's
    height), zero (x of 0), plot {x, w}, axis_y, value_x, ticks [{x, label}], fixed, rows [{y
    (the row's top), ty (its texts' baseline), by, x, w (the bar's top, left, width), value,
    text, label, say}]}. A negative bar extends left of zero."""
    values = [float(v) for v in values]
    lo = min([0.0] + values) if bottom is None else bottom
    hi = nice_max(max([0.0] + values)) if top is None else top
    if bottom is None and lo < 0:
        lo = -nice_max(-lo)
    px, pw = label_w, width - label_w - value_w
    to_x = lambda v: scale(v, lo, hi, px, px + pw)  # noqa: E731
    zero = to_x(0.0)
    h = r(row * (1 - gap))
    pad, half = (row - h) / 2, row / 2
    rows = []
    for i, (v, label) in enumerate(zip(values, labels)):  # a live view redraws every row:
        end = to_x(max(lo, min(hi, v)))                  # only what varies is rounded
        text = texts[i] if texts is not None else fmt(v, digits)
        top = i * row
        rows.append({"y": r(top), "ty": r(top + half + 4), "by": r(top + pad),
                     "x": r(min(zero, end)), "w": r(abs(end - zero)), "value": v, "text": text,
                     "label": str(label), "say": f"{label}：{text}"})
    axis_y = len(values) * row
    ticks = [dict(t) for t in _hbar_ticks(lo, hi, px, pw)]
    return {"width": width, "height": axis_y + axis_h, "zero": r(zero), "row": row, "bar_h": h,
            "label_x": px - 5, "tick_y": axis_y + 13,
            "plot": {"x": px, "w": pw}, "axis_y": axis_y, "value_x": width, "ticks": ticks,
            "rows": rows, "top": hi, "bottom": lo,
            "fixed": top is not None and bottom is not None}


@functools.lru_cache(maxsize=64)
def _hbar_ticks(lo, hi, px, pw):
    """hbars' axis: the same for every view of a fixed axis, so worked out once."""
    to_x = lambda v: scale(v, lo, hi, px, px + pw)  # noqa: E731
    step = nice_step(hi - lo)
    return tuple(padded([{"x": r(to_x(t)), "label": tick_label(t, step)}
                         for t in nice_ticks(lo, hi)], {"x": r(to_x(0.0)), "label": ""}))


# ---------------------------------------------------------------- one stacked bar

def stack(values, labels, *, width=480, height=26, digits=1):
    """The parts of a whole as one bar of `width` units, left to right: segments [{k (the
    part's index, for its colour class data-k), x, w, value, pct (its share, in %), text
    ("12.3 %"), label, say}]. A part of 0 gets a segment of width 0 (the slots stay)."""
    values = [float(v) for v in values]
    total = sum(values)
    x, segments = 0.0, []
    for k, (v, label) in enumerate(zip(values, labels)):
        share = v / total if total > 0 else 0.0
        text = f"{fmt(100 * share, digits)} %"
        segments.append({"k": k, "x": r(x), "w": r(share * width), "value": v,
                         "pct": 100 * share, "text": text, "label": str(label),
                         "say": f"{label}：{text}"})
        x += share * width
    return {"width": width, "height": height, "segments": segments, "total": total}

# ---------------------------------------------------------------- large heatmaps

def seq_classes(values, lo, hi):
    """seq_class of every entry of an array at once (NumPy; the same rule: floor of the share
    of [lo, hi] times SEQ, clipped to 0..SEQ-1): for a heatmap of hundreds of cells."""
    import numpy as np
    v = np.asarray(values, dtype=float)
    if hi <= lo:
        return np.where(v >= hi, SEQ - 1, 0)
    return np.clip(np.floor((v - lo) / (hi - lo) * SEQ), 0, SEQ - 1).astype(int)


def class_paths(classes, cell, *, cell_h=None, n=SEQ, x0=0.0, y0=0.0):
    """A large heatmap as one path per colour class, so that a figure of 784 cells is n
    elements: classes is a grid (rows of class indices 0..n-1; a negative one is not drawn),
    cell i, j the square of side `cell` (cell x cell_h if given) at (x0 + j cell,
    y0 + i cell_h); a run of one class along a row is one rectangle. Returns [{c, d}] for
    c = 0..n-1 (d "" for a class no cell has), to draw as <path data-seq=c d=...>.
    Coordinates as short as they can be written (8, not 8.0)."""
    cell_h = cell if cell_h is None else cell_h
    grid = np.asarray(classes, dtype=int)
    h, w = grid.shape
    starts = np.ones((h, w), dtype=bool)  # where a run begins: each row's first cell, and
    starts[:, 1:] = grid[:, 1:] != grid[:, :-1]  # wherever the class changes along the row
    first = np.flatnonzero(starts)  # (runs,) flat index of each run's first cell
    length = np.diff(np.append(first, h * w))  # a run ends where the next begins (or its row)
    i, j = np.divmod(first, w)
    xs = np.round(x0 + j * cell, 2).tolist()  # rounded like r(), written with :g (8, not 8.0)
    ys = np.round(y0 + i * cell_h, 2).tolist()
    ws = np.round(length * cell, 2).tolist()
    side = f"{r(cell_h):g}"
    parts = [[] for _ in range(n)]
    for x, y, width, c in zip(xs, ys, ws, grid.ravel()[first].tolist()):
        if 0 <= c < n:
            parts[c].append(f"M{x:g} {y:g}h{width:g}v{side}h-{width:g}z")
    return [{"c": c, "d": "".join(p)} for c, p in enumerate(parts)]


def grid_path(rows, cols, w, h, *, x0=0.0, y0=0.0):
    """The lines between (and around) the cells of a rows x cols grid of w x h cells at
    (x0, y0), as one path: drawn over class_paths, the cells look outlined one by one."""
    right, bottom = r(x0 + cols * w), r(y0 + rows * h)
    across = [f"M{r(x0):g} {r(y0 + i * h):g}H{right:g}" for i in range(rows + 1)]
    down = [f"M{r(x0 + j * w):g} {r(y0):g}V{bottom:g}" for j in range(cols + 1)]
    return "".join(across + down)


def cell_paths(classes, w, h=None, *, gap=0.0, n=SEQ, x0=0.0, y0=0.0):
    """class_paths without merging: one rectangle per cell, so each cell keeps its own outline
    (a grid line, a dashed mask) as a <rect> per cell would. classes is a grid of class
    indices 0..n-1 (a negative one is not drawn); cell i, j is the w x h rectangle (h
    defaults to w) at (x0 + j w, y0 + i h), less `gap` on its right and bottom. Returns
    [{c, d}] for c = 0..n-1 (d "" for a class no cell has)."""
    h = w if h is None else h
    grid = np.asarray(classes, dtype=int)
    rows, cols = grid.shape
    i, j = np.divmod(np.arange(rows * cols), cols)  # (rows*cols,) row-major
    xs = np.round(x0 + j * w, 2).tolist()
    ys = np.round(y0 + i * h, 2).tolist()
    dx, dy = f"{r(w - gap):g}", f"{r(h - gap):g}"
    parts = [[] for _ in range(n)]
    for x, y, c in zip(xs, ys, grid.ravel().tolist()):
        if 0 <= c < n:
            parts[c].append(f"M{x:g} {y:g}h{dx}v{dy}h-{dx}z")
    return [{"c": c, "d": "".join(p)} for c, p in enumerate(parts)]


def heatmap_paths(heat):
    """The colours of a heatmap() as one path per colour class (its cells' squares, the
    masked ones left out) and its masked cells as one more path: the page then rewrites at
    most n + 1 `d` attributes whatever the matrix's size, and keeps one transparent cell per
    entry only to point at (its readout). Returns {"paths": [{c, d}], "masked_d": d}."""
    n = DIV if heat["legend"]["kind"] == "div" else SEQ
    rows, cols = len(heat["rows"]), len(heat["cols"])
    classes = np.full((rows, cols), -1, dtype=int)
    for c in heat["cells"]:
        classes[c["i"], c["j"]] = n if c["masked"] else c["c"]  # class n: the masked path
    paths = cell_paths(classes, heat["cell"], n=n + 1, x0=heat["label_w"], y0=heat["label_h"])
    return {"paths": paths[:n], "masked_d": paths[n]["d"]}


def heatmap_slots(matrix, rows, cols, slots, *, lo=0.0, hi=1.0, cell=32, digits=2, label_w=44,
                  label_h=22, scaled="global", row_name="", col_name="", masked=None,
                  weights=False):
    """A heatmap whose size changes from one view to the next (at most slots x slots): the
    page keeps slots x slots cells and slots labels per axis at fixed places, and viewbox
    and vw (its width in px: one unit per px) frame the part a view uses, so the others fall
    outside it. Cells are heatmap()'s, row-major over the slots, each with `hidden` (unused:
    no text, no readout); rows/cols get `hidden` too (unused: no label).
    lo and hi fix the colour map's range (the unused cells must not widen it); weights=True
    draws attention weights on the book's one weight scale instead. masked: as in heatmap(),
    for the used cells."""
    m = [[float(x) for x in row] for row in matrix][:slots]
    n_r, n_c = len(m), len(m[0]) if m else 0
    padded_m = [[m[i][j] if i < n_r and j < n_c else lo for j in range(slots)]
                for i in range(slots)]
    def names(labels):
        labels = [str(t) for t in labels][:slots]
        return labels + [""] * (slots - len(labels))
    hide = [[bool(masked[i][j]) if masked is not None and i < n_r and j < n_c else False
             for j in range(slots)] for i in range(slots)]
    fig = heatmap(padded_m, names(rows), names(cols), cell=cell, lo=lo, hi=hi, digits=digits,
                  label_w=label_w, label_h=label_h, scaled=scaled, row_name=row_name,
                  col_name=col_name, masked=hide, weights=weights)
    for c in fig["cells"]:
        c["hidden"] = c["i"] >= n_r or c["j"] >= n_c
        if c["hidden"]:
            c["say"] = c["text"] = ""
    for rw in fig["rows"]:
        rw["hidden"] = rw["i"] >= n_r
        rw["label"] = "" if rw["hidden"] else rw["label"]
    for cl in fig["cols"]:
        cl["hidden"] = cl["j"] >= n_c
        cl["label"] = "" if cl["hidden"] else cl["label"]
    vw, vh = label_w + n_c * cell, label_h + n_r * cell
    fig.update({"slots": slots, "n_rows": n_r, "n_cols": n_c, "vw": vw, "vh": vh,
                "viewbox": f"0 0 {vw} {vh}", "empty": not n_r})
    fig["legend"] = weight_legend() if weights else legend(lo, hi, scaled=scaled, digits=digits)
    return fig
# ---------------------------------------------------------------- raster heatmap

import numpy as np  # noqa: E402  (only the raster needs arrays)


def heat_raster(matrix, *, width=320, height=200, limit=None, diverging=True, lo=None, hi=None,
                left=40, top=26, right=8, bottom=6, row_ticks=None, col_ticks=None,
                row_name="", col_name="", digits=2):
    """A heatmap too large for one element per cell (40 positions x 128 dimensions): one path
    per colour class, each the union of its cells. Cell (row r, column c) is the unit square
    at (c, r); a run of equal cells down a column is one rectangle "M c r h1 v n h-1 z"; the
    group's `transform` scales the unit grid to width x height and moves it right of the row
    labels. Every class has its path (empty if unused), so a live view rebinds the same
    elements whatever the matrix's size.

    Colours: the diverging map on [-limit, limit] (default: the largest |value|), or the
    sequential one on [lo, hi]. Returns {width, height (the viewBox), plot {x, y, w, h},
    cell_w, cell_h, transform, kind, paths [{c, d}], rows [{i, y, h}] (each row's strip, for
    pointing), x_ticks / y_ticks (column and row ticks at the cells' centres), legend}."""
    m = np.asarray(matrix, dtype=float)
    n_rows, n_cols = m.shape
    if diverging:
        limit = float(np.max(np.abs(m))) if limit is None else float(limit)
        t = np.clip(m / limit, -1.0, 1.0) if limit > 0 else np.zeros_like(m)
        classes = DIV // 2 + np.rint(t * (DIV // 2)).astype(int)  # as div_class, cell by cell
        n_classes, kind = DIV, "div"
        key = legend(-limit, limit, kind="div", scaled="global", digits=digits)
    else:
        lo = float(m.min()) if lo is None else float(lo)
        hi = float(m.max()) if hi is None else float(hi)
        t = (m - lo) / (hi - lo) if hi > lo else np.ones_like(m) * (m >= hi)
        classes = np.clip(np.floor(t * SEQ), 0, SEQ - 1).astype(int)  # as seq_class
        n_classes, kind = SEQ, "seq"
        key = legend(lo, hi, kind="seq", scaled="global", digits=digits)
    flat = classes.T.ravel()  # (n_cols * n_rows,): column by column, top to bottom
    starts = np.ones(flat.size, dtype=bool)
    starts[1:] = flat[1:] != flat[:-1]
    starts[::n_rows] = True  # a run never continues into the next column
    first = np.flatnonzero(starts)
    lengths = np.diff(np.append(first, flat.size))
    runs = [[] for _ in range(n_classes)]
    for f, n, c in zip(first.tolist(), lengths.tolist(), flat[first].tolist()):
        runs[c].append(f"M{f // n_rows} {f % n_rows}h1v{n}h-1z")
    cw, ch = width / n_cols, height / n_rows
    to_x = lambda v: left + (v + 0.5) * cw  # noqa: E731  (a column's centre)
    to_y = lambda v: top + (v + 0.5) * ch  # noqa: E731
    whole = lambda n: list(range(0, n, max(1, int(nice_step(n - 1, 4)))))  # noqa: E731
    x_values = whole(n_cols) if col_ticks is None else col_ticks  # cells are counted: whole
    y_values = whole(n_rows) if row_ticks is None else row_ticks  # numbers, a round step
    return {"width": left + width + right, "height": top + height + bottom,
            "plot": {"x": left, "y": top, "w": width, "h": height},
            "cell_w": r(cw, 4), "cell_h": r(ch, 4),
            "transform": f"translate({left} {top}) scale({r(cw, 4)} {r(ch, 4)})",
            "kind": kind, "paths": [{"c": c, "d": "".join(p)} for c, p in enumerate(runs)],
            "rows": [{"i": i, "y": r(top + i * ch), "h": r(ch)} for i in range(n_rows)],
            "x_ticks": padded([{"at": r(to_x(v)), "label": fmt(v, 0)} for v in x_values],
                              {"at": r(to_x(0)), "label": ""}),
            "y_ticks": padded([{"at": r(to_y(v)), "label": fmt(v, 0)} for v in y_values],
                              {"at": r(to_y(0)), "label": ""}),
            "row_name": row_name, "col_name": col_name, "legend": key}


# ---------------------------------------------------------------- links between two columns

def row_links(pairs, y_from, y_to, *, x0, x1):
    """S-shaped curves linking the rows of one column to rows of another (a token's old place
    and its new one): pairs [(i, j)] runs from (x0, y_from[i]) to (x1, y_to[j]), leaving and
    arriving horizontally. Returns [{i, j, d}] in the order of pairs."""
    xm = r((x0 + x1) / 2)
    return [{"i": i, "j": j,
             "d": f"M{r(x0)},{r(y_from[i])} C{xm},{r(y_from[i])} {xm},{r(y_to[j])} "
                  f"{r(x1)},{r(y_to[j])}"} for i, j in pairs]


# ---------------------------------------------------------------- heatmap, in columns

def heat_grid(matrix, rows, cols, *, cell=32, left=0, top=0, diverging=True, limit=None,
              lo=None, hi=None, digits=2):
    """The cells of a heatmap as a few arrays instead of one record per cell, for a view that
    is redrawn on every move (each object of a view costs time on its way to the page in
    Pyodide): xs (each column's left edge), ys (each row's top), cell (the side), c (the
    colour class of every cell, an int array of the matrix's shape), say (each cell's readout,
    "row → col：value"), and the legend. Classes and readouts are those of heatmap() with
    scaled='global': the diverging map on [-limit, limit] (default: the largest |value|), or
    the sequential one on [lo, hi]."""
    m = np.asarray(matrix, dtype=float)
    if diverging:
        limit = float(np.max(np.abs(m))) if limit is None else float(limit)
        t = np.clip(m / limit, -1.0, 1.0) if limit > 0 else np.zeros_like(m)
        classes = DIV // 2 + np.rint(t * (DIV // 2)).astype(int)  # as div_class
        key = legend(-limit, limit, kind="div", digits=digits)
    else:
        lo = float(m.min()) if lo is None else float(lo)
        hi = float(m.max()) if hi is None else float(hi)
        t = (m - lo) / (hi - lo) if hi > lo else np.ones_like(m) * (m >= hi)
        classes = np.clip(np.floor(t * SEQ), 0, SEQ - 1).astype(int)  # as seq_class
        key = legend(lo, hi, kind="seq", digits=digits)
    say = [[f"{rows[i]} → {cols[j]}：{v:.4f}" for j, v in enumerate(row)]
           for i, row in enumerate(m.tolist())]
    return {"xs": [left + j * cell for j in range(m.shape[1])],
            "ys": [top + i * cell for i in range(m.shape[0])],
            "cell": cell, "c": classes, "say": say, "legend": key,
            "width": left + m.shape[1] * cell, "height": top + m.shape[0] * cell}


# ---------------------------------------------------------------- the arc of a rotation

def turn_arc(cx, cy, radius, start, turn, *, label_gap=14):
    """The arc of a rotation by `turn` radians from the angle `start` (counter-clockwise, as on
    a plane whose y points up), around (cx, cy) in SVG units (y down). A turn of more than a
    full circle draws what is left after the whole turns (the label says the whole angle).
    Returns {d, tx, ty}: the path ("" for no turn) and the label's place beyond the middle."""
    rest = turn % (2 * math.pi)
    mid = start + rest / 2
    tx, ty = cx + (radius + label_gap) * math.cos(mid), cy - (radius + label_gap) * math.sin(mid)
    label = {"tx": r(tx), "ty": r(ty + 4)}  # +4: the text's middle, not its baseline
    if rest < 1e-9:
        return {"d": "", **label}
    a0, a1 = start, start + rest
    x0, y0 = cx + radius * math.cos(a0), cy - radius * math.sin(a0)
    x1, y1 = cx + radius * math.cos(a1), cy - radius * math.sin(a1)
    large = 1 if rest > math.pi else 0  # sweep flag 0: counter-clockwise on the screen
    return {"d": f"M{r(x0)},{r(y0)} A{r(radius)},{r(radius)} 0 {large} 0 {r(x1)},{r(y1)}",
            **label}


# ---------------------------------------------------------------- a bar beside each row

def row_bars(values, ys, *, x, width, height, lo, hi, ref=None, labels=(), name="", digits=3):
    """A horizontal bar beside each row of a heatmap (a row's mean or standard deviation), on
    a fixed axis [lo, hi] over `width` units from `x`: each bar runs from 0 (or lo, if 0 is
    not on the axis) to its value, clipped to the axis; ys are the rows' tops and height the
    bars' thickness. ref: a reference value drawn as a line (1 for a standard deviation).
    Returns {bars [{x, y, w, h, say}], zero (x of the bars' base), ref (x or None), ticks [{at,
    label}] (lo, 0, ref and hi, each once), x, width}."""
    to = lambda v: x + (min(hi, max(lo, v)) - lo) / (hi - lo) * width  # noqa: E731
    base = to(0.0 if lo <= 0 <= hi else lo)
    out = []
    for i, (v, y) in enumerate(zip(values, ys)):
        end = to(float(v))
        label = labels[i] if i < len(labels) else str(i)
        out.append({"x": r(min(base, end)), "y": r(y), "w": r(abs(end - base)), "h": height,
                    "say": f"{label} {name} = {fmt(float(v), digits)}"})
    marks = sorted({lo, hi, *([0.0] if lo <= 0 <= hi else []), *([ref] if ref is not None else [])})
    return {"bars": out, "zero": r(base), "ref": None if ref is None else r(to(ref)),
            "ticks": [{"at": r(to(t)), "label": fmt(t, 0) if t == int(t) else fmt(t, 1)}
                      for t in marks], "x": x, "end": x + width, "width": width}


# ---------------------------------------------------------------- a sentence of changing length

def attention_curves_slots(tokens, row, query, slots, *, masked=None, **kw):
    """attention_curves() for a sentence whose length changes between views (at most `slots`
    tokens): the page keeps `slots` tokens per row and `slots` curves, and the view says where
    each one is. The used ones are attention_curves()' with hidden False; the unused ones are
    hidden (empty, of width 0)."""
    fig = attention_curves(tokens, row, query, masked=masked, **kw)
    spare = range(len(tokens), slots)
    for t in fig["top"] + fig["bottom"] + fig["curves"]:
        t["hidden"] = False
    blank = {"x": 0, "label": "", "hidden": True}
    fig["top"] += [{**blank, "i": i, "y": fig["top"][0]["y"], "query": False} for i in spare]
    fig["bottom"] += [{**blank, "i": i, "y": fig["bottom"][0]["y"], "wy": fig["height"] - 4}
                      for i in spare]
    fig["curves"] += [{"j": j, "tokens": "", "d": "M0,0", "sw": 0, "op": 0, "weight": 0.0,
                       "text": "", "say": "", "masked": False, "seq": 0, "hidden": True}
                      for j in spare]
    return fig


def bars_slots(values, labels, slots, *, slot=34, axis_space=30, **kw):
    """bars() for a list whose length changes between views (at most `slots` values, e.g. a
    row over the sentence): every slot keeps its place, `slot` units wide after the axis, so
    the page redraws the same elements; viewbox and vw (the width in px: one unit per px)
    frame the n used ones, and the unused ones (value 0, `hidden`: no label, value or
    readout) lie outside it. The grid lines and the baseline end at vw. kw: bars()'."""
    values = [float(v) for v in values][:slots]
    n = len(values)
    names = [str(t) for t in labels][:n] + [""] * (slots - n)
    # the spare zeros change no autoscaled end: bars() puts 0 on the axis anyway
    fig = bars(values + [0.0] * (slots - n), names, width=axis_space + slots * slot,
               axis_space=axis_space, **kw)
    for k, b in enumerate(fig["bars"]):
        b["hidden"] = k >= n
        if b["hidden"]:
            b.update(text="", say="", label="")
    vw = axis_space + n * slot
    fig.update({"slots": slots, "n": n, "vw": vw, "viewbox": f"0 0 {vw} {fig['height']}"})
    return fig


def heatmap_sized(matrix, tokens, slots, *, selected_row, selected_col, lo=0.0, hi=1.0,
                  masked=None, **kw):
    """heatmap_slots() over a sentence (rows and columns both its tokens), with the selected
    row and column as bands framed to the used part: row_band {x, y, w, h}, col_band too."""
    fig = heatmap_slots(matrix, tokens, tokens, slots, lo=lo, hi=hi, masked=masked, **kw)
    cell, label_w, label_h = fig["cell"], fig["label_w"], fig["label_h"]
    fig["row_band"] = {"x": 0, "y": label_h + selected_row * cell, "w": fig["vw"], "h": cell}
    fig["col_band"] = {"x": label_w + selected_col * cell, "y": 0, "w": cell, "h": fig["vh"]}
    fig["selected_row"], fig["selected_col"] = selected_row, selected_col
    return fig
