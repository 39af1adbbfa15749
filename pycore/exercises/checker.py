"""check(exercise_id, source, seed): run the reader's function on the exercise's cases and say,
as a teacher would, what is wrong with it. The answer is a JSON-able dict (see feedback.FIELDS).

Order of work:
1. The cases (fixed, then random ones drawn from `seed`, then one large case for timing) and
   their expected results, computed by pycore before any of the reader's code runs.
2. The reader's source is compiled and run in a fresh namespace, inside sandbox.guarded():
   whatever it changes in pycore, NumPy or the builtins is put back when the check ends.
3. The function is looked up, its signature compared, and every case called on copies of
   the inputs; the first case that fails ends the check.
4. Outside the guard, a failing result is compared with the exercise's typical mistakes, so
   the feedback can name the mistake ("the mask was applied after the softmax").
"""
import inspect
import statistics
import traceback

import numpy as np

from . import compare as cmp
from . import feedback, sandbox
from .registry import get

ROUNDS = 5  # the large case is timed up to this many times, alternating with the reference,
TIME_BUDGET = 1.0  # until the reader's runs of it have taken this many seconds in all


def check(exercise_id, source, seed=0):
    """Feedback on the reader's `source` for exercise `exercise_id`; never raises for anything
    the source does. An unknown exercise id or a seed that is no seed is the page's mistake:
    ValueError."""
    ex = get(exercise_id)
    seed = valid_seed(seed)
    try:
        return _check(ex, str(source), seed)
    except KeyboardInterrupt as e:  # stopped while the checker's own code was running
        return feedback.make(ex, seed, "interrupted", "检查被中断了，没有得出结论。",
                             error={"type": "KeyboardInterrupt", "message": str(e),
                                    "line": None, "traceback": ""})
    except BaseException as e:  # the checker's own fault: still an answer, not a crash
        error = {"type": type(e).__name__, "message": sandbox.message_of(e), "line": None,
                 "traceback": traceback.format_exc()[-sandbox.TRACEBACK_LIMIT:]}
        return feedback.make(ex, seed, "internal_error",
                             f"检查这道题时检查程序自己出了错（{error['type']}: "
                             f"{error['message']}），这不是你的代码的问题。", error=error)


def valid_seed(seed):
    """The seed of the random cases: a whole number from 0 up (None: 0), as NumPy takes it."""
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number from 0 up, not {seed!r}")
    return int(seed)


def _check(ex, source, seed):
    cases = prepare(ex, seed)
    code, syntax = sandbox.compile_source(source)
    if syntax is not None:
        return feedback.syntax(ex, seed, syntax)
    with sandbox.guarded() as env:
        verdict = _run(ex, code, cases)
    verdict["warnings"] = sandbox.describe_warnings(env["warnings"]) + verdict["warnings"]
    verdict["output"] = env["output"].getvalue()
    verdict["pycore_imports"] = sorted(env["pycore_imports"])
    return feedback.finish(ex, seed, cases, verdict)


# --- 1. cases and expected results ------------------------------------------------------

def prepare(ex, seed):
    """[{case, kind, number, expected, reference_seconds}] for fixed, random, timing cases."""
    rng = np.random.default_rng(seed)
    groups = [("fixed", ex.fixed), ("random", ex.random(rng)),
              ("timing", [ex.timing(rng)] if ex.timing else [])]
    prepared = []
    for kind, cases in groups:
        for number, case in enumerate(cases, 1):
            expected, seconds = _expected(ex, case, repeat=3 if kind == "timing" else 1)
            prepared.append({"case": case, "kind": kind, "number": number,
                             "expected": expected, "reference_seconds": seconds})
    return prepared


def _expected(ex, case, repeat):
    best = None
    for _ in range(repeat):
        value, error, seconds = sandbox.call(ex.reference, case.copy_inputs(), case.run)
        best = seconds if best is None else min(best, seconds)
    if case.raises is not None:
        if not isinstance(error, case.raises):
            raise AssertionError(f"{ex.id}: the reference does not raise on {case.name!r}")
        return None, best
    if error is not None:
        raise error
    if case.expect is not None:  # an answer of its own, computed apart from the reference
        return case.expect(*case.copy_inputs()), best
    return value, best


# --- 2-3. the reader's code -------------------------------------------------------------

