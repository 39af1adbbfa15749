"""Widget code-lab: the reader edits and runs pycore/block.py (one Transformer block in NumPy).

Running a piece of code means: compile it under the file name LAB_FILE, execute it as a
script (`__name__ == "__main__"`, so its last lines print the report) in a fresh namespace
with stdout captured, then take the shape table and head 0's weights from its own
`lab_report(seed=..., causal=...)`. The original script already makes that very call (its
print_report does), so while the script runs a profile hook (sys.setprofile) notes what each
call of the code's lab_report was given and returned; when one of them had exactly the
arguments the widget would pass, its result is used; otherwise (edited code that calls it
differently, or not at all) the widget calls lab_report itself afterwards. Either way the
table is what the reader's lab_report returned for those arguments, and the block is not run
a second time just for the table. The code compiled for the last few texts is kept (the same
text compiles to the same code). Nothing the code does can break the widget: any exception
(a syntax error, a NameError, a wrong shape) comes back as the traceback text, lines numbered
as in the text box.

In the browser the reader's code runs in a Python of its own (a dedicated worker, started
fresh for every run, apart from the widgets' Python): a run that never ends, or fills the
memory, or patches pycore, or ends Python itself, touches nothing else, and the page ends
that worker when the reader presses 停止 or after TIME_LIMIT seconds. It then asks this view
(in the widgets' Python, without running the code) for the page to show with
`interrupted` set: what happened, said as the widget's error.
"""
import contextlib
import functools
import inspect
import io
import linecache
import math
import sys
import traceback
from pathlib import Path

from ... import block, figure

LAB_FILE = "<代码实验室>"
MAX_STDOUT = 20000  # characters kept of what the code prints
MAX_HEAT = 12  # the weights table shows at most 12 x 12 entries

# The reader's edited source is an input of the view, not a block parameter (never in a link);
# so is how the page ended a run that did not finish (see INTERRUPTIONS).
INPUTS = ("code", "interrupted")
# Every request runs the reader's code again, even the same code (pycore/view_parts.py): a run
# is an event, not a value to keep.
FRESH = True

# interrupted -> the message shown as the run's error (exit: Python ended with that status)
INTERRUPTIONS = {
    "stopped": "已停止：你按了「停止」。这次运行的 Python 已经结束，它占用的内存也随之释放；"
               "下一次运行会在一个新的 Python 里进行。",
    "timeout": "运行超过 {time_limit} 秒，已自动停止（可能是死循环，或计算量太大）。"
               "这次运行的 Python 已经结束，下一次运行会在一个新的 Python 里进行。",
    "exit": "你的代码结束了 Python 本身（os._exit({status})），所以没有输出可以显示。"
            "下一次运行会在一个新的 Python 里进行。",
    "crashed": "运行代码的 Python 意外退出了（也许是内存耗尽）。下一次运行会在一个新的 Python "
               "里进行。",
    "boot": "运行代码的 Python 迟迟没有启动好，换了一个新的也没有，这次没有运行（浏览器可能太忙）。"
            "再按一次「运行」会重新启动一个 Python。",
}

PARAMS = {
    "seed": {"type": "int", "min": 0, "max": 9999, "default": 0,
             "help": "passed to the code's lab_report for the shape table and the weights"},
    "causal": {"type": "bool", "default": True,
               "help": "passed to the code's lab_report: mask the future or not"},
    "time_limit": {"type": "int", "min": 1, "max": 60, "default": 10,
                   "help": "seconds a run of the reader's code may take before the page stops it"},
}


@functools.lru_cache(maxsize=1)
def original_source():
    """The text of pycore/block.py, exactly as the book ships it."""
    return Path(block.__file__).read_text(encoding="utf-8")


def lab_traceback(exc):
    """The traceback of exc without this module's frames: it starts in the reader's code."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != LAB_FILE:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def shape_rows(trace):
    """[(name, shape), ...] from lab_report -> [{name, shape: [dims], text: "(B, T, D)"}]."""
    rows = []
    for name, shape in trace:
        dims = tuple(int(n) for n in shape)
        rows.append({"name": str(name), "shape": list(dims), "text": str(dims)})
    return rows


def changed_steps(shapes):
    """For each step, whether its shape differs from the step before (the list marks them)."""
    return [k > 0 and row["shape"] != shapes[k - 1]["shape"] for k, row in enumerate(shapes)]


def heat(weights):
    """Head 0's weights as nested lists when they are a finite 2-D table, else []."""
    rows = [[float(x) for x in row] for row in weights][:MAX_HEAT]
    rows = [row[:MAX_HEAT] for row in rows]
    ok = rows and all(len(r) == len(rows[0]) and all(math.isfinite(x) for x in r) for r in rows)
    return rows if ok else []


@functools.lru_cache(maxsize=4)
def compiled(code):
    """The code compiled as the file LAB_FILE (a SyntaxError is raised, and not kept)."""
    return compile(code, LAB_FILE, "exec")


def table_of(result):
    """lab_report's (trace, head 0 weights) -> (shape rows, weights table)."""
    trace, head0 = result
    return shape_rows(trace), heat(head0)


