"""pycore/view_parts.py against hand-made parts: a view sends the parts whose inputs changed
and computes nothing else, keeps what it computed in a bounded cache, and refuses a
declaration that reads an unknown input or gives a key twice."""
import types

import pytest

from pycore import view_parts as parts

calls = []


def frame(n):
    calls.append("frame")
    return {"n": n, "axis": {"ticks": list(range(n))}, "_scale": 10 * n}


def bars(frame, heights):
    calls.append("bars")
    return {"bars": [h * frame["_scale"] for h in heights], "axis": {"lo": min(heights)}}


def label(word):
    calls.append("label")
    return {"label": word.upper()}


def widget(*fns, **inputs):
    mod = types.SimpleNamespace(__file__="pycore/widgets/toy.py", PARTS=fns,
                                view=lambda **p: {"all": p})
    names = inputs.get("names", ("n", "heights", "word"))
    return parts.declared("toy", mod, names)


@pytest.fixture(autouse=True)
def fresh():
    parts.cache_clear()
    calls.clear()


def ask(declared, params, held=None):
    view = parts.view("toy", declared, params, held)
    return view, view.pop(parts.PARTS)


PARAMS = {"n": 3, "heights": [1, 2, 3], "word": "go"}


def test_the_whole_view_is_the_union_of_the_parts_dicts_merged():
    view, keys = ask(widget(frame, bars, label), PARAMS)
    assert view == {"n": 3, "axis": {"ticks": [0, 1, 2], "lo": 1}, "bars": [30, 60, 90],
                    "label": "GO"}  # "_scale" is the frame's own, never sent
    assert set(keys) == {"frame", "bars", "label"} and calls == ["frame", "bars", "label"]


def test_a_move_sends_and_computes_only_the_parts_that_read_it():
    declared = widget(frame, bars, label)
    _, held = ask(declared, PARAMS)
    calls.clear()
    view, keys = ask(declared, {**PARAMS, "word": "stop"}, held)
    assert view == {"label": "STOP"} and set(keys) == {"label"} and calls == ["label"]
    # the bars read the frame's result: the frame, unchanged, comes from the cache
    view, keys = ask(declared, {**PARAMS, "heights": [4, 5, 6]}, held)
    assert view == {"bars": [120, 150, 180], "axis": {"lo": 4}} and set(keys) == {"bars"}
    assert calls == ["label", "bars"]
    # a part whose input changed changes the key of every part that reads it
    view, keys = ask(declared, {**PARAMS, "n": 2}, held)
    assert set(keys) == {"frame", "bars"} and view["bars"] == [20, 40, 60]
    # the same inputs again: nothing to send, nothing computed
    calls.clear()
    assert ask(declared, PARAMS, held) == ({}, {}) and calls == []


def test_the_cache_is_bounded_and_keeps_what_was_used_last():
    declared = widget(label, names=("word",))
    words = [f"w{i}" for i in range(parts.CACHE_SIZE + 10)]
    for w in words:
        ask(declared, {"word": w})
    assert len(parts._cache) == parts.CACHE_SIZE
    calls.clear()
    ask(declared, {"word": words[-1]})   # kept
    ask(declared, {"word": words[0]})    # pushed out by the later ones: computed again
    assert calls == ["label"]


def test_a_module_without_parts_is_one_part_computed_and_sent_every_time():
    mod = types.SimpleNamespace(__file__="pycore/widgets/toy.py",
                                view=lambda n, word="x": {"n": n, "word": word})
    declared = parts.declared("toy", mod, ("n", "word"))
    view, keys = ask(declared, {"n": 1})
    assert view == {"n": 1, "word": "x"} and keys == {}
    assert ask(declared, {"n": 1}, {"view": "anything"})[0] == view


def test_a_part_reading_page_keeps_state_and_is_sent_every_time():
    runs = []

    def run(page, word):
        runs.append(page)
        return {"run": len(runs)}
    declared = parts.declared("toy", types.SimpleNamespace(__file__="t.py", PARTS=(run, label)),
                              ("page", "word"))
    _, held = ask(declared, {"page": 1, "word": "a"})
    assert set(held) == {"label"}
    view, keys = ask(declared, {"page": 1, "word": "a"}, held)
    assert view == {"run": 2} and keys == {}


def test_a_key_given_by_two_parts_is_refused_with_both_names():
    def also_label(n):
        return {"label": n}
    with pytest.raises(ValueError, match=r"parts label and also_label both give the view's "
                                         r"key 'label'"):
        ask(widget(label, also_label), PARAMS)

    def ticks_too(n):
        return {"axis": {"ticks": []}}
    with pytest.raises(ValueError, match=r"parts frame and ticks_too both give the view's key "
                                         r"'axis.ticks'"):
        ask(widget(frame, ticks_too), PARAMS)


def test_a_part_reading_an_unknown_input_is_refused_where_it_is_declared():
    def typo(heigths):
        return {}
    with pytest.raises(ValueError, match=r"pycore/widgets/toy.py: widget toy: part typo reads "
                                         r"'heigths', which is no parameter, input or earlier "
                                         r"part \(parameters and inputs: n, heights, word"):
        widget(frame, typo)
    # a part is read only after it: the bars before their frame are refused too
    with pytest.raises(ValueError, match=r"part bars reads 'frame'.*parts before it: none"):
        widget(bars, frame)


def test_a_part_named_as_an_input_is_refused():
    def word(n):
        return {}
    with pytest.raises(ValueError, match=r"part word has the name of an input"):
        widget(word)
