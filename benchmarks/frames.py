#!/usr/bin/env python3
"""What a frame costs after an input: the rendering phases of the frames that follow real inputs.

A widget's answer is written when its message event runs on the page, and a frame the input
started (the slider's thumb, a pressed button, the figure easing into place) runs first: the
cost of that frame is part of what a reader waits for. This script moves the widgets of each
chosen page as `interaction.py` does (same inputs, each once the figure is still), records a
Chromium trace of it, and prints the median of every frame that painted: the whole frame on
the main thread and its phases (style, layout, pre-paint, compositing inputs, paint, commit).

With --css RULE the same page with RULE added is measured too, alternated with the page as
built (--rounds times each), and the last columns give variant / built: the way to judge a CSS
change by its effect on the frame rather than on the noisier end-to-end latency. E.g. what the
chapter's per-block stacking contexts (book.css) save:

    python3 benchmarks/frames.py --only attention --css ".chapter > * { isolation: auto }"
"""
import argparse
import bisect
import collections
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import built_site, chapters_with_widgets, launch, load_note, serving, wait_all_live  # noqa: E402
from interaction import measure_page, page_widgets, warm_up  # noqa: E402

# fewer than interaction.py --trace records (no v8, no toplevel): the phases are all this reads,
# and tracing less slows the frames it measures less
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "cc"]
PHASES = {"frame": "ProxyMain::BeginMainFrame", "style": "Blink.Style.UpdateTime",
          "layout": "Blink.Layout.UpdateTime", "prepaint": "Blink.PrePaint.UpdateTime",
          "comp-in": "Blink.CompositingInputs.UpdateTime", "paint": "Blink.Paint.UpdateTime",
          "commit": "Commit"}


def painted_frames(trace_path):
    """[{phase: ms}] for every frame of the page's main thread that painted."""
    data = json.loads(Path(trace_path).read_text(encoding="utf-8"))
    events = data["traceEvents"] if isinstance(data, dict) else data
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"
             and e["args"]["name"] == "CrRendererMain"}
    busiest = collections.Counter((e["pid"], e["tid"]) for e in events
                                  if (e.get("pid"), e.get("tid")) in mains).most_common(1)[0][0]
    slices = sorted((e for e in events if (e.get("pid"), e.get("tid")) == busiest
                     and e.get("ph") == "X" and "dur" in e), key=lambda e: e["ts"])
    starts = [e["ts"] for e in slices]
    frames = []
    for frame in (e for e in slices if e["name"] == PHASES["frame"]):
        end = frame["ts"] + frame["dur"]
        inside = collections.defaultdict(float)
        for e in slices[bisect.bisect_left(starts, frame["ts"]):bisect.bisect_right(starts, end)]:
            if e["ts"] + e["dur"] <= end:
                inside[e["name"]] += e["dur"] / 1000
        if inside.get(PHASES["paint"]):
            frames.append({phase: inside.get(name, 0.0) for phase, name in PHASES.items()})
    return frames


def measure(context, base, page_name, only, n, css, trace_path):
    page = context.new_page()
    page.goto(base + page_name)
    wait_all_live(page)
    if css:
        page.add_style_tag(content=css)
    widgets = page_widgets(page, only)
    context.browser.start_tracing(page=page, path=str(trace_path), categories=CATEGORIES)
    measure_page(page, widgets, n, cadence="still")
    context.browser.stop_tracing()
    page.close()
    return painted_frames(trace_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", default="attention", help="comma-separated widget names")
    ap.add_argument("--n", type=int, default=12, help="inputs per widget and round")
    ap.add_argument("--css", default="", help="a CSS rule to measure against the page as built")
    ap.add_argument("--rounds", type=int, default=2, help="alternated rounds of each variant")
    args = ap.parse_args()
    only = {w for w in args.only.split(",") if w}
    variants = {"built": ""} | ({"with --css": args.css} if args.css else {})
    from playwright.sync_api import sync_playwright

    print(f"# frames after an input; {load_note()}")
    if args.css:
        print(f"# --css {args.css}")
    with built_site() as site, serving(site) as base, sync_playwright() as p, \
            tempfile.TemporaryDirectory() as tmp:
        browser = launch(p)
        # the page's CSP allows no inline style: the variant's rule needs the CSP bypassed,
        # and both variants get the same context so they differ by the rule only
        context = browser.new_context(bypass_csp=True)
        pages = [(name, names) for name, names in chapters_with_widgets(site)
                 if not only or set(names) & only]
        first = context.new_page()
        first.goto(base + pages[0][0])
        wait_all_live(first)
        warm_up(first, {n for _, names in pages for n in names})
        first.close()
        header = f"{'page':<30} {'variant':<11} {'frames':>6} " + " ".join(
            f"{phase:>8}" for phase in PHASES)
        print("median ms per frame that painted\n" + header)
        for page_name, _ in pages:
            frames = {v: [] for v in variants}
            for _ in range(args.rounds):
                for variant, css in variants.items():
                    frames[variant] += measure(context, base, page_name, only, args.n, css,
                                               Path(tmp) / "trace.json")
            medians = {v: {phase: statistics.median(f[phase] for f in frames[v]) if frames[v]
                           else float("nan") for phase in PHASES} for v in variants}
            for variant in variants:
                print(f"{page_name:<30} {variant:<11} {len(frames[variant]):>6} " + " ".join(
                    f"{medians[variant][phase]:>8.2f}" for phase in PHASES))
            if args.css:
                ratio = {ph: medians["with --css"][ph] / medians["built"][ph]
                         if medians["built"][ph] else float("nan") for ph in PHASES}
                print(f"{page_name:<30} {'ratio':<11} {'':>6} " + " ".join(
                    f"{ratio[phase]:>8.2f}" for phase in PHASES))
        browser.close()


if __name__ == "__main__":
    main()
