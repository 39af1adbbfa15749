"""The book's one way to write a number for the page: the build's pre-rendered text and the live
page's text both come from here, so a number reads the same before and after the runtime boots.

Python's float formatting rounds the exact binary value, a tie to even: 0.125 (exactly
representable) is "0.12" at 2 digits, 0.375 is "0.38". The page's JavaScript formats nothing:
`page_texts` formats what a widget's elements show of a view, in the worker, and bind.js writes
those texts (docs/widgets.md).
"""
import numpy as np

SEQ = 9  # classes of the sequential map (pycore/figure.py): 0 (smallest) .. 8 (largest)
SHADES = [f"s{k}" for k in range(SEQ)]  # a weights table cell's class: s0 .. s8 (book.css)


def number(value, digits):
    """value with `digits` decimals: number(0.125, 2) -> "0.12"."""
    return f"{value:.{digits}f}"


def sci(value):
    """e-notation with 3 significant digits, for tiny check numbers: 1.17e-15, 0.00e+00."""
    return f"{value:.2e}"


def weight_classes(values):
    """The book's one scale for attention weights (docs/widgets.md, "Colour"): the class of
    the sequential map of every weight of an array, floor(SEQ * sqrt(w)) with w clipped to
    [0, 1] and the top class SEQ - 1, on a fixed 0..1 so that the same head looks the same
    in every figure; square-root steps, so that a soft head over ten tokens (weights about
    0.1) spans several classes while 1 stays the end. The figures (pycore/figure.py) and the
    weights tables (shade) both colour by it."""
    w = np.clip(np.asarray(values, dtype=float), 0.0, 1.0)
    return np.minimum(np.floor(np.sqrt(w) * SEQ), SEQ - 1).astype(int)


def shade(value):
    """The shade class of a weights table cell showing value: s0 .. s8, its class on the
    weight scale (weight_classes): shade(0.5) -> "s6", shade(1.0) -> "s8"."""
    return SHADES[int(weight_classes(value))]


def _is_number(v):
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _at(view, path):
    """The value at a dot path of a view as the page reads its JSON (a list or array by index,
    a dict by key -- a lean view sends a list's changed items as a dict keyed by their index,
    and an int key travels as a string), or None."""
    v = view
    for key in path.split("."):
        if isinstance(v, dict):
            v = v[key] if key in v else v.get(int(key)) if key.isdigit() else None
        elif isinstance(v, (list, tuple, np.ndarray)) and key.isdigit() and int(key) < len(v):
            v = v[int(key)]
        else:
            return None
    return v


def page_texts(view, wanted):
    """The texts a widget's elements show of a view: {want: text} for each want the view holds.
    A want is "path:digits" (data-bind, data-digits), "path:e" (data-sci) or, for a matrix
    (table[data-matrix]), "path:digits" too: its cells' texts, titles (4 digits) and shade
    classes, {"text": rows, "title": rows, "shade": rows}. A part the view leaves out (a lean
    view) gets nothing: its elements keep what they show."""
    out = {}
    for want in wanted:
        path, _, how = want.rpartition(":")
        value = _at(view, path)
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if _is_number(value):
            out[want] = sci(value) if how == "e" else number(value, int(how))
        elif isinstance(value, list) and all(isinstance(row, (list, np.ndarray)) for row in value):
            out[want] = _matrix([list(row) for row in value], int(how))
    return out


def _matrix(rows, digits):
    """A matrix's cell texts, titles and shades (page_texts): number() and shade() per cell,
    spelt for speed (a view may hold hundreds of cells, and a move is timed in milliseconds)."""
    text, title = f"{{:.{digits}f}}".format, "{:.4f}".format  # number(v, digits), number(v, 4)
    return {"text": [[text(v) for v in row] for row in rows],
            "title": [[title(v) for v in row] for row in rows],
            "shade": [[SHADES[k] for k in weight_classes(row).tolist()] for row in rows]}
