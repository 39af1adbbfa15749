"""Lighthouse (mobile and desktop) on the landing page and two chapters, with Debian's Chromium.

    python3 benchmarks/lighthouse.py [--runs 3] [--pages index.html,04-attention.html,11-vit.html]
                                     [--forms mobile,desktop] [--keep DIR]

Prints, per page and form factor, the median of the runs: the performance score, Cumulative
Layout Shift, Largest Contentful Paint, Total Blocking Time and First Contentful Paint, and
the accessibility score, and the machine's load (it is shared: compare runs at similar load).
--keep DIR keeps every Lighthouse JSON report (render-blocking resources, main-thread work,
network requests). Lighthouse 12 (npm `lighthouse@12.2.3`, which runs on this machine's Node.js
20; benchmarks/package.json) is installed on first use into benchmarks/node_modules. The book is
built and served as a static host such as GitHub Pages or Netlify serves it: HTML, CSS, JS, JSON
and SVG gzip-compressed (bookbuild/dev/serve.py's GzipSiteHandler; no brotli, which some hosts add).
Lighthouse simulates a slow 4G network and a 4x slower CPU for mobile: the 4x is of this
machine's CPU, so the scores depend on it; CPU is Lighthouse's benchmarkIndex of the machine
during the runs (higher is faster; Chrome DevTools' CPU calibration rates a mid-range phone,
a Pixel 5, about 1000), to compare runs made on different machines. Not a test: it asserts
nothing.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from common import ROOT, build_site, find_chromium, load_note, serving
from bookbuild.dev.serve import GzipSiteHandler

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking " \
        "--disable-component-update --disable-sync --no-first-run --disable-quic"


def install():
    """Lighthouse as benchmarks/package-lock.json pins it (npm ci), on first use."""
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)


def audit(url, form_factor, out):
    args = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
            f"--chrome-flags={FLAGS}", "--only-categories=performance,accessibility"]
    if form_factor == "desktop":
        args.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": find_chromium()}
    subprocess.run(args, check=True, env=env, capture_output=True)
    report = json.loads(Path(out).read_text(encoding="utf-8"))
    a = report["audits"]
    return {"performance": report["categories"]["performance"]["score"] * 100,
            "accessibility": report["categories"]["accessibility"]["score"] * 100,
            "cls": a["cumulative-layout-shift"]["numericValue"],
            "lcp": a["largest-contentful-paint"]["numericValue"] / 1000,
            "tbt": a["total-blocking-time"]["numericValue"],
            "fcp": a["first-contentful-paint"]["numericValue"] / 1000,
            "cpu": report["environment"]["benchmarkIndex"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pages", default="index.html,04-attention.html,11-vit.html")
    ap.add_argument("--forms", default="mobile,desktop")
    ap.add_argument("--keep", metavar="DIR", help="keep every Lighthouse JSON report in DIR")
    args = ap.parse_args()
    if not shutil.which("npm"):
        raise SystemExit("npm is needed to install Lighthouse")
    install()
    print(load_note())
    with tempfile.TemporaryDirectory(prefix="tbook-lh-") as tmp:
        site = build_site(tmp)
        keep = args.keep or tmp
        Path(keep).mkdir(parents=True, exist_ok=True)
        with serving(site, handler=GzipSiteHandler) as base:
            print(f"{'page':<22} {'form':<8} {'perf':>5} {'a11y':>5} {'CLS':>6} {'LCP s':>6} "
                  f"{'TBT ms':>7} {'FCP s':>6} {'CPU':>5}   "
                  f"(median of {args.runs}; range, 1-min load after)")
            for page in args.pages.split(","):
                for form in args.forms.split(","):
                    runs = [audit(base + page, form, Path(keep) / f"{page}-{form}-{i}.json")
                            for i in range(args.runs)]
                    m = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                    print(f"{page:<22} {form:<8} {m['performance']:5.0f} {m['accessibility']:5.0f} "
                          f"{m['cls']:6.3f} {m['lcp']:6.2f} {m['tbt']:7.0f} {m['fcp']:6.2f} "
                          f"{m['cpu']:5.0f}   "
                          f"perf {min(r['performance'] for r in runs):.0f}-"
                          f"{max(r['performance'] for r in runs):.0f}, load {os.getloadavg()[0]:.1f}",
                          flush=True)


if __name__ == "__main__":
    main()
