#!/usr/bin/env python3
"""The trained model in the page (chapter 13b), timed in Chromium through the page's own
runtime (the worker that computes the widgets' views, Pyodide + NumPy without BLAS):

  forward   a new sentence in the trained-model widget: one forward pass of the book's model
            with every intermediate (pycore.gpt.run.trace, 12 words), the parts of the view it
            changes, JSON both ways and the worker round trip; each sentence is new to the
            worker (no cache). For reference: a change that needs no forward pass (the word
            pointed at). benchmarks/gpt.py times run.trace alone on 16 words (Pyodide in Node).
  live      the train-live widget's runs from step 0 in chunks of 25 steps (the size at which
            the page evaluates on 200 held-out sentences), as the page asks for them: steps
            per second (evaluations and views included) and the wall time until the held-out
            accuracy first reaches 95 %, for each seed asked.

    python3 benchmarks/model_page.py [--n 60] [--seeds 0,1] [--max-steps 1000]

Figures, not assertions. The machine is shared: the load average is printed beside them.
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (built_site, launch, load_note, percentile, serving,  # noqa: E402
                    wait_all_live)

from pycore.gpt import corpus  # noqa: E402
from pycore.widgets import trained_model  # noqa: E402

PAGE = "13b-trained-model.html"

TIME_VIEW = """async ({ name, params, held }) => {
    const meta = document.querySelector('meta[name="tbook-root"]');
    const root = new URL(meta.content, document.baseURI);
    const { bootRuntime } = await import(new URL("assets/runtime.js", root).href);
    const runtime = await bootRuntime();
    const t0 = performance.now();
    const view = await runtime.compute(name, params, [], held);
    return { ms: performance.now() - t0, view };
}"""


def sentences(n):
    """n distinct parameter sets of trained-model, each a sentence the worker has not seen."""
    out = []
    for frame in trained_model.FRAMES:
        for animal in corpus.ANIMATE:
            for obstacle in corpus.OBSTACLES:
                for adjective in ("饿", "困", "滑", "长"):
                    out.append(dict(frame=frame, animal=animal, obstacle=obstacle,
                                    adjective=adjective))
    return out[1:n + 1]  # the first is close to the page's own sentence


def defaults(name):
    from pycore.widgets import module
    return {k: spec["default"] for k, spec in module(name).PARAMS.items()}


def time_view(page, name, params, held=None):
    """The time of one view, asked as a page holding the parts `held` ({part: key}) asks."""
    r = page.evaluate(TIME_VIEW, {"name": name, "params": params, "held": held or {}})
    return r["ms"], r["view"]


def forward(page, n):
    """Views asked as the page asks them (live, holding the parts of the view before)."""
    base = {**defaults("trained-model"), "live": True}
    _, view = time_view(page, "trained-model", base)
    held = view["$parts"]
    new_sentence, pointed = [], []
    for i, sentence in enumerate(sentences(n)):
        params = {**base, **sentence}
        ms, view = time_view(page, "trained-model", params, held)
        new_sentence.append(ms)
        held = {**held, **view["$parts"]}
        moved = {**params, "position": i % 11}  # the same sentence, another word
        ms, view = time_view(page, "trained-model", moved, held)
        pointed.append(ms)
        held = {**held, **view["$parts"]}
    return new_sentence, pointed


def live(page, seed, max_steps, chunk=25):
    params = {**defaults("train-live"), "seed": seed, "steps": 0}
    total, steps, reached = 0.0, 0, None
    ms, view = time_view(page, "train-live", params)  # the run at step 0 (its first evaluation)
    total += ms
    held = view["$parts"]  # the grids: the page holds them after its first view
    while steps < max_steps:
        steps += chunk
        ms, view = time_view(page, "train-live", {**params, "steps": steps}, held)
        total += ms
        if reached is None and view["accuracy"] >= 0.95:
            reached = (steps, total / 1000, view["accuracy"])
            break
    return steps / (total / 1000), reached, steps


def show(label, values):
    print(f"  {label:<44} median {statistics.median(values):7.2f} ms, "
          f"p95 {percentile(values, 95):7.2f} ms (n={len(values)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60, help="sentences timed")
    parser.add_argument("--seeds", default="0,1", help="live runs timed, by seed")
    parser.add_argument("--max-steps", type=int, default=1000)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    print(f"# model page benchmark; {load_note()}")
    with built_site() as site, serving(site) as base, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(base + PAGE)
        wait_all_live(page)
        print("forward pass in the page (trained-model, Pyodide in the page's worker):")
        new_sentence, pointed = forward(page, args.n)
        show("a new 12-word sentence (forward + view)", new_sentence)
        show("another word of it (no forward pass)", pointed)
        print("live training in the page (train-live, chunks of 25 steps):")
        for seed in (int(s) for s in args.seeds.split(",")):
            rate, reached, steps = live(page, seed, args.max_steps)
            if reached:
                at, seconds, accuracy = reached
                print(f"  seed {seed}: {rate:5.1f} steps/s; held-out accuracy "
                      f"{100 * accuracy:.1f} % at step {at}, {seconds:.1f} s after step 0")
            else:
                print(f"  seed {seed}: {rate:5.1f} steps/s; below 95 % after {steps} steps")
        browser.close()
    print(f"# {load_note()}")


if __name__ == "__main__":
    main()
