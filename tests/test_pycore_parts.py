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


# ---- late parts (LATE): slower than a frame, they may come after the others ----------------

def slow(frame, word):
    calls.append("slow")
    return {"slow": f"{word}{frame['n']}"}


def late_widget(*fns, late=(slow,)):
    mod = types.SimpleNamespace(__file__="pycore/widgets/toy.py", PARTS=fns, LATE=late,
                                view=lambda **p: {"all": p})
    return parts.declared("toy", mod, ("n", "heights", "word"))


def test_a_late_part_stays_out_of_a_deferring_view_that_brings_another():
    declared = late_widget(frame, bars, slow)
    _, held = ask(declared, PARAMS)  # the first view is whole: no DEFER
    calls.clear()
    view, keys = ask(declared, {**PARAMS, "n": 4, "word": "x"}, {**held, parts.DEFER: True})
    assert view.pop(parts.LATER) == ["slow"] and "slow" not in view
    assert set(keys) == {"frame", "bars"} and calls == ["frame", "bars"]  # slow not computed
    # the page asks again, holding what came, without DEFER: the late part alone
    view, keys = ask(declared, {**PARAMS, "n": 4, "word": "x"}, {**held, **keys})
    assert view == {"slow": "x4"} and set(keys) == {"slow"} and calls[-1] == "slow"


def test_a_late_part_comes_at_once_when_nothing_else_would_or_when_it_is_cached():
    declared = late_widget(frame, bars, slow)
    _, held = ask(declared, PARAMS)
    defer = {**held, parts.DEFER: True}
    view, _ = ask(declared, {**PARAMS, "word": "x"}, defer)
    assert view == {"slow": "x3"}  # a click that changes the late part alone waits for it
    _, moved = ask(declared, {**PARAMS, "n": 4}, defer)  # go4 is new: left for later
    _, came = ask(declared, {**PARAMS, "n": 4}, {**held, **moved})
    calls.clear()
    # back to n = 3: go3 was computed with the first view, so it comes with the others
    view, _ = ask(declared, PARAMS, {**held, **moved, **came, parts.DEFER: True})
    assert parts.LATER not in view and view["slow"] == "go3" and "slow" not in calls


def test_a_late_part_is_whole_for_a_caller_that_does_not_defer():
    view, keys = ask(late_widget(frame, bars, slow), {**PARAMS, "n": 5})
    assert view["slow"] == "go5" and parts.LATER not in view and set(keys) == {"frame", "bars", "slow"}


def test_late_declarations_that_cannot_work_are_refused():
    def after(slow):
        return {"after": slow["slow"]}
    with pytest.raises(ValueError, match="reads the late part slow but is not late"):
        late_widget(frame, slow, after)
    with pytest.raises(ValueError, match="LATE names 'label', which is not one of its PARTS"):
        late_widget(frame, slow, late=(slow, label))


def test_a_plain_view_is_kept_as_a_part_and_a_fresh_one_runs_at_every_call():
    def plain_view(**p):
        calls.append("view")
        return {"all": dict(p)}
    kept = parts.declared("toy", types.SimpleNamespace(__file__="toy.py", view=plain_view),
                          ("n",))
    fresh = parts.declared("toy2", types.SimpleNamespace(__file__="toy.py", view=plain_view,
                                                         FRESH=True), ("n",))
    _, held = ask(kept, {"n": 1})
    assert ask(kept, {"n": 1}, held)[0] == {}  # the page holds it: nothing to send
    assert ask(kept, {"n": 2})[0] == {"all": {"n": 2}} and ask(kept, {"n": 1})[0] == {"all": {"n": 1}}
    assert calls == ["view", "view"]  # n = 1 came from the cache
    calls.clear()
    _, held = ask(fresh, {"n": 1})
    assert ask(fresh, {"n": 1}, held)[0] == {"all": {"n": 1}} and calls == ["view", "view"]
