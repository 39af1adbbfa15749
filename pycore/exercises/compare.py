"""Comparing the reader's result with the expected one, and showing values as short text.

compare() returns None when they match, else a plain dict saying what differs first:
    {"kind": "none" | "count" | "type" | "shape" | "not_finite" | "value", "output": name, ...}
Entries match when |got - expected| <= atol + rtol * |expected| (infinities must be equal).
"""
import numpy as np

SHOW_THRESHOLD = 100  # arrays with more entries are shown with "..."
CODE_LIMIT = 400  # numbers in a case beyond which no copy-and-paste code is offered


def compare(expected, got, rtol, atol, names=(), equal_nan=False):
    if isinstance(expected, tuple):
        if got is None:
            return {"kind": "none", "output": None}
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            n = len(got) if isinstance(got, (tuple, list)) else 1
            return {"kind": "count", "output": None, "expected_count": len(expected),
                    "got_count": n}
        for i, (e, g) in enumerate(zip(expected, got)):
            problem = compare_one(e, g, rtol, atol, equal_nan)
            if problem:
                return {**problem, "output": names[i] if i < len(names) else f"第 {i + 1} 个"}
        return None
    problem = compare_one(expected, got, rtol, atol, equal_nan)
    return {**problem, "output": None} if problem else None


def compare_one(expected, got, rtol, atol, equal_nan=False):
    if got is None:
        return {"kind": "none"}
    g = to_array(got)
    if g is None:
        return {"kind": "type", "got_type": type(got).__name__}
    e = np.asarray(expected, dtype=float)
    if g.shape != e.shape:
        return {"kind": "shape", "expected_shape": list(e.shape), "got_shape": list(g.shape)}
    both_nan = np.isnan(e) & np.isnan(g) if equal_nan else np.zeros(e.shape, dtype=bool)
    same_inf = np.isinf(e) & (g == e)
    nonfinite = ~np.isfinite(g) & np.isfinite(e) & ~both_nan
    if nonfinite.any():
        return _first(e, g, nonfinite, "not_finite", rtol, atol)
    with np.errstate(invalid="ignore", over="ignore"):
        close = (np.abs(g - e) <= atol + rtol * np.abs(e)) | same_inf | both_nan
    if not close.all():
        return _first(e, g, ~close, "value", rtol, atol)
    return None


def to_array(value):
    """The reader's result as a float array, or None when it is not numbers."""
    if isinstance(value, (str, bytes, dict, set)):
        return None
    try:
        return np.asarray(value, dtype=float)
    except Exception:
        return None


def _first(e, g, bad, kind, rtol, atol):
    index = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    ev, gv = float(e[index]), float(g[index])
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(g - e)
    problem = {"kind": kind, "index": list(index), "expected": number(ev), "got": number(gv),
               "count": int(bad.sum()), "size": int(bad.size)}
    if kind == "value":
        problem["abs_error"] = _difference(abs(gv - ev))
        errors = err[bad][np.isfinite(err[bad])]
        problem["max_abs_error"] = _difference(float(errors.max()) if errors.size else np.nan)
        problem["tolerance"] = _difference(atol + rtol * abs(ev))
    return problem


def _difference(x):
    """An error or a tolerance: exact when it is a whole number, else 3 significant digits."""
    return number(x) if np.isfinite(x) and x == int(x) and abs(x) < 1e16 else f"{x:.3g}"


def number(x):
    """A number as text: integers without a decimal point, floats with every digit."""
    x = float(x)
    if np.isfinite(x) and x == int(x) and abs(x) < 1e16:
        return str(int(x))
    return repr(x)


def show(value, limit=600):
    """Short text for one input or output value (never raises: the reader's objects may)."""
    try:
        text = _show(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + " ..."


def _show(value):
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_shape_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (tuple, list)) and value and isinstance(value[0], np.ndarray):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    if isinstance(value, np.ndarray):
        text = np.array2string(value, precision=4, separator=", ", threshold=SHOW_THRESHOLD,
                               edgeitems=3, max_line_width=90)
        return f"{text}  形状 {tuple(value.shape)}" if value.ndim > 1 or value.size > 5 \
            else text
    if isinstance(value, (float, np.floating)):
        return number(value)
    return repr(value)


def _shape_text(v):
    return f"形状 {tuple(v.shape)} 的数组" if isinstance(v, np.ndarray) else repr(v)


def code(inputs):
    """Python lines that rebuild the inputs (every digit), or None when they are too large."""
    size = sum(np.size(v) for v in _leaves(inputs))
    if size > CODE_LIMIT:
        return None
    return "\n".join(f"{k} = {_code(v)}" for k, v in inputs.items())


def _leaves(inputs):
    for v in inputs.values():
        yield from (v.values() if isinstance(v, dict) else [v])


def _code(v):
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {_code(x)}" for k, x in v.items()) + "}"
    if isinstance(v, np.ndarray):
        if v.size == 0:
            return f"np.zeros({tuple(v.shape)})"
        text = np.array2string(v, separator=", ", threshold=CODE_LIMIT + 1,
                               max_line_width=90, formatter={"float_kind": _float_code})
        return f"np.array({text})"
    if isinstance(v, (float, np.floating)):
        return _float_code(v)
    return repr(v)


def _float_code(x):
    x = float(x)
    if np.isnan(x):
        return "np.nan"
    if np.isinf(x):
        return "np.inf" if x > 0 else "-np.inf"
    return repr(x)
