"""Time the poem model (pycore.gpt.poem_run) on 64 characters, in CPython and in Pyodide.

    python3 benchmarks/char_gpt.py                  this checkout
    python3 benchmarks/char_gpt.py --baseline REV   this checkout against commit REV, alternated

Runs itself twice: in this CPython (a child process) and inside Pyodide under Node.js
(bookbuild/runtime/bytecode.mjs; needs `python3 build.py` once for the runtime). Each prints
RESULT {json}: median and p95 (ms) of one forward pass over 64 characters (model.forward + the
last position's logits), of poem_run.next_char, which the widget calls (reading the text,
the pass the next character needs, the sampling stages), and of a 续写 (24 characters drawn
after a text whose keys and values are kept, as the widget's continuation does). With --baseline, REV's pycore is
imported beside this one (as the package pycore_baseline) and every round times each version
once, so a shared machine's load falls on both alike; the run also checks that both give the
same numbers. Wall-clock figures move with the machine's load; no test asserts them.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INNER = sys.platform == "emscripten" or os.environ.get("CHAR_GPT_TIMINGS") == "1"
if sys.platform == "emscripten":  # inside Pyodide: the timed packages are mounted at /work
    sys.path.insert(0, "/work")
ROUNDS = 40


def versions():
    """{name: (model, poem_run, params, cfg)}: this pycore and, when copied beside it,
    REV's."""
    import importlib

    out = {}
    for package in ("pycore", "pycore_baseline"):
        try:
            model = importlib.import_module(f"{package}.gpt.model")
        except ModuleNotFoundError:
            continue
        poem_run = importlib.import_module(f"{package}.gpt.poem_run")
        params, cfg, _ = poem_run.poem_model()
        out["after" if package == "pycore" else "before"] = (model, poem_run, params, cfg)
    return out


def timings():
    import numpy as np

    tasks, results = {}, {}
    for name, (model, poem_run, params, cfg) in sorted(versions().items()):
        text = ("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n" * 3)[:cfg["n_positions"]]
        ids = np.array([poem_run.read(text)["ids"]])
        assert ids.shape == (1, 64)

        def forward(model=model, params=params, cfg=cfg, ids=ids):
            h, _ = model.forward(params, cfg, ids)
            return model.logits(params, h[0, -1])

        tasks[f"forward_64_ms {name}"] = forward
        tasks[f"next_char_64_ms {name}"] = lambda p=poem_run, t=text: p.next_char(t)["probs"]
        # the widget's 续写: 24 characters after a 20-character text whose keys and values
        # are kept (pycore/widgets/char_gpt's `continued`), a new seed each call
        start_text = text[:20]
        kept = poem_run.extend(poem_run.read(start_text)["ids"], 0, None, params, cfg)
        seeds = iter(range(1, 10**6))
        tasks[f"continue_24_ms {name}"] = lambda p=poem_run, t=start_text, k=kept, s=seeds: \
            p.generate(t, 24, 1.0, None, 1.0, next(s), start=k)
        results[name] = {"forward": forward(), "next_char": tasks[f"next_char_64_ms {name}"]()}
    out = summary(tasks)
    if len(results) == 2:  # the two versions' numbers
        out["largest_difference"] = {k: float(np.abs(results["after"][k] -
                                                      results["before"][k]).max())
                                     for k in ("forward", "next_char")}
    return out


def summary(tasks, n=ROUNDS):
    """Median and p95 (ms) of n calls of each task, after one call that is not counted; each
    round calls every task once, so both versions see the same moments of the machine."""
    for f in tasks.values():
        f()
    times = {k: [] for k in tasks}
    for _ in range(n):
        for k, f in tasks.items():
            t = time.perf_counter()
            f()
            times[k].append(1000 * (time.perf_counter() - t))
    return {k: {"median": round(sorted(v)[n // 2], 2), "p95": round(sorted(v)[int(0.95 * n)], 2),
                "n": n} for k, v in times.items()}


def packages(root, baseline, folder):
    """This checkout's pycore in `folder`, and REV's as pycore_baseline when asked. pycore's
    modules import each other relatively, so a renamed copy runs as REV's code; both read the
    same data files (the baseline's resources name the package pycore)."""
    if baseline:
        tar = subprocess.run(["git", "-C", str(root), "archive", baseline, "pycore"],
                             capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=tar, check=True)
        (folder / "pycore").rename(folder / "pycore_baseline")
    shutil.copytree(root / "pycore", folder / "pycore",
                    ignore=shutil.ignore_patterns("__pycache__"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="a commit whose pycore is timed alongside")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent  # (Pyodide runs timings() only: no __file__)
    sys.path.insert(0, str(root))
    from bookbuild.runtime import vendor
    from bookbuild.runtime.bytecode import node
    from benchmarks.gpt import result_of

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        packages(root, args.baseline, folder)
        done = subprocess.run([sys.executable, __file__], capture_output=True, text=True,
                              cwd=folder, env={**os.environ, "PYTHONPATH": str(folder),
                                               "CHAR_GPT_TIMINGS": "1"})
        print("CPython:", json.dumps(result_of(done, "CPython")))
        runtime = vendor.runtime_cache()
        if node() is None or not (runtime / "pyodide.mjs").exists():
            print("Pyodide: skipped (no Node.js or no runtime: run `python3 build.py` once)")
            return
        done = subprocess.run([node(), str(root / "bookbuild" / "runtime" / "bytecode.mjs"),
                               str(runtime), str(folder), __file__], capture_output=True,
                              text=True)
        print("Pyodide:", json.dumps(result_of(done, "Pyodide")))


if __name__ == "__main__":
    if INNER:
        print("RESULT " + json.dumps(timings()))
    else:
        main()
