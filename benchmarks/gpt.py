#!/usr/bin/env python3
"""The trained Transformer (pycore.gpt): training time, file size, forward pass, live training.

    python3 benchmarks/gpt.py [--no-train] [--no-pyodide]

Prints:
  training      wall time of `python3 -m pycore.gpt train` (the book's model, written to a
                temporary folder), and whether it reproduced the committed weights;
                --no-train reports the time recorded in pycore/gpt_weights.json instead;
  file          size of pycore/gpt_weights.npz (and of its record);
  forward       run.trace (the whole pass with every intermediate, what the page's widget
                asks for) and run.next_token on a 16-word sentence: median and p95 in ms;
  live          live training (pycore.gpt.live.LIVE): steps per second without reports, the
                cost of one report (held-out accuracy + attention maps), and the wall time
                from init to held-out accuracy >= 95 % in chunks of 25 steps, for seeds 0, 1;
each in CPython and in Pyodide 0.27.7 (NumPy 2.0.2 without BLAS) run by Node.js, the same
WebAssembly engine as Chromium's, with the runtime the first build put in the cache
(bookbuild/runtime/vendor.py); --no-pyodide skips that. Figures, not assertions.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bookbuild.runtime import vendor  # noqa: E402
from bookbuild.runtime.bytecode import node  # noqa: E402
from benchmarks.common import load_note  # noqa: E402

TIMINGS = ROOT / "benchmarks" / "gpt_timings.py"
WEIGHTS = ROOT / "pycore" / "gpt_weights.npz"
RECORD = ROOT / "pycore" / "gpt_weights.json"


def result_of(done, where):
    lines = [l for l in done.stdout.splitlines() if l.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{where} failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1][len("RESULT "):])


def cpython():
    done = subprocess.run([sys.executable, str(TIMINGS)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return result_of(done, "the CPython timings")


def pyodide():
    runtime = vendor.runtime_cache()
    if node() is None:
        return "skipped: Node.js not found"
    if not (runtime / "pyodide.mjs").exists():
        return f"skipped: no Pyodide runtime in {runtime} (run `python3 build.py` once)"
    mjs = ROOT / "bookbuild" / "runtime" / "bytecode.mjs"
    done = subprocess.run([node(), str(mjs), str(runtime),
                           str(ROOT), str(TIMINGS)], capture_output=True, text=True)
    return result_of(done, "the Pyodide timings")


def train():
    with tempfile.TemporaryDirectory(prefix="tbook-gpt-") as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pycore.gpt", "train", "--out", out], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        with np.load(Path(out) / WEIGHTS.name) as new, np.load(WEIGHTS) as old:
            diff = max(float(np.abs(new[k] - old[k]).max()) for k in old.files)
    return seconds, diff


def show(name, r):
    print(f"{name}:")
    if isinstance(r, str):
        print(f"  {r}")
        return
    for key in ("forward_trace_ms", "forward_next_token_ms", "live_report_ms"):
        s = r[key]
        print(f"  {key[:-3]:<22} median {s['median']:.2f} ms, p95 {s['p95']:.2f} ms (n={s['n']})")
    print(f"  live training          {r['live_steps_per_s']:.1f} steps/s (no reports)")
    for t in r["live_to_95"]:
        print(f"  live seed {t['seed']} to >= 95 %  {t['steps']} steps, {t['seconds']:.1f} s "
              f"(accuracy {100 * t['accuracy']:.1f} %)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-train", action="store_true", help="skip the training run")
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    args = parser.parse_args()
    print(load_note())
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    if args.no_train:
        print(f"training: {record['train_seconds']:.1f} s (recorded in {RECORD.name})")
    else:
        seconds, diff = train()
        print(f"training: {seconds:.1f} s for `python3 -m pycore.gpt train` (steps "
              f"{record['settings']['steps']}, batch {record['settings']['batch']}, including "
              f"the final evaluation); max |new - committed weight| = {diff:.1e}")
    print(f"file: {WEIGHTS.name} {WEIGHTS.stat().st_size:,} bytes, {RECORD.name} "
          f"{RECORD.stat().st_size:,} bytes; {record['parameters']:,} parameters")
    show("CPython", cpython())
    if not args.no_pyodide:
        show("Pyodide 0.27.7 under Node.js " + subprocess.run(
            [node() or "node", "--version"], capture_output=True, text=True).stdout.strip()
            if node() else "Pyodide", pyodide())
    print(load_note())


if __name__ == "__main__":
    main()
