#!/usr/bin/env python3
"""A measurement for a design the book does not use yet: the runtime in a SharedWorker that
outlives navigation (`extendedLifetime: true`, Chromium 148+), so the next page finds Python
booted instead of booting its own.

Today every page boots Pyodide + NumPy + pycore on its main thread, and widgets call
`runtime.compute` synchronously (assets/runtime.js). This probe writes a throwaway worker and
two blank pages into a freshly built site: the worker boots this site's runtime files and
pycore and answers {name, params} with pycore's view over a MessagePort. It then prints, per
run:
  - first page: navigation -> first view computed in the worker (includes the worker's boot);
  - next page by a full navigation: navigation -> first view (the worker kept alive between);
  - the round trip of one more compute (attention, 50 times): messaging costs a widget this.
Compare with `boot.py --second` (the book as it is).

    python3 benchmarks/shared_worker_probe.py [--runs 3]
"""
import argparse
import json
import statistics
import time

from common import built_site, launch, load_note, serving

WORKER_JS = """import {{ loadPyodide }} from "../pyodide/pyodide.mjs";
const born = performance.now();
const callJson = (async () => {{
  const py = await loadPyodide({{ indexURL: new URL("../pyodide/", self.location).href,
                                  packages: ["numpy"] }});
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  const zip = await (await fetch(new URL("../assets/{pycore}", self.location))).arrayBuffer();
  py.unpackArchive(zip, "zip", {{ extractDir: sitePackages }});
  return py.pyimport("pycore.widgets").call_json;
}})();
let served = 0;
onconnect = (event) => {{
  const port = event.ports[0];
  port.onmessage = async ({{ data }}) => {{
    const view = (await callJson)(data.name, JSON.stringify(data.params));
    port.postMessage({{ id: data.id, view, age: performance.now() - born, served: ++served }});
  }};
}};
"""
PAGE_JS = """const worker = new SharedWorker(new URL("worker.js", import.meta.url),
  { type: "module", name: "tbook-probe", extendedLifetime: true });
const waiting = new Map();
let next = 0;
worker.port.onmessage = ({ data }) => { waiting.get(data.id)(data); waiting.delete(data.id); };
worker.port.start();
const compute = (name, params) => new Promise((resolve) => {
  const id = next++;
  waiting.set(id, resolve);
  worker.port.postMessage({ id, name, params });
});
const first = await compute("attention", {});
document.body.dataset.first = JSON.stringify({ at: performance.now(), age: first.age,
                                               served: first.served });
const trips = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await compute("attention", { scale: 1 + (i % 5) / 10 });
  trips.push(performance.now() - t);
}
document.body.dataset.trips = JSON.stringify(trips);
"""
PAGE_HTML = ('<!doctype html><meta charset="utf-8"><title>probe</title>'
             '<script type="module" src="page.js"></script><body>')


def visit(page, url):
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("body[data-trips]", state="attached", timeout=120_000)
    first = json.loads(page.get_attribute("body", "data-first"))
    trips = json.loads(page.get_attribute("body", "data-trips"))
    return time.perf_counter() - start, first, trips


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"# SharedWorker probe; {load_note()}")
    with built_site() as site, serving(site) as base, sync_playwright() as p:
        pycore = next(f.name for f in (site / "assets").glob("pycore-*.zip"))
        probe = site / "probe"
        probe.mkdir()
        (probe / "worker.js").write_text(WORKER_JS.format(pycore=pycore), encoding="utf-8")
        (probe / "page.js").write_text(PAGE_JS, encoding="utf-8")
        for name in ("a.html", "b.html"):
            (probe / name).write_text(PAGE_HTML, encoding="utf-8")
        browser = launch(p)
        firsts, nexts, trips = [], [], []
        for _ in range(args.runs):
            context = browser.new_context()  # empty HTTP cache, no worker yet
            page = context.new_page()
            _, first, t1 = visit(page, base + "probe/a.html")
            _, second, t2 = visit(page, base + "probe/b.html")
            same = second["served"] > first["served"]  # the same worker answered both pages
            print(f"first page: first view at {first['at'] / 1000:.2f} s (worker booted "
                  f"{first['age'] / 1000:.2f} s after it started); next page: first view at "
                  f"{second['at'] / 1000:.3f} s, {'same' if same else 'a NEW'} worker")
            firsts.append(first["at"] / 1000)
            nexts.append(second["at"] / 1000)
            trips += t1 + t2
            context.close()
        browser.close()
    trips.sort()
    print(f"first page, median {statistics.median(firsts):.2f} s; next page by a full "
          f"navigation, median {statistics.median(nexts):.3f} s "
          f"(ratio {statistics.median(nexts) / statistics.median(firsts):.2f})")
    print(f"compute round trip (attention view), n={len(trips)}: median "
          f"{statistics.median(trips):.2f} ms, p95 {trips[int(0.95 * len(trips)) - 1]:.2f} ms")


if __name__ == "__main__":
    main()
