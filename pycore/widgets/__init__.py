"""One view function per widget: parameters in, the numbers the widget shows out.

The same `view` runs twice: in CPython at build time (the pre-rendered page) and in Pyodide in
the reader's browser (every later change). Each module `pycore/widgets/<name>.py` (dashes in
the widget name become underscores) defines:

    PARAMS = {name: spec}   # what a widget block may set; see bookbuild/widgets.py for specs
    def view(**params) -> dict

A view may return NumPy values; `compute` turns them into plain JSON-able Python.
"""
import importlib
import json

import numpy as np


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


def compute(name, params):
    return plain(module(name).view(**params))


def call_json(name, params_json):
    """The browser's single entry point: JSON in, JSON out (cheap to cross the JS boundary)."""
    return json.dumps(compute(name, json.loads(params_json)))
