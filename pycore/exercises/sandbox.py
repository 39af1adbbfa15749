"""Running the reader's code: in its own namespace, with its output captured, its exceptions
caught (all of them, SystemExit and KeyboardInterrupt too) and its traceback numbered as in
the reader's editor. Afterwards the modules it could have changed are put back as they were.

This is not a security boundary (the reader runs their own code in their own browser); it
keeps one check from spoiling the next: reassigning pycore.softmax.softmax, np.exp or a
builtin, or writing into pycore.example.EMBEDDINGS, is undone when the check ends. The pycore
modules the code imports are noted: an answer computed by the book's own code is not passed.
Time limits are not enforced here: the worker that runs the checker is stopped from outside.
"""
import builtins
import contextlib
import copy
import io
import linecache
import sys
import time
import traceback
import warnings

import numpy as np

FILENAME = "<你的代码>"  # shown in tracebacks; linecache serves the reader's lines under it
MODULE = "__exercise__"  # the __name__ of the reader's code
OUTPUT_LIMIT = 4000  # characters of print() output kept
TRACEBACK_LIMIT = 3000
WATCHED = ("builtins", "sys", "math", "numpy", "numpy.linalg", "numpy.random")


def _watched(name):
    return name in WATCHED or name == "pycore" or name.startswith("pycore.")


def _containers(name, namespace):
    """Mutable data of a pycore module (arrays, lists, dicts) to restore in place.

    The exercise registry is left out: the checker only hands the reader copies of it.
    """
    if not name.startswith("pycore") or name.startswith("pycore.exercises"):
        return {}
    kinds = (np.ndarray, list, dict, set)
    return {k: copy.deepcopy(v) for k, v in namespace.items()
            if isinstance(v, kinds) and not k.startswith("__")}


def snapshot():
    """Everything restore() puts back: module namespaces, their data, sys state."""
    modules = {name: m for name, m in sys.modules.items() if _watched(name)}
    return {
        "modules": modules,
        "namespaces": {name: dict(vars(m)) for name, m in modules.items()},
        "data": {name: _containers(name, vars(m)) for name, m in modules.items()},
        "recursion_limit": sys.getrecursionlimit(),
        "errstate": np.geterr(),
        "printoptions": np.get_printoptions(),
    }


def _restore_value(current, saved):
    """Put `saved`'s content back into `current` when both are the same kind of container
    (other modules may hold the same object), else return a fresh copy of `saved`."""
    try:
        if isinstance(current, np.ndarray) and isinstance(saved, np.ndarray) \
                and current.shape == saved.shape and current.dtype == saved.dtype:
            if not np.array_equal(current, saved, equal_nan=saved.dtype.kind in "fc"):
                current.setflags(write=True)
                current[...] = saved
            return current
        if isinstance(current, (list, dict, set)) and type(current) is type(saved):
            if not _equal(current, saved):
                current.clear()
                (current.extend if isinstance(current, list) else current.update)(saved)
            return current
    except Exception:
        pass
    return copy.deepcopy(saved)


def _equal(a, b):
    try:
        return bool(a == b)
    except Exception:  # e.g. a dict of arrays: compare nothing, restore everything
        return False


def restore(state):
    sys.setrecursionlimit(state["recursion_limit"])
    for name in [n for n in sys.modules if _watched(n) and n not in state["modules"]]:
        del sys.modules[name]
    sys.modules.update(state["modules"])
    for name, saved in state["namespaces"].items():
        namespace = vars(state["modules"][name])
        for key in [k for k in namespace if k not in saved]:
            del namespace[key]
        for key, value in saved.items():
            if namespace.get(key, _MISSING) is not value:
                namespace[key] = value
        for key, data in state["data"][name].items():
            namespace[key] = _restore_value(namespace[key], data)
    np.seterr(**state["errstate"])
    np.set_printoptions(**state["printoptions"])


_MISSING = object()


