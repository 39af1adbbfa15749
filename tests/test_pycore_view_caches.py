"""A slider dragged over its whole range and back asks for no part of a view anew.

The views keep the parts a control does not change in lru caches (pycore/widgets/*.py). A
cache smaller than a slider's range is emptied by every sweep of it (each value pushes out the
one needed next), and then each step of a drag recomputes in Pyodide what it could reuse.
These sliders are the ones whose range is longer than a small cache: every step of the range,
with each setting of the widget's switches, walked twice; the second walk must find all of it.
"""
import itertools
import json

import numpy as np
import pytest

from pycore.widgets import attention, call_json, module, positional_encoding


def steps(spec):
    kind = int if spec["type"] == "int" else float
    return [kind(round(float(v), 6)) for v in
            np.arange(spec["min"], spec["max"] + spec["step"] / 2, spec["step"])]


def misses(caches):
    return sum(c.cache_info().misses for c in caches)


@pytest.mark.parametrize("name, slider, switches, caches", [
    ("attention", "scale", ["causal"], [attention._weights]),
    ("positional-encoding", "d_model", [],
     [positional_encoding.tables, positional_encoding.d_part]),
])
def test_second_sweep_of_a_slider_recomputes_nothing(name, slider, switches, caches):
    specs = module(name).PARAMS
    defaults = {k: s["default"] for k, s in specs.items()}
    values = steps(specs[slider])
    assert len(values) > 16  # a range a cache of 8 or 16 parts would not hold
    sweep = [{**defaults, **dict(zip(switches, on)), slider: v}
             for on in itertools.product([False, True], repeat=len(switches))
             for v in values + values[::-1]]
    for c in caches:
        c.cache_clear()

    def walk():
        for params in sweep:
            call_json(name, json.dumps({**params, "shown": {}}))

    walk()
    first = misses(caches)
    assert first >= len(values)  # the first sweep did compute: the caches are the ones used
    walk()
    assert misses(caches) == first
