#!/usr/bin/env python3
"""Boot time: navigation -> every widget live on a chapter, vs a bare page that only boots
Pyodide + NumPy (and imports NumPy) from the same site with the official runtime files, as
they come. Measured alternately in one run, with a second bare page that boots from the
site's own runtime files (see BARE_HTML).

With --second, each chapter run goes on in the same browser context: once the first chapter
is live and the service worker has finished its precache (a reader who stays on a chapter a
little while), it navigates to a second chapter and times navigation -> all widgets live
there too (goal: <= 0.3 of the first).

    python3 benchmarks/boot.py [--chapter 04-attention.html] [--runs 5]
                               [--second [05-multi-head.html]] [--trace]

--trace adds one more visit of the chapter (fresh context) and prints its timeline: when each
runtime file was requested and had arrived (Resource Timing) and when each widget went live
(a MutationObserver injected before the page's scripts), from navigation start.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bookbuild.pipeline import build  # noqa: E402
from bookbuild.dev.serve import make_server  # noqa: E402
from bookbuild.runtime.vendor import RUNTIME_FILES, runtime_cache  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, find_chromium  # noqa: E402
from common import ask_runtime, wait_service_worker  # noqa: E402

# The bare pages: Pyodide + NumPy booted the plain way, NumPy imported, nothing else. The
# baseline ("bare-stock") serves the official files as they are (bookbuild/runtime/vendor.py's
# verified
# originals), as a site that drops Pyodide in would; "bare-site" serves this site's own runtime
# files (stored zips, boot modules as bytecode), to show what those files alone are worth.
BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="{name}.js"></script><body data-state="loading">"""
BARE_JS = """import {{ loadPyodide }} from "./{folder}/pyodide.mjs";
const py = await loadPyodide({{ indexURL: new URL("{folder}/", location.href).href, packages: ["numpy"] }});
py.runPython("import numpy");
document.body.dataset.state = "live";
"""


def add_bare_pages(site):
    stock = site / "stock-pyodide"
    stock.mkdir()
    for name in RUNTIME_FILES:
        shutil.copyfile(runtime_cache() / name, stock / name)
    for name, folder in (("bare-stock", "stock-pyodide"), ("bare-site", "pyodide")):
        (site / f"{name}.html").write_text(BARE_HTML.format(name=name), encoding="utf-8")
        (site / f"{name}.js").write_text(BARE_JS.format(folder=folder), encoding="utf-8")


def time_page(browser, url, done_selector):
    context = browser.new_context()  # fresh cache each time: a first visit
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(done_selector, state="attached", timeout=120_000)
    elapsed = time.perf_counter() - start
    context.close()
    return elapsed


def time_two_pages(browser, first_url, second_url, done_selector):
    """(first chapter boot, second chapter boot from cache, service worker active?)."""
    context = browser.new_context()
    page = context.new_page()
    start = time.perf_counter()
    page.goto(first_url)
    page.wait_for_selector(done_selector, state="attached", timeout=120_000)
    first = time.perf_counter() - start
    sw = wait_service_worker(page)
    start = time.perf_counter()
    page.goto(second_url)
    page.wait_for_selector(done_selector, state="attached", timeout=120_000)
    second = time.perf_counter() - start
    # a reader follows a link: the page keeps its runtime and swaps in the chapter (navigate.js)
    start = time.perf_counter()
    page.locator(f'.toc a[href$="{first_url.rsplit("/", 1)[1]}"]').click()
    page.wait_for_url(first_url, timeout=120_000)
    page.wait_for_selector(done_selector, state="attached", timeout=120_000)
    link = time.perf_counter() - start
    context.close()
    return first, second, sw, link


# Injected before the page's scripts: the time each widget changes data-state.
TRACE_JS = """(() => {
  const events = [];
  Object.defineProperty(window, "__bootTrace", { value: events });
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.attributeName === "data-state" && r.target.dataset.widget) {
        events.push([performance.now(), `${r.target.id} -> ${r.target.dataset.state}`]);
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
  addEventListener("DOMContentLoaded", () => events.push([performance.now(), "DOMContentLoaded"]));
})();"""


