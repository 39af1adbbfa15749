#!/usr/bin/env python3
"""Boot time: navigation -> every widget live on a chapter, vs a bare page that only boots
Pyodide + NumPy (and imports NumPy) from the same site. Measured alternately in one run.

    python3 benchmarks/boot.py [--chapter 04-attention.html] [--runs 5]
"""
import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bookbuild.pipeline import build  # noqa: E402
from bookbuild.serve import make_server  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, find_chromium  # noqa: E402

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="bare.js"></script><body data-state="loading">"""
BARE_JS = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href, packages: ["numpy"] });
py.runPython("import numpy");
document.body.dataset.state = "live";
"""


def time_page(browser, url, done_selector):
    context = browser.new_context()  # fresh cache each time: a first visit
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(done_selector, state="attached", timeout=120_000)
    elapsed = time.perf_counter() - start
    context.close()
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chapter", default="04-attention.html")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(Path(__file__).resolve().parent.parent / "book", site, log=lambda *a: None)
        (site / "bare.html").write_text(BARE_HTML, encoding="utf-8")
        (site / "bare.js").write_text(BARE_JS, encoding="utf-8")
        server = make_server(site)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        all_live = ("body:not(:has([data-widget][data-state=static])):not(:has([data-widget]"
                    "[data-state=loading])):has([data-widget][data-state=live])")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(),
                                        args=CHROMIUM_FLAGS + ["--no-sandbox"])
            chapter, bare = [], []
            for _ in range(args.runs):  # alternate, so machine noise hits both alike
                bare.append(time_page(browser, base + "bare.html", "body[data-state=live]"))
                chapter.append(time_page(browser, base + args.chapter, all_live))
            browser.close()
        server.shutdown()
    mc, mb = statistics.median(chapter), statistics.median(bare)
    print(f"runs: {args.runs} (alternating, fresh browser context each, cold HTTP cache)")
    print(f"bare Pyodide + NumPy boot      median {mb:6.2f} s   all: {' '.join(f'{t:.2f}' for t in bare)}")
    print(f"{args.chapter:<30} median {mc:6.2f} s   all: {' '.join(f'{t:.2f}' for t in chapter)}")
    print(f"ratio chapter / bare: {mc / mb:.2f}")


if __name__ == "__main__":
    main()
