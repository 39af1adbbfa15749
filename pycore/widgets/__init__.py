"""One view function per widget: parameters in, the numbers the widget shows out.

The same `view` runs twice: in CPython at build time (the pre-rendered page) and in Pyodide in
the reader's browser (every later change). Each widget's view, `pycore/widgets/<name>/__init__.py`
(dashes in the widget name become underscores; the folder holds the widget's other parts too,
bookbuild/widget_parts.py), defines:

    PARAMS = {name: spec}   # what a widget block (and the reader's controls) may set
    INPUTS = ("code",)      # optional: view inputs that are not parameters (passed as given;
                            # "page": the page asking, given by call_json, see there)
    DATA_FILES = ("x.rgb",)  # optional: files beside pycore/ the view reads; not in the archive
                            # every page downloads, a page fetches them for its widgets only
    def view(**params) -> dict
    PARTS = (part, ...)     # or the view in parts, each computed and sent when its inputs
                            # change: pycore/view_parts.py

A spec is data: a "type" (float, int, bool, choice, vector), a "default", and per type min/max,
choices, length or min_length/max_length. `validate` checks parameters against the specs: at
build time for widget blocks, and in the browser for every live change and URL state.
A view may return NumPy values; `compute` turns them into plain JSON-able Python.
"""
import gc
import importlib
import json

import numpy as np

from .. import fmt
from .. import view_parts as _parts

TEXTS = "$text"  # the key of a view's texts for the page (call_json; bind.js TEXTS)


def module(name):
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def plain(value):
    """NumPy arrays and scalars -> lists, floats and ints (recursively)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def describe(spec):
    t = spec["type"]
    if t in ("float", "int"):
        return f"a number from {spec['min']} to {spec['max']}" if t == "float" else \
            f"an integer from {spec['min']} to {spec['max']}"
    if t == "bool":
        return "true or false"
    if t == "choice":
        return "one of " + ", ".join(repr(c) for c in spec["choices"])
    n = spec.get("length")
    count = f"{n}" if n else f"{spec.get('min_length', 1)} to {spec.get('max_length', 'any')}"
    return f"a list of {count} numbers, each from {spec['min']} to {spec['max']}"


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def quoted(value, limit=60):
    """repr(value), cut to about `limit` characters: a message may quote a huge value."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def check_value(name, value, spec):
    """Return the value in its canonical type, or raise ValueError saying what is allowed."""
    t = spec["type"]

    def bad():  # the message is built only for a value that is refused (every move checks)
        return ValueError(f"parameter {name} = {quoted(value)} is not allowed: "
                          f"{name} must be {describe(spec)}")
    if t == "bool":
        if not isinstance(value, bool):
            raise bad()
        return value
    if t == "choice":  # same type too: 4.0 or true do not pick the choice 4 or 1
        for choice in spec["choices"]:
            if type(choice) is type(value) and choice == value:
                return choice
        raise bad()
    if t == "int":
        if not isinstance(value, int) or isinstance(value, bool) or \
                not spec["min"] <= value <= spec["max"]:
            raise bad()
        return value
    if t == "float":
        if not is_number(value) or not spec["min"] <= value <= spec["max"]:
            raise bad()
        return float(value)
    if t == "vector":
        ok_len = (len(value) == spec["length"]) if "length" in spec and isinstance(value, list) \
            else isinstance(value, list) and \
            spec.get("min_length", 1) <= len(value) <= spec.get("max_length", 10**6)
        if not ok_len or not all(is_number(v) and spec["min"] <= v <= spec["max"] for v in value):
            raise bad()
        return [float(v) for v in value]
    raise AssertionError(f"unknown parameter type {t!r} in a widget's PARAMS")


def validate(name, params):
    """Every parameter of the widget, checked and canonical; defaults fill the missing ones."""
    mod = module(name)
    specs, inputs = mod.PARAMS, getattr(mod, "INPUTS", ())
    unknown = [k for k in params if k not in specs and k not in inputs]
    if unknown:
        raise ValueError(f"widget {name} has no parameter {quoted(unknown[0])}; "
                         f"allowed: {', '.join(specs)}")
    full = {k: check_value(k, params[k], spec) if k in params else spec["default"]
            for k, spec in specs.items()}
    full.update({k: params[k] for k in inputs if k in params})
    return full


def parts_of(name):
    """The widget's parts (pycore/view_parts.py), checked once per widget."""
    if name not in _declared:
        mod = module(name)
        _declared[name] = _parts.declared(name, mod, (*mod.PARAMS, *getattr(mod, "INPUTS", ())))
    return _declared[name]


_declared = {}  # widget name -> its parts: read from the module once, not at every move


def view_of(name, params, held=None):
    """The view of checked parameters: its parts the page does not hold (`held`: {part: key}),
    their keys under parts.PARTS."""
    return _parts.view(name, parts_of(name), params, held)


def owners(name, params):
    """{view key path: the part that gives it} of the whole view (bookbuild/bindcheck.py)."""
    return _parts.owners(name, parts_of(name), validate(name, params))


def compute(name, params):
    """The widget's whole view for checked parameters, as plain JSON-able Python."""
    view = view_of(name, validate(name, params))
    del view[_parts.PARTS]
    return plain(view)


def numpy_to_json(value):
    """json.dumps's fallback for what its C encoder does not know: arrays and NumPy scalars
    (np.float64 is a float and needs none)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a widget's view returned {type(value).__name__}, which JSON cannot hold")


def call_json(name, params_json, page=None, texts_json="[]", held_json="{}"):
    """The browser's single entry point: JSON in, JSON out (cheap to cross the JS boundary).
    The view goes straight to json.dumps: walking it first with plain() took more than half of
    a large view's time (the attention widget's 81 heatmap cells), twice that in Pyodide.

    `page`: the worker's number for the page that asks (one worker serves every open page of
    the book). A view that keeps state between calls (train-live's runs) names "page" in its
    INPUTS and gets it, whatever the request says, so each page's state stays its own; it
    defines page_closed(page) to drop that state (see page_closed below).

    `texts_json`: the texts of the view's numbers the page shows (assets/widgets/bind.js
    textsWanted: "path:digits", "path:e"). They come with the view, under "$text", written by
    pycore/fmt.py as the build wrote them: the page formats no number itself.

    `held_json`: the keys of the view's parts the page holds ({part: key}, as the last views
    brought them under "$parts"): the view brings only the other parts (parts.py)."""
    params = json.loads(params_json)
    if "page" in getattr(module(name), "INPUTS", ()):
        params["page"] = page
    view = view_of(name, validate(name, params), json.loads(held_json))
    wanted = json.loads(texts_json)
    if wanted:  # the texts of the parts sent; the page keeps those of the parts it holds
        view[TEXTS] = fmt.page_texts(view, wanted)
    if name not in _seen:
        _seen.add(name)
        # What the first view of a widget imports and caches lives as long as the page: moved
        # out of the collector's sight (gc.freeze), a full collection no longer walks it: with
        # every widget seen, 33 ms -> 0.01 ms in Pyodide (under Node), a move's worst case.
        gc.freeze()
    # ASCII JSON on purpose: Pyodide hands an ASCII str to the page several times faster than
    # one with Chinese characters (ensure_ascii=False made multi-head's move 4.4 -> 16 ms)
    return json.dumps(view, default=numpy_to_json)


_seen = set()  # widgets call_json has computed a view of


def page_closed(page):
    """The page went away (the worker heard its connection close): the views that keep state
    per page drop that page's."""
    for name in _seen:
        forget = getattr(module(name), "page_closed", None)
        if forget:
            forget(page)
