#!/usr/bin/env python3
"""What a view costs in CPython when a reader sweeps a control: ms per view and bytes sent.

For every widget (or those of --only), each slider-like parameter (a number with a step, an
integer's being 1, at most MAX_STEPS steps) is swept over its whole range and back, with every
setting of the widget's switches (bool parameters), and each choice parameter is cycled
through its choices; the keys of the parts the page holds are passed as a live page would (those
of the views before, pycore/view_parts.py; `live` where a view takes it), so the views are
the ones the page gets. Each sweep runs once to fill the caches, then --rounds times timed. The
time is call_json's (validation, the parts, json.dumps), the bytes its JSON's. A sweep through a value the view
refuses with the other parameters at their defaults (a patch the grid lacks) is reported so.

In Pyodide the same call takes 2-6 times as long (benchmarks/interaction.py's `python` column):
this script is for comparing two versions of a view, alternated in one run, not for the goal.

    python3 benchmarks/view_sweeps.py [--only attention,positional-encoding] [--rounds 5]
"""
import argparse
import itertools
import json
import pkgutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import pycore.widgets as widgets  # noqa: E402
from pycore.widgets import call_json, module  # noqa: E402
from pycore.view_parts import PARTS  # noqa: E402

MAX_STEPS = 200
SKIP = {"code-lab", "train-live"}  # a run of the reader's code, a training run: not views


def sweeps(name):
    """{label: [params, ...]}: each control's sweep there and back, over every switch setting."""
    specs = module(name).PARAMS
    base = {k: s["default"] for k, s in specs.items()}
    switches = [k for k, s in specs.items() if s["type"] == "bool"]
    settings = [dict(zip(switches, on)) for on in
                itertools.product([False, True], repeat=len(switches))]
    out = {}
    for k, s in specs.items():
        step = s.get("step", 1 if s["type"] == "int" else None)
        if s["type"] in ("float", "int") and step and (s["max"] - s["min"]) / step <= MAX_STEPS:
            n = round((s["max"] - s["min"]) / step)
            kind = int if s["type"] == "int" else float
            values = [kind(round(s["min"] + i * step, 6)) for i in range(n + 1)]
        elif s["type"] == "choice":
            values = list(s["choices"])
        else:
            continue
        out[f"{k} ({len(values)})"] = [{**base, **on, k: v} for on in settings
                                       for v in values + values[::-1]]
    return out


def timed(name, sweep, rounds):
    """(ms per view, median bytes) over `rounds` timed sweeps, `shown` the view before's."""
    inputs = getattr(module(name), "INPUTS", ())
    live = {"live": True} if "live" in inputs else {}  # a view that asks for the lean parts

    def run():
        sizes, seconds, shown, held = [], 0.0, {}, {}
        for params in sweep:
            sent = json.dumps({**params, **live,
                               **({"shown": shown} if "shown" in inputs else {})})
            start = time.perf_counter()
            reply = call_json(name, sent, None, "[]", json.dumps(held))
            seconds += time.perf_counter() - start
            sizes.append(len(reply))
            held.update(json.loads(reply)[PARTS])  # the page's side: not timed
            shown = params
        return sizes, seconds

    sizes = run()[0]
    seconds = sum(run()[1] for _ in range(rounds))
    return seconds * 1000 / rounds / len(sweep), statistics.median(sizes)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated widget names")
    ap.add_argument("--rounds", type=int, default=5, help="timed sweeps of each control")
    args = ap.parse_args()
    names = [m.name.replace("_", "-") for m in pkgutil.iter_modules(widgets.__path__)]
    names = [n for n in names if n not in SKIP and (not args.only or n in args.only.split(","))]
    print(f"{'widget':22} {'control (values)':24} {'views':>6} {'ms/view':>8} {'bytes':>7}")
    for name in names:
        for label, sweep in sweeps(name).items():
            try:
                ms, size = timed(name, sweep, args.rounds)
            except ValueError as err:
                print(f"{name:22} {label:24} refused: {err}")
                continue
            print(f"{name:22} {label:24} {len(sweep):6d} {ms:8.3f} {size:7.0f}")


if __name__ == "__main__":
    main()
