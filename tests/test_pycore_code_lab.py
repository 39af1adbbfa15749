"""The code lab's run: the shape table and weights come from the script's own call of
lab_report when it made the widget's call (no second run of the block), from the widget's own
call otherwise. Calls are counted by what the code prints; tables are checked against
pycore/block.py called directly."""
import sys

import pytest

from pycore import block
from pycore.widgets import code_lab, compute

SOURCE = code_lab.original_source()
# A lab_report that says each time it runs and returns a table depending on its arguments.
COUNTING = """
import numpy as np
def lab_report(seed=0, causal=True, batch=2):
    print("lab_report", seed, causal, batch)
    return [("x", (batch, seed + 1))], np.eye(3) * (0.5 if causal else 0.25)
"""


def lab(code, seed=0, causal=True):
    return compute("code-lab", {"seed": seed, "causal": causal, "code": code})


def test_original_runs_the_block_once_and_shows_its_numbers():
    counted = SOURCE.replace("def block_forward(x, w, n_heads, causal=False, trace=None):",
                             "def block_forward(x, w, n_heads, causal=False, trace=None):\n"
                             "    print('block_forward ran')")
    assert counted != SOURCE
    v = lab(counted)
    assert v["error"] == "" and v["stdout"].count("block_forward ran") == 1
    trace, head0 = block.lab_report(seed=0, causal=True)
    assert [row["text"] for row in v["shapes"]] == [str(tuple(s)) for _, s in trace]
    assert v["weights"] == [[float(x) for x in row] for row in head0]


def test_the_scripts_call_is_used_when_its_arguments_match():
    v = lab(COUNTING + "lab_report(0)\n")  # seed=0, causal=True, batch=2: the widget's call
    assert v["stdout"] == "lab_report 0 True 2\n"
    assert v["shapes"] == [{"name": "x", "shape": [2, 1], "text": "(2, 1)"}]
    assert v["weights"][0] == [0.5, 0.0, 0.0]


@pytest.mark.parametrize("main, calls", [
    ("", 0),  # the script does not call it
    ("lab_report(1)\n", 1),  # another seed
    ("lab_report(0, False)\n", 1),  # not causal
    ("lab_report(0, batch=3)\n", 1),  # another batch
    ("lab_report(0.0)\n", 1),  # 0.0 is not the int 0 the widget passes
])
def test_the_widget_calls_it_itself_otherwise(main, calls):
    v = lab(COUNTING + main)
    printed = v["stdout"].splitlines()
    assert len(printed) == calls + 1 and printed[-1] == "lab_report 0 True 2"
    assert v["shapes"] == [{"name": "x", "shape": [2, 1], "text": "(2, 1)"}]
    assert v["weights"][0] == [0.5, 0.0, 0.0]


def test_widget_parameters_pick_the_matching_call():
    script = COUNTING + "lab_report(0)\nlab_report(3, False)\n"
    v = lab(script, seed=3, causal=False)
    assert v["stdout"].count("lab_report") == 2  # the second call was the widget's
    assert v["shapes"][0]["shape"] == [2, 4] and v["weights"][0] == [0.25, 0.0, 0.0]


def test_a_redefined_or_raising_report_is_called_again():
    redefined = COUNTING + "lab_report(0)\n" + COUNTING.replace('"lab_report"', '"second"')
    v = lab(redefined)
    assert v["stdout"].splitlines() == ["lab_report 0 True 2", "second 0 True 2"]
    flaky = ("N = []\ndef lab_report(seed=0, causal=True):\n    N.append(1)\n"
             "    print('call', len(N))\n    if len(N) == 1:\n        raise ValueError\n"
             "    return [('x', (1,))], [[1.0]]\n"
             "try:\n    lab_report(0)\nexcept ValueError:\n    pass\n")
    v = lab(flaky)
    assert v["stdout"] == "call 1\ncall 2\n" and v["error"] == ""
    assert v["weights"] == [[1.0]]


def test_the_table_is_what_the_call_returned_then():
    script = ("import numpy as np\nOUT = []\ndef lab_report(seed=0, causal=True):\n"
              "    t = [('x', (4,))]\n    OUT.append(t)\n    return t, np.ones((2, 2))\n"
              "lab_report(0)\nOUT[0].append(('later', (9,)))\n")
    assert [r["name"] for r in lab(script)["shapes"]] == ["x"]


def test_the_profile_hook_is_removed_and_a_running_profiler_kept():
    assert sys.getprofile() is None
    lab(COUNTING + "lab_report(0)\n")
    lab("raise RuntimeError('boom')\n")
    assert sys.getprofile() is None
    seen = []

    def profiler(frame, event, arg):
        seen.append(event)

    sys.setprofile(profiler)
    try:
        v = lab(COUNTING + "lab_report(0)\n")
    finally:
        sys.setprofile(None)
    # the widget left the profiler alone, so it called lab_report itself: two calls printed
    assert seen and v["stdout"].count("lab_report 0 True 2") == 2


def test_same_text_compiles_once_and_syntax_errors_are_not_kept():
    code_lab.compiled.cache_clear()
    lab(COUNTING)
    lab(COUNTING)
    assert code_lab.compiled.cache_info().hits == 1
    bad = "def f(:\n"
    assert "SyntaxError" in lab(bad)["error"] and "SyntaxError" in lab(bad)["error"]
    assert code_lab.compiled.cache_info().currsize == 1