class _CappedOutput(io.StringIO):
    """print() target that keeps the first OUTPUT_LIMIT characters and drops the rest."""

    def write(self, s):
        room = OUTPUT_LIMIT - self.tell()
        if room > 0:
            super().write(s[:room])
        return len(s)


def _recording_pycore_imports(imported):
    """An __import__ that notes in `imported` each pycore module the reader's code imports (the
    book's reference implementations and the model solutions live there); pycore's and NumPy's
    own imports, made while the checker runs, are theirs, not the reader's."""
    real_import = builtins.__import__

    def recording_import(name, globals=None, locals=None, fromlist=(), level=0):
        module = real_import(name, globals, locals, fromlist, level)
        by_reader = globals is None or globals.get("__name__") == MODULE
        if by_reader and level == 0 and name.split(".")[0] == "pycore":
            imported.add(name)
        return module
    return recording_import


@contextlib.contextmanager
def guarded():
    """Snapshot on entry, restore on exit; yields the captured output and warnings, and the
    pycore modules the reader's code imported."""
    state = snapshot()
    out = _CappedOutput()
    caught = []
    imported = set()
    stdin = sys.stdin
    try:
        with warnings.catch_warnings(record=True) as caught, \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            warnings.simplefilter("always")
            sys.stdin = io.StringIO()  # input() gets EOFError instead of waiting
            builtins.__import__ = _recording_pycore_imports(imported)  # restore() puts it back
            yield {"output": out, "warnings": caught, "pycore_imports": imported}
    finally:
        sys.stdin = stdin
        restore(state)


def compile_source(source):
    """(code object, None) or (None, SyntaxError)."""
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
    try:
        return compile(source, FILENAME, "exec"), None
    except SyntaxError as e:
        return None, e
    except (ValueError, TypeError) as e:  # e.g. a NUL character in the source
        err = SyntaxError(str(e))
        err.lineno = None
        return None, err


def execute(code):
    """Run the reader's module code in a fresh namespace: (namespace, error, seconds)."""
    namespace = {"__name__": MODULE, "__builtins__": builtins}
    start = time.perf_counter()
    try:
        exec(code, namespace)
        error = None
    except BaseException as e:  # SystemExit, KeyboardInterrupt: reported, never raised
        error = e
    return namespace, error, time.perf_counter() - start


def call(fn, args, run=None):
    """fn(*args), or run(fn, *args) for a case that calls fn several times:
    (value, error, seconds)."""
    start = time.perf_counter()
    try:
        value = fn(*args) if run is None else run(fn, *args)
        error = None
    except BaseException as e:
        value, error = None, e
    return value, error, time.perf_counter() - start


def describe_error(error):
    """{type, message, line, traceback}: only the reader's frames, numbered as in their code."""
    te = traceback.TracebackException(type(error), error, error.__traceback__, compact=True)
    _keep_reader_frames(te)
    frames = [f for f in te.stack if f.filename == FILENAME]
    text = "".join(te.format())
    if len(text) > TRACEBACK_LIMIT:
        text = text[:TRACEBACK_LIMIT // 2] + "\n...\n" + text[-TRACEBACK_LIMIT // 2:]
    return {"type": type(error).__name__, "message": message_of(error),
            "line": frames[-1].lineno if frames else None, "traceback": text}


def _keep_reader_frames(te, seen=None):
    seen = set() if seen is None else seen
    while te is not None and id(te) not in seen:
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list(
            [f for f in te.stack if f.filename == FILENAME])
        _keep_reader_frames(te.__context__, seen)
        te = te.__cause__


def message_of(error):
    try:
        return str(error)
    except BaseException:  # a reader's exception class whose __str__ fails
        return repr(type(error))


def describe_warnings(caught, limit=5):
    """Distinct warnings raised in the reader's code: ["第 5 行: RuntimeWarning: ..."]."""
    lines = []
    for w in caught:
        where = f"第 {w.lineno} 行: " if w.filename == FILENAME else ""
        line = f"{where}{w.category.__name__}: {w.message}"
        if line not in lines:
            lines.append(line)
    return lines[:limit]
