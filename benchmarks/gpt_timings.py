"""The timings of benchmarks/gpt.py that run in CPython and in Pyodide alike (NumPy only).

Run by gpt.py in its own process, and inside Pyodide under Node.js (bookbuild/runtime/bytecode.mjs,
with the repository mounted at /work). Prints one line: RESULT {json}.
"""
import json
import sys
import time

if sys.platform == "emscripten":  # inside Pyodide: the repository is mounted at /work
    sys.path.insert(0, "/work")

from pycore.gpt import live, run  # noqa: E402

SENTENCE = "昨天 小猫 没有 过 马路 因为 它 实在 太 累 了 ， 它 = 小猫 因为".split()  # 16 words


def repeat(f, seconds, at_least=20):
    """Times of f() (in ms), called until `seconds` have passed and at least `at_least` times."""
    times, started = [], time.perf_counter()
    while len(times) < at_least or time.perf_counter() - started < seconds:
        t = time.perf_counter()
        f()
        times.append(1000 * (time.perf_counter() - t))
    return times


def summary(times):
    ordered = sorted(times)
    return {"median": ordered[len(ordered) // 2],
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], "n": len(times)}


def live_to_accuracy(target, seed=0, chunk=25, limit_steps=1000):
    """Train the live config from seed in chunks of `chunk` steps, each followed by its report
    (as the page would draw it), until the held-out accuracy reaches `target`."""
    state = live.init(seed)
    started = time.perf_counter()
    report = {"accuracy": 0.0}
    while report["accuracy"] < target and state["step"] < limit_steps:
        report = live.step(state, chunk)
    return {"seed": seed, "steps": state["step"], "seconds": time.perf_counter() - started,
            "accuracy": report["accuracy"]}


def main():
    assert len(SENTENCE) == 16
    run.book_model()  # read the weights once, as the page does before its first view
    out = {"forward_trace_ms": summary(repeat(lambda: run.trace(SENTENCE), 3.0)),
           "forward_next_token_ms": summary(repeat(lambda: run.next_token(SENTENCE), 3.0))}
    state = live.init(0)
    live.step(state, 2, report=False)  # warm
    steps = 60
    t = time.perf_counter()
    live.step(state, steps, report=False)
    out["live_steps_per_s"] = steps / (time.perf_counter() - t)
    report_ms = repeat(lambda: live.snapshot(state), 1.0, at_least=5)
    out["live_report_ms"] = summary(report_ms)
    out["live_to_95"] = [live_to_accuracy(0.95, seed) for seed in (0, 1)]
    print("RESULT " + json.dumps(out))


main()
