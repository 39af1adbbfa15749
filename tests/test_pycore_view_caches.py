"""A slider dragged over its whole range and back asks for no part of a view anew.

A view's parts are kept in one bounded cache (pycore/view_parts.py). A cache smaller than a
slider's range is emptied by every sweep of it (each value pushes out the one needed next), and
then each step of a drag recomputes in Pyodide what it could reuse. These sliders are the ones
whose range is longer than a small cache: every step of the range, with each setting of the
widget's switches, walked twice as a page asks (holding the parts of the view before); the
second walk must compute no part.
"""
import itertools
import json

import numpy as np
import pytest

from pycore import view_parts as parts
from pycore.widgets import call_json, module


def steps(spec):
    kind = int if spec["type"] == "int" else float
    return [kind(round(float(v), 6)) for v in
            np.arange(spec["min"], spec["max"] + spec["step"] / 2, spec["step"])]


@pytest.mark.parametrize("name, slider, switches", [
    ("attention", "scale", ["causal"]),
    ("positional-encoding", "d_model", []),
    ("sampling", "top_p", []),
    ("vit-patches", "temperature", []),
])
def test_second_sweep_of_a_slider_computes_no_part(name, slider, switches):
    specs = module(name).PARAMS
    defaults = {k: s["default"] for k, s in specs.items()}
    values = steps(specs[slider])
    assert len(values) > 16  # a range a cache of 8 or 16 parts would not hold
    sweep = [{**defaults, **dict(zip(switches, on)), slider: v}
             for on in itertools.product([False, True], repeat=len(switches))
             for v in values + values[::-1]]
    parts.cache_clear()

    def walk():
        held = {}
        for params in sweep:
            held.update(json.loads(call_json(name, json.dumps(params), None, "[]",
                                             json.dumps(held)))[parts.PARTS])
        return sum(n for (widget, _), n in parts.computed.items() if widget == name)

    before = sum(n for (widget, _), n in parts.computed.items() if widget == name)
    first = walk()
    assert first - before >= len(values)  # the first sweep did compute
    assert walk() == first