def call_arguments(frame):
    """The arguments a function frame was called with, by parameter name (at its 'call')."""
    code = frame.f_code
    n = code.co_argcount + code.co_kwonlyargcount
    n += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    return {name: frame.f_locals[name] for name in code.co_varnames[:n]}


def report_watcher(calls):
    """A profile function that appends (code, arguments, table or None) to calls for every
    call of a function named lab_report written in the lab's code. It never raises."""
    started = {}

    def watch(frame, event, result):
        code = frame.f_code
        if code.co_name != "lab_report" or code.co_filename != LAB_FILE:
            return
        try:
            if event == "call":
                started[id(frame)] = call_arguments(frame)
            elif event == "return":  # also when an exception leaves the frame: result None
                arguments = started.pop(id(frame), None)
                calls.append((code, arguments, table_of(result)))
        except Exception:  # noqa: BLE001 -- a result that is no table: the widget calls again
            calls.append((code, None, None))
    return watch


def same_value(a, b):
    """Equal plain values (same type): what two calls' arguments must be to count as one."""
    plain = (int, float, bool, str, type(None))
    return a is b or (type(a) is type(b) and isinstance(a, plain) and a == b)


def table_from_run(calls, report, seed, causal):
    """The table of a call lab_report(seed=seed, causal=causal) the script itself made, or None."""
    try:
        wanted = inspect.signature(report).bind(seed=seed, causal=causal)
    except (TypeError, ValueError):  # the widget's own call will show the error
        return None
    wanted.apply_defaults()
    for code, arguments, table in reversed(calls):
        if code is getattr(report, "__code__", None) and table is not None \
                and arguments is not None and arguments.keys() == wanted.arguments.keys() \
                and all(same_value(arguments[k], v) for k, v in wanted.arguments.items()):
            return table
    return None


def run_script(code, namespace):
    """exec the code in namespace; returns the calls of its lab_report (see report_watcher).
    An active profiler (someone's sys.setprofile) is left alone: then nothing is noted."""
    calls, previous = [], sys.getprofile()
    if previous is None:
        sys.setprofile(report_watcher(calls))
    try:
        exec(compiled(code), namespace)
    finally:
        sys.setprofile(previous)
    return calls


def execute(code, seed, causal):
    """Run the code; return (stdout, error text, shape rows, weights)."""
    linecache.cache[LAB_FILE] = (len(code), None, code.splitlines(True), LAB_FILE)
    out, shapes, weights = io.StringIO(), [], []
    try:
        with contextlib.redirect_stdout(out):
            namespace = {"__name__": "__main__", "__file__": LAB_FILE}
            calls = run_script(code, namespace)
            report = namespace.get("lab_report")
            if callable(report):
                table = table_from_run(calls, report, seed, causal)
                if table is None:
                    table = table_of(report(seed=seed, causal=causal))
                shapes, weights = table
        error = ""
    except BaseException as exc:  # noqa: BLE001 -- whatever the reader's code raises is shown
        error = lab_traceback(exc)
    stdout = out.getvalue()
    if len(stdout) > MAX_STDOUT:
        stdout = stdout[:MAX_STDOUT] + "\n…（输出太长，后面的省略了）\n"
    return stdout, error, shapes, weights


def interruption(interrupted, time_limit):
    """'timeout' / 'stopped' / 'crashed' / 'boot' / 'exit:<status>' -> the message the widget
    shows."""
    kind, _, status = str(interrupted).partition(":")
    if kind not in INTERRUPTIONS or (kind == "exit") != bool(status.lstrip("-").isdigit()):
        raise ValueError(f"interrupted must be one of {', '.join(INTERRUPTIONS)} (exit:<status>), "
                         f"got {str(interrupted)[:40]!r}")
    return INTERRUPTIONS[kind].format(status=status, time_limit=time_limit)


def view(seed, causal, time_limit, code=None, interrupted=None):
    source = original_source()
    code = source if code is None else str(code)
    if interrupted is None:
        stdout, error, shapes, weights = execute(code, seed, causal)
    else:  # the page ended the run: nothing ran here, and nothing is shown but what happened
        stdout, error, shapes, weights = "", interruption(interrupted, time_limit), [], []
    return {
        "time_limit": time_limit, "interrupted": interrupted,
        "code": code, "edited": code != source,
        "seed": seed, "causal": causal,
        "stdout": stdout, "error": error,
        "shapes": shapes, "changed": changed_steps(shapes),
        "output_shape": shapes[-1]["text"] if shapes else "—",
        "weights": weights,
        "positions": [str(i) for i in range(len(weights))],
        # the weights as a heatmap on a fixed 0..1 scale, as many cells as lab_report returned;
        # in a causal run, the future's exact zeros drawn as the mask
        "heat": figure.heatmap(weights, range(len(weights)), range(len(weights)), slots=MAX_HEAT,
                               weights=True, cell=30, label_w=30, label_h=20,
                               row_name="查询", col_name="键",
                               masked=[[causal and j > i and x == 0.0
                                        for j, x in enumerate(row)]
                                       for i, row in enumerate(weights)]),
        "heat_caption": f"lab_report(seed={seed}, causal={causal}) 的 head 0：第 1 条序列前 "
                        f"{len(weights)} 个位置的注意力权重（行：查询，列：键）",
    }
