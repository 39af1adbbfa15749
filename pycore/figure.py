"""The book's visual vocabulary as geometry: every mark a widget draws, computed here.

A widget's view returns numbers *and* the geometry of its picture (bar extents, cell colours,
curve end points, axis ticks), built with these functions; the templates
(templates/widgets/_marks.html) only print them and the page's JavaScript only binds them
(docs/widgets.md). Nothing is computed twice, in two languages.

One function per mark, with options, not a function per variant: heatmap (its forms in
HEAT_FORMS, slots, paths, bands, frames), attention_curves (two sentences, slots, columns),
bars (BAR_FORMS: vertical, horizontal, stacked, beside; slots), line_chart, histogram; each mark's
options are in its docstring, and a template draws it with the macro of the same name. The
scales are apart from the marks: scale (linear), seq_class / div_class / color_classes
(colour classes), nice_step / nice_ticks / nice_max (round ticks).

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


# ---------------------------------------------------------------- colour scales

def color_classes(matrix, *, diverging=False, limit=None, lo=None, hi=None, scaled="global",
                  weights=False):
    """The colour scale of a matrix: (classes, kind, lo, hi), classes an int array of the
    matrix's shape (the rule of div_class or seq_class for every entry, in a few NumPy calls),
    kind "div" or "seq", and the range its legend spans.

    diverging=True: around 0 on [-limit, limit] (default: max(|lo|, |hi|), lo and hi
    defaulting to the values' min and max). Else sequential on [lo, hi], or with
    scaled='row' each row over its own range. weights=True: attention weights on the book's
    one weight scale (weight_classes; the other options are not used). A matrix NumPy cannot
    take in one piece (ragged rows) or that holds a NaN or an infinity goes cell by cell
    (where seq_class raises)."""
    if weights:
        return weight_classes(matrix), "seq", 0.0, 1.0
    try:
        a = np.array(matrix, dtype=float)
    except ValueError:
        a = None
    flat = [float(x) for row in matrix for x in row] if a is None else a.ravel().tolist()
    lo = min(flat) if lo is None else lo
    hi = max(flat) if hi is None else hi
    limit = max(abs(lo), abs(hi)) if limit is None else float(limit)
    kind, key = ("div", (-limit, limit)) if diverging else ("seq", (lo, hi))
    if a is None or a.ndim != 2 or not np.isfinite(a).all() or \
            not all(math.isfinite(float(x)) for x in (lo, hi)):
        rows = [[float(x) for x in row] for row in matrix]
        out = [[div_class(v, limit) if diverging else
                seq_class(v, *((min(row), max(row)) if scaled == "row" else (lo, hi)))
                for v in row] for row in rows]
        return out, kind, *key
    if diverging:  # as div_class: round half to even, like Python's round
        if limit <= 0:
            return np.full(a.shape, DIV // 2), kind, *key
        half = DIV // 2
        return (half + np.rint(np.clip(a / limit, -1.0, 1.0) * half)).astype(int), kind, *key
    if scaled == "row":
        r_lo, r_hi = a.min(axis=1, keepdims=True), a.max(axis=1, keepdims=True)  # (n, 1)
    else:
        r_lo, r_hi = np.float64(lo), np.float64(hi)
    return _seq(a, r_lo, r_hi), kind, *key


def _seq(a, lo, hi):
    """seq_class of every entry of the array a on [lo, hi] (arrays that broadcast)."""
    flat = hi <= lo  # a row (or a matrix) of one value: seq_class's special case
    span = np.where(flat, 1.0, hi - lo)
    t = np.clip(np.floor((a - lo) / span * SEQ), 0, SEQ - 1)
    return np.where(flat, np.where(a >= hi, SEQ - 1, 0), t).astype(int)


def seq_classes(values, lo, hi):
    """seq_class of every entry of an array at once (a heatmap of hundreds of cells)."""
    return _seq(np.asarray(values, dtype=float), np.float64(lo), np.float64(hi))


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

# Each form of a bar chart and what it is by default: vertical bars on a 0-based axis,
# horizontal ones that read like a table, or the parts of a whole stacked in one bar.
BAR_FORMS = {
    "vertical": {"width": 360, "height": 170, "gap": 0.25, "digits": 3},
    "horizontal": {"width": 260, "gap": 0.3, "digits": 3},
    "stacked": {"width": 480, "height": 26, "digits": 1},
    "beside": {"x": 0, "width": 80, "height": 16, "digits": 3, "ref": None, "name": ""},
}


def bars(values, labels, *, form="vertical", top=None, bottom=None, slots=None, slot=34,
         texts=None, **layout):
    """Bars, one per value, on a round axis (top/bottom: its ends; default autoscaled to round
    ticks around the values and 0, a negative bar going below or left of 0; top=1 (and
    bottom=0) for probabilities, so that the reader compares on a fixed scale). digits: the
    value labels' (texts: given ones instead). Every bar says "label：value".

    form (BAR_FORMS, each with its defaults) and its layout options:
    - 'vertical' (width, height, gap, label_space, value_space, axis_space): {width, height,
      baseline (y of 0), ticks [{y, label}], axis_x, label_y, bars [{x, y, w, h, cx (the
      bar's centre), ty (its value label's baseline), value, text, label, say, seq}]}.
      slots=n: a list whose length changes between views (at most n): every bar keeps its
      place, `slot` units wide after the axis; the unused ones (value 0) are `hidden` (no
      label, value or readout) and viewbox / vw (the width in px) frame the used ones.
    - 'horizontal' (width, row (the rows' pitch), label_w, value_w, gap, axis_h): a label
      left of each row, the bar from the 0 line, its value in a right-aligned column past the
      plot, the axis under the rows: {width, height, row, bar_h, zero (x of 0), plot {x, w},
      axis_y, value_x, label_x, tick_y, ticks [{x, label}], fixed (both ends given: the page
      need not rebind the axis), rows [{y, ty, by, x, w, value, text, label, say}]}.
    - 'stacked' (width, height): the parts of a whole as one bar, left to right: {width,
      height, total, segments [{k (the part's index, its colour), x, w, value, pct, text
      ("12.3 %"), label, say}]}; a part of 0 keeps its segment, of width 0.
    - 'beside' (ys, x, width, height, ref, name): a bar beside each row of another figure (a
      heatmap row's mean or standard deviation), ys the rows' tops and height the bars'
      thickness, on the given axis [bottom, top] over `width` units from x: each bar runs
      from 0 (or bottom, if 0 is not on the axis) to its value, clipped to the axis; ref: a
      reference value drawn as a line (1 for a standard deviation). {bars [{x, y, w, h,
      say ("label name = value")}], zero (x of the bars' base), ref (x or None), ticks [{at,
      label}] (bottom, 0, ref and top, each once), x, end, width}."""
    o = {**BAR_FORMS[form], **layout}
    values = [float(v) for v in values]
    if form == "stacked":
        return _stack(values, labels, **o)
    if form == "beside":
        return _beside(values, labels, bottom, top, **o)
    if slots is not None:
        n = len(values[:slots])
        values = values[:slots] + [0.0] * (slots - n)  # 0s: on the axis anyway
        labels = [str(t) for t in labels][:n] + [""] * (slots - n)
        o["width"] = o.get("axis_space", 30) + slots * slot
    lo = min([0.0] + values) if bottom is None else bottom
    hi = nice_max(max([0.0] + values)) if top is None else top
    if bottom is None and lo < 0:
        lo = -nice_max(-lo)
    fig = (_vbars if form == "vertical" else _hbars)(values, labels, lo, hi, texts, **o)
    if form == "horizontal":
        fig["fixed"] = top is not None and bottom is not None
    if slots is not None:
        for k, b in enumerate(fig["bars"]):
            b["hidden"] = k >= n
            if b["hidden"]:
                b.update(text="", say="", label="")
        vw = fig["axis_x"] + n * slot
        fig.update({"slots": slots, "n": n, "vw": vw, "viewbox": f"0 0 {vw} {fig['height']}"})
    return fig


def _vbars(values, labels, lo, hi, texts, *, width, height, gap, digits, label_space=18,
           value_space=16, axis_space=30):
    """bars(form='vertical')."""
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
                    "ty": r(top_y - 4 if v >= 0 else top_y + h + 12), "value": v,
                    "text": texts[i] if texts is not None else f"{v:.{digits}f}",
                    "label": str(label), "say": f"{label}：{v:.4f}",
                    "seq": seq_class(abs(v), 0.0, biggest)})
    return {"width": width, "height": height, "baseline": r(y0),
            "ticks": _value_ticks(lo, hi, plot_bottom, plot_top, "y"),
            "bars": out, "top": hi, "bottom": lo, "label_y": height - 4, "axis_x": axis_space}


def _hbars(values, labels, lo, hi, texts, *, width, gap, digits, row=22, label_w=44, value_w=46,
           axis_h=18):
    """bars(form='horizontal')."""
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
    return {"width": width, "height": axis_y + axis_h, "zero": r(zero), "row": row, "bar_h": h,
            "label_x": px - 5, "tick_y": axis_y + 13, "plot": {"x": px, "w": pw},
            "axis_y": axis_y, "value_x": width, "ticks": _value_ticks(lo, hi, px, px + pw, "x"),
            "rows": rows, "top": hi, "bottom": lo}


def _value_ticks(lo, hi, r0, r1, key):
    """A bar chart's value axis [lo, hi] drawn from r0 to r1: TICKS slots [{key, label}]."""
    return [dict(t) for t in _ticks_at(lo, hi, r0, r1, key)]


@functools.lru_cache(maxsize=64)
def _ticks_at(lo, hi, r0, r1, key):
    """_value_ticks, worked out once for every view on a fixed axis."""
    to = lambda v: scale(v, lo, hi, r0, r1)  # noqa: E731
    step = nice_step(hi - lo)
    return tuple(padded([{key: r(to(t)), "label": tick_label(t, step)}
                         for t in nice_ticks(lo, hi)], {key: r(to(0.0)), "label": ""}))


def _stack(values, labels, *, width, height, digits):
    """bars(form='stacked')."""
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


def _beside(values, labels, lo, hi, *, ys, x, width, height, digits, ref, name):
    """bars(form='beside')."""
    to = lambda v: x + (min(hi, max(lo, v)) - lo) / (hi - lo) * width  # noqa: E731
    base = to(0.0 if lo <= 0 <= hi else lo)
    out = []
    for i, (v, y) in enumerate(zip(values, ys)):
        end = to(v)
        label = labels[i] if i < len(labels) else str(i)
        out.append({"x": r(min(base, end)), "y": r(y), "w": r(abs(end - base)), "h": height,
                    "say": f"{label} {name} = {fmt(v, digits)}"})
    marks = sorted({lo, hi, *([0.0] if lo <= 0 <= hi else []), *([ref] if ref is not None else [])})
    return {"bars": out, "zero": r(base), "ref": None if ref is None else r(to(ref)),
            "ticks": [{"at": r(to(t)), "label": fmt(t, 0) if t == int(t) else fmt(t, 1)}
                      for t in marks], "x": x, "end": x + width, "width": width}


# ---------------------------------------------------------------- heatmap

# Each form of a heatmap and what it is by default. cells: one record per cell (a matrix the
# reader points at cell by cell); columns: the cells as NumPy columns (a grid fixed by the
# shape whose colours change together); grid: the classes as one array and the places as
# xs, ys (a view redrawn on every move); raster: one path per colour class over a unit grid
# (a matrix too large for one element per cell). legend_w: the legend's widest (a float for
# columns: the legend's width is printed as it is); fit: the legend no wider than the figure.
HEAT_FORMS = {
    "cells": {"cell": 32, "label_w": 44, "label_h": 22, "digits": 2, "diverging": False,
              "legend_w": 180, "fit": True},
    "columns": {"cell_w": 7.0, "cell_h": 14.0, "label_w": 44.0, "label_h": 4.0, "digits": 3,
                "diverging": True, "legend_w": 180.0, "fit": True},
    "grid": {"cell": 32, "label_w": 0, "label_h": 0, "digits": 2, "diverging": True,
             "legend_w": 180, "fit": False},
    "raster": {"width": 320, "height": 200, "label_w": 40, "label_h": 26, "right": 8,
               "bottom": 6, "digits": 2, "diverging": True, "legend_w": 180, "fit": False},
}


def heatmap(matrix, rows=(), cols=(), *, form="cells", diverging=None, limit=None, lo=None,
            hi=None, scaled="global", weights=False, digits=None, masked=None,
            selected_row=None, selected_col=None, frames=None, slots=None, paths=False,
            readout=True, row_name="", col_name="", **layout):
    """A matrix as coloured cells, with its row and column labels and its legend.

    Scale (color_classes): diverging=True colours around 0 on [-limit, limit], else the
    sequential map on [lo, hi] (default: the values' range; scaled='row' each row over its
    own); weights=True puts attention weights on the book's one weight scale. digits: the
    cells' value texts and the legend's ends.

    form (HEAT_FORMS, each with its defaults) and its layout options:
    - 'cells' (cell, label_w, label_h): cells [{i, j, x, y, w, h, c (colour class), v, text,
      say (the readout "row → col：value"), masked}], rows [{i, y, label}], cols [{j, x,
      label}]. masked: a same-shape matrix of booleans (the causal mask), drawn as masked.
      slots=n: a matrix whose size changes between views (at most n x n): the page keeps
      n x n cells and n labels per axis at fixed places; the unused ones are `hidden` (no
      text, no readout, no label) and viewbox / vw (the width in px) / vh frame the used part,
      as do the bands. With slots, lo and hi default to 0 and 1 (the unused cells must not
      widen the scale). paths=True: the colours also as one path per class and the masked
      cells as one more (paths [{c, d}], masked_d), so that a live page rewrites a few `d`.
    - 'columns' (cell_w, cell_h, label_w, label_h): cells as columns, cell k = i * n_cols + j
      at cells.x[k], cells.y[k] with cells.i, cells.j, cells.c and cells.say ("row · col：
      value"; readout=False: none, a figure read row by row); rows [{i, y, top, label}].
    Bands and frames, of 'cells' and 'columns': row_bands / col_bands [{x, y, w, h}] (each
    row's band, its label included, and each column's: a live view that moves a band over a
    heatmap drawn once picks it here); selected_row / selected_col: row_band / col_band (or
    None); frames={rows, cols, cells [(i, j)]}: `frames`, the rows' bands, the columns', then
    a box round each cell.
    - 'grid' (cell, label_w, label_h: the cells' left and top): xs (each column's left), ys
      (each row's top), c (the classes, an int array), say (each cell's readout, rows).
    - 'raster' (width, height: the plot; label_w, label_h, right, bottom: its margins;
      row_ticks, col_ticks): one path per class, cell (r, c) the unit square at (c, r) and a
      run down a column one rectangle, `transform` scaling the unit grid onto the plot; rows
      [{i, y, h}] (each row's strip), x_ticks / y_ticks at the cells' centres (round steps
      by default).
    Every form returns width, height (the viewBox), kind ("seq" or "div") and legend."""
    unknown = set(layout) - set(HEAT_FORMS[form]) - {"row_ticks", "col_ticks"}
    if form != "cells" and (slots is not None or paths):
        unknown.add("slots" if slots is not None else "paths")  # the cells' options alone
    if form not in ("cells", "columns"):
        unknown |= {k for k, v in (("selected_row", selected_row), ("selected_col", selected_col),
                                   ("frames", frames)) if v is not None}
    if unknown:
        raise TypeError(f"heatmap(form={form!r}) has no option {sorted(unknown)}; its layout: "
                        f"{sorted(HEAT_FORMS[form])}")
    o = {**HEAT_FORMS[form], **layout}
    digits = o["digits"] if digits is None else digits
    diverging = o["diverging"] if diverging is None else diverging
    if slots is not None:
        lo, hi = 0.0 if lo is None else lo, 1.0 if hi is None else hi
        matrix, rows, cols, masked, used = _in_slots(matrix, rows, cols, masked, slots, lo)
    m = _float_rows(matrix) if form == "cells" else np.asarray(matrix, dtype=float)
    classes, kind, k_lo, k_hi = color_classes(m, diverging=diverging, limit=limit, lo=lo, hi=hi,
                                              scaled=scaled, weights=weights)
    o["kind"] = kind
    fig = _HEAT_DRAW[form](m, [str(t) for t in rows], [str(t) for t in cols], classes, o,
                           digits=digits, masked=masked, readout=readout)
    width = min(o["legend_w"], fig["width"]) if o["fit"] else o["legend_w"]
    if weights:
        key = weight_legend(width=width)
    else:
        key = legend(k_lo, k_hi, kind=kind, width=width, scaled=scaled, digits=digits)
        if scaled == "row":
            key["lo"], key["hi"] = "行内最小", "行内最大"
    fig.update(kind=kind, legend=key, row_name=row_name, col_name=col_name)
    if slots is not None:
        _frame_slots(fig, slots, *used)
    if form in ("cells", "columns"):
        _bands(fig, selected_row, selected_col, frames)
    if paths:
        fig.update(_heat_paths(fig))
    return fig


def _float_rows(matrix):
    """A matrix as rows of Python floats (one .tolist() for an array: per-entry float() calls
    on NumPy scalars cost several times more, in Pyodide most of all)."""
    if isinstance(matrix, np.ndarray) and matrix.ndim == 2:
        return matrix.astype(float).tolist()
    return [[float(x) for x in row] for row in matrix]


def _in_slots(matrix, rows, cols, masked, slots, blank):
    """A matrix of n_r x n_c (at most slots x slots) padded to slots x slots with `blank`,
    its labels and mask likewise; and (n_r, n_c)."""
    m = [[float(x) for x in row] for row in matrix][:slots]
    n_r, n_c = len(m), len(m[0]) if m else 0
    inside = lambda i, j: i < n_r and j < n_c  # noqa: E731
    full = [[m[i][j] if inside(i, j) else blank for j in range(slots)] for i in range(slots)]
    names = lambda labels: ([str(t) for t in labels][:slots] + [""] * slots)[:slots]  # noqa: E731
    hide = [[bool(masked[i][j]) if masked is not None and inside(i, j) else False
             for j in range(slots)] for i in range(slots)]
    return full, names(rows), names(cols), hide, (n_r, n_c)


def _frame_slots(fig, slots, n_r, n_c):
    """heatmap(slots=...): the unused cells and labels hidden, the used part framed."""
    for c in fig["cells"]:
        c["hidden"] = c["i"] >= n_r or c["j"] >= n_c
        if c["hidden"]:
            c["say"] = c["text"] = ""
    for key, used, index in (("rows", n_r, "i"), ("cols", n_c, "j")):
        for t in fig[key]:
            t["hidden"] = t[index] >= used
            t["label"] = "" if t["hidden"] else t["label"]
    vw, vh = fig["label_w"] + n_c * fig["cell"], fig["label_h"] + n_r * fig["cell"]
    fig.update({"slots": slots, "n_rows": n_r, "n_cols": n_c, "vw": vw, "vh": vh,
                "viewbox": f"0 0 {vw} {vh}", "empty": not n_r})


def _bands(fig, row, col, frames):
    """heatmap()'s bands and frames: each row's band (its label included) and each column's,
    over the used part of a heatmap in slots; the selected row's and column's; and the frames
    asked for ({rows, cols, cells}: the rows' bands, the columns', then a box per cell)."""
    cw, ch = fig.get("cell_w", fig.get("cell")), fig.get("cell_h", fig.get("cell"))
    left, top = fig["label_w"], fig["label_h"]
    w, h = fig.get("vw", fig["width"]), fig.get("vh", fig["height"])
    row_bands = [{"x": 0, "y": top + i * ch, "w": w, "h": ch} for i in range(len(fig["rows"]))]
    col_bands = [{"x": left + j * cw, "y": 0, "w": cw, "h": h} for j in range(len(fig["cols"]))]
    fig.update(row_bands=row_bands, col_bands=col_bands, selected_row=row, selected_col=col,
               row_band=None if row is None else row_bands[row],
               col_band=None if col is None else col_bands[col])
    if frames is not None:
        fig["frames"] = ([row_bands[i] for i in frames.get("rows", ())]
                         + [col_bands[j] for j in frames.get("cols", ())]
                         + [{"x": left + j * cw, "y": top + i * ch, "w": cw, "h": ch}
                            for i, j in frames.get("cells", ())])


def _heat_cells(m, rows, cols, classes, o, *, digits, masked, readout):
    """heatmap(form='cells'): a record per cell."""
    cell, label_w, label_h = o["cell"], o["label_w"], o["label_h"]
    n_rows, n_cols = len(m), len(m[0]) if m else 0
    classes = classes.tolist() if isinstance(classes, np.ndarray) else classes
    hidden = [[bool(x) for x in row] for row in masked] if masked is not None else None
    xs = [label_w + j * cell for j in range(n_cols)]
    cells = []  # a live view sends every cell: one dict each, the values formatted in place
    for i, (row, c_row) in enumerate(zip(m, classes)):
        y, name, h_row = label_h + i * cell, rows[i], hidden[i] if hidden else None
        cells += [{"i": i, "j": j, "x": xs[j], "y": y, "w": cell, "h": cell, "c": c, "v": v,
                   "text": f"{v:.{digits}f}", "say": f"{name} → {cols[j]}：{v:.4f}",
                   "masked": h_row[j] if h_row else False}
                  for j, (v, c) in enumerate(zip(row, c_row))]
    return {"width": label_w + n_cols * cell, "height": label_h + n_rows * cell,
            "cell": cell, "label_w": label_w, "label_h": label_h,
            "rows": [{"i": i, "y": label_h + i * cell + cell / 2, "label": t}
                     for i, t in enumerate(rows)],
            "cols": [{"j": j, "x": label_w + j * cell + cell / 2, "label": t}
                     for j, t in enumerate(cols)],
            "cells": cells}


def _heat_columns(m, rows, cols, classes, o, *, digits, masked, readout):
    """heatmap(form='columns'): the cells as NumPy columns."""
    cell_w, cell_h, label_w, label_h = o["cell_w"], o["cell_h"], o["label_w"], o["label_h"]
    n_rows, n_cols = m.shape
    ii, jj = np.divmod(np.arange(n_rows * n_cols), n_cols)  # (n_rows * n_cols,) each
    says = np.array([f"{rows[i]} · {cols[j]}：{v:.{digits}f}" for i, j, v in
                     zip(ii.tolist(), jj.tolist(), m.reshape(-1).tolist())]) if readout else None
    return {"width": r(label_w + n_cols * cell_w), "height": r(label_h + n_rows * cell_h),
            "cell_w": cell_w, "cell_h": cell_h, "label_w": label_w, "label_h": label_h,
            "cells": {"x": np.round(label_w + jj * cell_w, 2),
                      "y": np.round(label_h + ii * cell_h, 2), "i": ii, "j": jj,
                      "c": np.asarray(classes).reshape(-1),
                      **({"say": says} if readout else {})},
            "rows": [{"i": i, "y": r(label_h + i * cell_h + cell_h / 2),
                      "top": r(label_h + i * cell_h), "label": name}
                     for i, name in enumerate(rows)],
            "cols": [{"j": j, "x": r(label_w + j * cell_w + cell_w / 2), "label": name}
                     for j, name in enumerate(cols)]}


def _heat_grid(m, rows, cols, classes, o, *, digits, masked, readout):
    """heatmap(form='grid'): the classes as one array, the places as xs and ys (each object
    of a view costs time on its way to the page in Pyodide)."""
    cell, left, top = o["cell"], o["label_w"], o["label_h"]
    say = [[f"{rows[i]} → {cols[j]}：{v:.4f}" for j, v in enumerate(row)]
           for i, row in enumerate(m.tolist())]
    return {"xs": [left + j * cell for j in range(m.shape[1])],
            "ys": [top + i * cell for i in range(m.shape[0])],
            "cell": cell, "c": np.asarray(classes), "say": say,
            "width": left + m.shape[1] * cell, "height": top + m.shape[0] * cell}


def _heat_raster(m, rows, cols, classes, o, *, digits, masked, readout):
    """heatmap(form='raster'): one path per colour class, each the union of its cells; every
    class has its path (empty if unused), so a live view rebinds the same elements."""
    width, height, left, top = o["width"], o["height"], o["label_w"], o["label_h"]
    n_rows, n_cols = m.shape
    flat = np.asarray(classes).T.ravel()  # column by column, top to bottom
    starts = np.ones(flat.size, dtype=bool)
    starts[1:] = flat[1:] != flat[:-1]
    starts[::n_rows] = True  # a run never continues into the next column
    first = np.flatnonzero(starts)
    lengths = np.diff(np.append(first, flat.size))
    runs = [[] for _ in range(DIV if o["kind"] == "div" else SEQ)]
    for f, n, c in zip(first.tolist(), lengths.tolist(), flat[first].tolist()):
        runs[c].append(f"M{f // n_rows} {f % n_rows}h1v{n}h-1z")
    cw, ch = width / n_cols, height / n_rows
    to_x = lambda v: left + (v + 0.5) * cw  # noqa: E731  (a column's centre)
    to_y = lambda v: top + (v + 0.5) * ch  # noqa: E731
    whole = lambda n: list(range(0, n, max(1, int(nice_step(n - 1, 4)))))  # noqa: E731
    x_values = whole(n_cols) if o.get("col_ticks") is None else o["col_ticks"]  # cells are
    y_values = whole(n_rows) if o.get("row_ticks") is None else o["row_ticks"]  # counted
    return {"width": left + width + o["right"], "height": top + height + o["bottom"],
            "plot": {"x": left, "y": top, "w": width, "h": height},
            "cell_w": r(cw, 4), "cell_h": r(ch, 4),
            "transform": f"translate({left} {top}) scale({r(cw, 4)} {r(ch, 4)})",
            "paths": [{"c": c, "d": "".join(p)} for c, p in enumerate(runs)],
            "rows": [{"i": i, "y": r(top + i * ch), "h": r(ch)} for i in range(n_rows)],
            "x_ticks": padded([{"at": r(to_x(v)), "label": fmt(v, 0)} for v in x_values],
                              {"at": r(to_x(0)), "label": ""}),
            "y_ticks": padded([{"at": r(to_y(v)), "label": fmt(v, 0)} for v in y_values],
                              {"at": r(to_y(0)), "label": ""})}


_HEAT_DRAW = {"cells": _heat_cells, "columns": _heat_columns, "grid": _heat_grid,
              "raster": _heat_raster}


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


def attention_curves(tokens, row, query, *, keys=None, width=400, height=170, max_width=9.0,
                     min_opacity=0.08, digits=3, masked=None, dim=None, top_prefix="",
                     bottom_prefix="", say=None, slots=None, columns=False):
    """Attention as curves: the query's row of tokens across the top, the keys across the
    bottom, one curve from the query token to every key, its width and opacity proportional
    to the weight (over the row's largest). row: the query's weights over the keys (sum 1).
    Returns {width, height, top [{i, x, y, w, label, tokens, query, dim}], bottom [{i, x, y,
    w, wy (the weight's baseline), label, tokens}], curves [{j, d, sw (stroke width), op
    (opacity), weight, text, say, masked, tokens, seq}], query}.

    Options:
    - keys: the bottom row's tokens when they are another sentence (a decoder's query over
      the encoder's words; default: tokens); top_prefix / bottom_prefix name the two rows
      for pointing (data-tokens "t3", "s5"); dim: a flag per top token (a word not written
      yet); masked: a flag per key (a key the query may not see); say(j, w): curve j's
      readout (default "query → key：w").
    - slots=n: a sentence whose length changes between views (at most n tokens): the page
      keeps n tokens per row and n curves; the unused ones are `hidden` (empty, width 0).
    - columns=True: only the curves, as columns (d, sw, op, text, say, masked, each an array
      over the keys), for a figure that redraws many of them over token rows drawn once."""
    keys = tokens if keys is None else keys
    top_y, bottom_y = 16, height - 20  # token baselines; each key's weight goes under it
    top = [{**t, "tokens": f"{top_prefix}{t['i']}", "query": t["i"] == query,
            "dim": bool(dim[t["i"]]) if dim is not None else False}
           for t in token_row(tokens, width=width, y=top_y)]
    bottom = [{**t, "tokens": f"{bottom_prefix}{t['i']}", "wy": height - 4}
              for t in token_row(keys, width=width, y=bottom_y)]
    weights = _floats(row)
    biggest = max(max(weights), 1e-12)
    qx = top[query]["x"]
    y0, y1 = top_y + 8, bottom_y - 16
    start, bend, end = r(y0), r((y0 + y1) / 2), r(y1)
    curves = []
    for j, w in enumerate(weights):
        kx, share = bottom[j]["x"], w / biggest
        curves.append({
            "j": j, "tokens": f"{top_prefix}{query} {bottom_prefix}{j}",
            "d": f"M{qx},{start} C{qx},{bend} {kx},{bend} {kx},{end}",
            "sw": r(0.6 + (max_width - 0.6) * share),
            "op": r(min_opacity + (1 - min_opacity) * share, 3), "weight": w,
            "text": f"{w:.{digits}f}",
            "say": say(j, w) if say else f"{tokens[query]} → {keys[j]}：{w:.4f}",
            "masked": bool(masked[j]) if masked is not None else False,
            "seq": seq_class(w, 0.0, biggest)})
    if columns:
        return {**{k: np.array([c[k] for c in curves]) for k in ("d", "sw", "op", "text", "say")},
                "masked": np.array([c["masked"] for c in curves], dtype=bool)}
    fig = {"width": width, "height": height, "top": top, "bottom": bottom, "curves": curves,
           "query": query}
    if slots is not None:
        _curves_in_slots(fig, slots, top_prefix, bottom_prefix)
    return fig


def _curves_in_slots(fig, slots, top_prefix, bottom_prefix):
    """attention_curves(slots=...): the used tokens and curves `hidden` False, the spare ones
    up to `slots` hidden (no label, a curve of width 0)."""
    for t in fig["top"] + fig["bottom"] + fig["curves"]:
        t["hidden"] = False
    blank = {"x": 0, "label": "", "hidden": True}
    spare = range(len(fig["bottom"]), slots)
    fig["top"] += [{**blank, "i": i, "y": fig["top"][0]["y"], "query": False, "dim": False,
                    "tokens": f"{top_prefix}{i}"} for i in spare]
    fig["bottom"] += [{**blank, "i": i, "y": fig["bottom"][0]["y"], "wy": fig["height"] - 4,
                       "tokens": f"{bottom_prefix}{i}"} for i in spare]
    fig["slots"] = slots
    fig["curves"] += [{"j": j, "tokens": "", "d": "M0,0", "sw": 0, "op": 0, "weight": 0.0,
                       "text": "", "say": "", "masked": False, "seq": 0, "hidden": True}
                      for j in spare]


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


# ---------------------------------------------------------------- large heatmaps as paths

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


def _heat_paths(heat):
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


# ---------------------------------------------------------------- links between two columns

def row_links(pairs, y_from, y_to, *, x0, x1):
    """S-shaped curves linking the rows of one column to rows of another (a token's old place
    and its new one): pairs [(i, j)] runs from (x0, y_from[i]) to (x1, y_to[j]), leaving and
    arriving horizontally. Returns [{i, j, d}] in the order of pairs."""
    xm = r((x0 + x1) / 2)
    return [{"i": i, "j": j,
             "d": f"M{r(x0)},{r(y_from[i])} C{xm},{r(y_from[i])} {xm},{r(y_to[j])} "
                  f"{r(x1)},{r(y_to[j])}"} for i, j in pairs]


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