def trace(browser, url, done_selector):
    """Print the timeline of one visit: resources and widget states, ms from navigation."""
    context = browser.new_context()
    context.add_init_script(TRACE_JS)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(done_selector, state="attached", timeout=120_000)
    events = page.evaluate("() => window.__bootTrace")
    resources = page.evaluate("""() => performance.getEntriesByType("resource").map((r) =>
        [r.startTime, r.responseEnd, r.name.split("/").slice(-2).join("/"), r.transferSize])""")
    # runtime.js marks: the worker asked to boot; the runtime answered (detail: its own boot time)
    events += page.evaluate("""() => performance.getEntriesByType("mark")
        .filter((m) => m.name.startsWith("tbook:")).map((m) => [m.startTime, m.name])""")
    # the runtime's worker: what it fetched, and its marks (on the page's clock)
    worker = ask_runtime(page, "timeline")
    resources += [[s, e, "worker: " + n.split("/")[-1][:50], size] for s, e, n, size in worker
                  if n.startswith("http")]
    events += [[s, n] for s, e, n, size in worker if not n.startswith("http")]
    events.sort()
    context.close()
    print(f"\ntimeline of one visit of {url.rsplit('/', 1)[-1]} (ms from navigation start):")
    for start, end, name, size in sorted(resources):
        print(f"  {start:7.0f} -> {end:7.0f}  {name:<58} {size / 1e3:9.1f} KB")
    for t, what in events:
        print(f"  {t:7.0f}             {what}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chapter", default="04-attention.html")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--second", nargs="?", const="05-multi-head.html", default=None,
                    help="also time this second chapter after the first, from cache")
    ap.add_argument("--trace", action="store_true", help="print the timeline of one more visit")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(Path(__file__).resolve().parent.parent / "book", site, log=lambda *a: None)
        add_bare_pages(site)
        server = make_server(site)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        all_live = ("body:not(:has([data-widget][data-state=static])):not(:has([data-widget]"
                    "[data-state=loading])):has([data-widget][data-state=live])")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(),
                                        args=CHROMIUM_FLAGS + ["--no-sandbox"])
            chapter, bare, bare_site, second, links, no_sw = [], [], [], [], [], 0
            for _ in range(args.runs):  # alternate, so machine noise hits all alike
                bare.append(time_page(browser, base + "bare-stock.html", "body[data-state=live]"))
                bare_site.append(time_page(browser, base + "bare-site.html",
                                           "body[data-state=live]"))
                if args.second:
                    first, then, sw, link = time_two_pages(browser, base + args.chapter,
                                                           base + args.second, all_live)
                    chapter.append(first)
                    second.append(then)
                    links.append(link)
                    no_sw += not sw
                else:
                    chapter.append(time_page(browser, base + args.chapter, all_live))
            if args.trace:
                trace(browser, base + args.chapter, all_live)
            browser.close()
        server.shutdown()
    mc, mb = statistics.median(chapter), statistics.median(bare)
    print(f"runs: {args.runs} (alternating, fresh browser context each, cold HTTP cache)")
    print(f"bare, official runtime files   median {mb:6.2f} s   all: {' '.join(f'{t:.2f}' for t in bare)}")
    print(f"bare, this site's runtime files median {statistics.median(bare_site):5.2f} s   all: "
          f"{' '.join(f'{t:.2f}' for t in bare_site)}")
    print(f"{args.chapter:<30} median {mc:6.2f} s   all: {' '.join(f'{t:.2f}' for t in chapter)}")
    print(f"ratio chapter / bare with this site's files: {mc / statistics.median(bare_site):.2f}"
          "   (what the book adds on top of its own runtime)")
    print(f"ratio chapter / bare: {mc / mb:.2f}   goal <= 1.0 (stretch <= 0.5); "
          f"per run: {' '.join(f'{c / b:.2f}' for c, b in zip(chapter, bare))}")
    if args.second:
        ms = statistics.median(second)
        print(f"{args.second + ' (2nd, cached)':<30} median {ms:6.2f} s   all: "
              f"{' '.join(f'{t:.2f}' for t in second)}")
        print(f"ratio second / first chapter: {ms / mc:.2f}   goal <= 0.3; per run: "
              f"{' '.join(f'{s / c:.2f}' for s, c in zip(second, chapter))}"
              + f"\n{'back to ' + args.chapter + ' by a link':<30} median "
              f"{statistics.median(links):6.2f} s   all: {' '.join(f'{t:.2f}' for t in links)}"
              f"\nratio link / first chapter: {statistics.median(links) / mc:.2f}   (runtime kept)"
              + (f"   ({no_sw} runs without an active service worker)" if no_sw else ""))


if __name__ == "__main__":
    main()