def _run(ex, code, cases):
    """Everything that runs the reader's code; returns a raw verdict for feedback.finish()."""
    namespace, error, load_seconds = sandbox.execute(code)
    verdict = {"status": None, "load_seconds": load_seconds, "warnings": [],
               "reader_seconds": 0.0}
    if error is not None:
        return {**verdict, "status": "load_error", "error": error}
    fn = namespace.get(ex.function)
    if not callable(fn):
        functions = sorted(k for k, v in namespace.items() if inspect.isfunction(v))
        return {**verdict, "status": "missing_function", "functions": functions,
                "defined_as": None if fn is None else type(fn).__name__}
    problem = _signature_problem(fn, ex, cases)
    if problem:
        return {**verdict, "status": "bad_signature", "theirs": problem}
    for index, item in enumerate(cases):
        outcome = _run_case(ex, fn, item, verdict)
        if outcome:
            return {**verdict, **outcome, "passed_before": cases[:index]}
    verdict["status"] = "passed"
    return verdict


def _signature_problem(fn, ex, cases):
    """None when fn accepts every call the cases make; else fn's own signature as text."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None  # a builtin or a class without one: let the calls speak
    counts = {len(c["case"].inputs) for c in cases if c["case"].run is None} | {len(ex.params)}
    for n in sorted(counts):
        try:
            sig.bind(*range(n))
        except TypeError:
            return f"{ex.function}{sig}"
    return None


def _run_case(ex, fn, item, verdict):
    """None when the case passes; else the raw facts of the failure."""
    case = item["case"]
    args = case.copy_inputs()
    got, error, seconds = sandbox.call(fn, args, case.run)
    verdict["reader_seconds"] += seconds
    if error is None and not verdict["warnings"]:
        changed = _changed_inputs(case.inputs, args)
        if changed:
            verdict["warnings"].append(
                f"你的函数改动了传入的参数 {', '.join(changed)}（原地修改），调用它的人手里的数组"
                "也会跟着变。写成 z = z - m 这样生成新数组，而不是 z -= m。")
    failure = {"item": item, "got": got, "error": error, "seconds": seconds}
    if error is not None:
        if case.raises is not None and isinstance(error, case.raises):
            return None
        if case.raises is not None:
            return {**failure, "status": "wrong_exception"}
        if isinstance(error, NotImplementedError):
            return {**failure, "status": "not_implemented"}
        return {**failure, "status": "error"}
    if case.raises is not None:
        return {**failure, "status": "should_raise"}
    problem = cmp.compare(item["expected"], got, ex.rtol, ex.atol_for(case), ex.outputs)
    if problem:
        status = {"none": "wrong_type", "count": "wrong_type", "type": "wrong_type",
                  "shape": "wrong_shape", "not_finite": "not_finite",
                  "value": "wrong_value"}[problem["kind"]]
        return {**failure, "status": status, "problem": problem}
    if item["kind"] == "timing":
        yours, ref, ratio = _best_times(ex, fn, item, seconds, verdict)
        verdict["large"] = {"name": case.name, "seconds": yours, "reference_seconds": ref,
                            "round_ratio": ratio}
    return None


def _best_times(ex, fn, item, first, verdict):
    """The reader's and the reference's times on the large case, in rounds (reference, then
    reader): the best time of each, and the median of the rounds' ratios. A busy machine can
    slow any single run, the reader's (a fast answer looks slow) or the reference's (a slow one
    looks fast); it takes most of the rounds to move the median. (The smallest ratio, used
    before, let one delayed reference run of ~1 ms pass a 150x slower answer at load 13.)"""
    case = item["case"]
    rounds = [(first, item["reference_seconds"])]
    while len(rounds) < ROUNDS and sum(y for y, _ in rounds) < TIME_BUDGET:
        ref = sandbox.call(ex.reference, case.copy_inputs(), case.run)[2]
        yours = sandbox.call(fn, case.copy_inputs(), case.run)[2]
        verdict["reader_seconds"] += yours
        rounds.append((yours, ref))
    ratio = statistics.median(y / r if r > 0 else float("inf") for y, r in rounds)
    return min(y for y, _ in rounds), min(r for _, r in rounds), ratio


def _changed_inputs(pristine, args):
    names = []
    for (name, before), after in zip(pristine.items(), args):
        if isinstance(before, np.ndarray) and isinstance(after, np.ndarray) \
                and before.shape == after.shape \
                and not np.array_equal(before, after, equal_nan=True):
            names.append(name)
    return names
