"""Time the poem model (pycore.gpt.poem_run) on 64 characters, in CPython and in Pyodide.

    python3 benchmarks/char_gpt.py

Runs itself twice: in this CPython (a child process) and inside Pyodide under Node.js
(bookbuild/runtime/bytecode.mjs, the repository mounted at /work; needs `python3 build.py` once for
the runtime). Each prints RESULT {json}: median and p95 (ms) of one forward pass over 64
characters (model.forward + the last position's logits), and of poem_run.next_char, which the
widget calls (the same plus reading the text and the sampling stages). Wall-clock figures move
with the machine's load; no test asserts them.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

INNER = sys.platform == "emscripten" or os.environ.get("CHAR_GPT_TIMINGS") == "1"
if sys.platform == "emscripten":  # inside Pyodide: the repository is mounted at /work
    sys.path.insert(0, "/work")


def timings():
    import numpy as np

    from pycore.gpt import model, poem_run

    params, cfg, record = poem_run.poem_model()
    text = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n" * 3
    text = text[:cfg["n_positions"]]
    ids = np.array([poem_run.read(text)["ids"]])
    assert ids.shape == (1, 64)

    def forward():
        h, _ = model.forward(params, cfg, ids)
        return model.logits(params, h[0, -1])

    return {"forward_64_ms": summary(forward), "next_char_64_ms":
            summary(lambda: poem_run.next_char(text))}


def summary(f, n=40):
    """Median and p95 (ms) of n calls of f, after one call that is not counted."""
    f()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(1000 * (time.perf_counter() - t))
    times.sort()
    return {"median": round(times[n // 2], 2), "p95": round(times[int(0.95 * n)], 2), "n": n}


def main():
    root = Path(__file__).resolve().parent.parent  # (Pyodide runs timings() only: no __file__)
    sys.path.insert(0, str(root))
    from bookbuild.runtime import vendor
    from bookbuild.runtime.bytecode import node
    from benchmarks.gpt import result_of

    done = subprocess.run([sys.executable, __file__], capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root), "CHAR_GPT_TIMINGS": "1"})
    print("CPython:", json.dumps(result_of(done, "CPython")))
    runtime = vendor.runtime_cache()
    if node() is None or not (runtime / "pyodide.mjs").exists():
        print("Pyodide: skipped (no Node.js or no runtime: run `python3 build.py` once)")
        return
    done = subprocess.run([node(), str(root / "bookbuild" / "runtime" / "bytecode.mjs"), str(runtime),
                           str(root), __file__], capture_output=True, text=True)
    print("Pyodide:", json.dumps(result_of(done, "Pyodide")))


if __name__ == "__main__":
    if INNER:
        print("RESULT " + json.dumps(timings()))
    else:
        main()
