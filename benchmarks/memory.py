#!/usr/bin/env python3
"""Memory: a chapter's page once every widget is live, and the peak RSS of a build.

For each chapter with widgets (or --chapter), opened in its own tab once every widget is live:
  JS heap     V8's used / total heap (CDP Runtime.getHeapUsage; the same figure as
              performance.memory.usedJSHeapSize with --enable-precise-memory-info);
  buffers     ArrayBuffer backing stores held by the page (Runtime.getHeapUsage
              backingStorageSize), which may or may not include the wasm memory below;
  wasm        the byte length of every WebAssembly.Memory the page instantiated (Pyodide's
              linear memory: the Python heap, NumPy arrays, the unpacked standard library) --
              exact, not estimated: a script injected before the page's own (CDP, so outside
              the page's CSP) keeps a reference to each WebAssembly.Memory constructed and to
              each memory exported by an instance (calls pass through unchanged); plus the
              memory of the runtime's worker, where Pyodide runs (it reports its own size).
              Every page of one browser shares that worker, and a page counts all of it;
  page        JS heap used + wasm: the figure held against the 300 MB goal (the worker's
              own JS heap, Pyodide's JavaScript glue, is not in it: CDP does not report it);
  renderer    RSS and PSS of the tab's renderer process (from /proc; includes Chromium's own
              code and caches), for scale.
Build: peak RSS (ru_maxrss from os.wait4, taken by a small launcher process; see LAUNCHER) of `python build.py` and, for
scale, of `mkdocs build` on the same chapters (if mkdocs is installed), a few runs each.

    python3 benchmarks/memory.py [--chapter 04-attention.html] [--builds 3]
"""
import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (ROOT, ask_runtime, built_site, chapters_with_widgets, launch, load_note,  # noqa: E402
                    serving, wait_all_live)

MB = 1024 * 1024


# Linux keeps, in a process's peak RSS, the image it was forked from: a child forked straight
# from this process (tens of MB, Playwright loaded) would report at least this process's size.
# So a small fresh Python forks the build and reports the build's own peak (ru_maxrss, KB).
LAUNCHER = """import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def peak_rss(cmd):
    """(peak RSS in MB of that process alone, wall seconds)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *map(str, cmd)],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed with exit code {done.returncode}")
    peak_kb = int(done.stdout.strip().splitlines()[-1])
    return peak_kb / 1024, time.perf_counter() - start


def build_memory(runs):
    with tempfile.TemporaryDirectory(prefix="tbook-mem-") as tmp:
        tmp = Path(tmp)
        cmds = {"python build.py": [sys.executable, str(ROOT / "build.py"), "--out", str(tmp / "site")]}
        try:
            import mkdocs  # noqa: F401
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from build_speed import mkdocs_project
            yml = mkdocs_project(tmp)
            cmds["mkdocs build"] = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(yml),
                                    "-d", str(tmp / "site-mkdocs")]
        except ImportError:
            print("  (mkdocs not installed: no comparison; pip install mkdocs)")
        peaks = {name: [] for name in cmds}
        for _ in range(runs):
            for name, cmd in cmds.items():
                peaks[name].append(peak_rss(cmd)[0])
        for name, values in peaks.items():
            print(f"  {name:<16} peak RSS median {statistics.median(values):6.1f} MB "
                  f"(min {min(values):.1f}, max {max(values):.1f}, n={len(values)})")


def renderer_memory(browser_cdp):
    """[(pid, rss MB, pss MB)] of every renderer process of the browser."""
    out = []
    for proc in browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]:
        if proc["type"] != "renderer":
            continue
        pid = proc["id"]
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            rss = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))
            pss = None
            rollup = Path(f"/proc/{pid}/smaps_rollup")
            if rollup.exists():
                pss = int(next(line.split()[1] for line in rollup.read_text().splitlines()
                               if line.startswith("Pss:")))
            out.append((pid, rss / 1024, None if pss is None else pss / 1024))
        except (OSError, StopIteration):
            continue
    return out


# Injected before any script of the page: remember every WebAssembly.Memory instantiated.
WATCH_WASM = """(() => {
  const seen = new Set();
  Object.defineProperty(window, "__benchWasmMemories", { value: seen });
  const Memory = WebAssembly.Memory;
  WebAssembly.Memory = new Proxy(Memory, {
    construct(target, args, newTarget) {
      const memory = Reflect.construct(target, args, newTarget);
      seen.add(memory);
      return memory;
    },
  });
  for (const name of ["instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      return original.apply(this, args).then((result) => {
        for (const v of Object.values((result.instance || result).exports)) {
          if (v instanceof Memory) seen.add(v);
        }
        return result;
      });
    };
  }
})();"""


def wasm_memories(page):
    """Byte lengths of every WebAssembly.Memory the page instantiated."""
    return page.evaluate("() => [...window.__benchWasmMemories].map((m) => m.buffer.byteLength)")


def page_memory(context, browser_cdp, url):
    page = context.new_page()
    page.goto(url)
    wait_all_live(page)
    time.sleep(1.0)
    cdp = context.new_cdp_session(page)
    cdp.send("HeapProfiler.collectGarbage")
    heap = cdp.send("Runtime.getHeapUsage")
    wasm = wasm_memories(page) + [ask_runtime(page, "memory")["wasmBytes"]]  # + the worker's
    cdp.send("Performance.enable")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    precise = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize : null")
    renderers = renderer_memory(browser_cdp)
    page.close()
    return {"heap_used": heap["usedSize"], "heap_total": heap["totalSize"],
            "backing": heap.get("backingStorageSize"), "embedder": heap.get("embedderHeapUsedSize"),
            "wasm": wasm, "nodes": metrics.get("Nodes"), "perf_heap": metrics.get("JSHeapUsedSize"),
            "precise": precise, "renderers": renderers}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--chapter", help="only this page (default: every chapter with widgets)")
    ap.add_argument("--builds", type=int, default=3, help="build runs for the peak RSS")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"# memory benchmark; {load_note()}", flush=True)
    print("build peak RSS (new process per run; runtime already downloaded):")
    build_memory(args.builds)
    rows = []
    with built_site() as site, serving(site) as base, sync_playwright() as p:
        browser = launch(p, ["--enable-precise-memory-info"])
        browser_cdp = browser.new_browser_cdp_session()
        context = browser.new_context()
        context.add_init_script(WATCH_WASM)
        counts = {name: len(names) for name, names in chapters_with_widgets(site)}
        pages = list(counts)
        if args.chapter:
            pages = [args.chapter]
        print("\npages, every widget live, after a forced garbage collection (MB = 2^20 bytes):")
        print(f"{'page':<30} {'widgets':>7} {'JS heap used/total':>19} {'buffers':>8} "
              f"{'wasm':>7} {'page':>7} {'DOM nodes':>9} {'renderer RSS/PSS':>17}")
        for name in pages:
            m = page_memory(context, browser_cdp, base + name)
            n = counts.get(name, 0)
            wasm = sum(m["wasm"])
            total = m["heap_used"] + wasm
            rss = max(m["renderers"], key=lambda r: r[1]) if m["renderers"] else None
            backing = "-" if m["backing"] is None else f"{m['backing'] / MB:.1f}"
            rend = "-" if rss is None else f"{rss[1]:.0f}/{rss[2]:.0f}" if rss[2] else f"{rss[1]:.0f}"
            print(f"{name:<30} {n:>7} {m['heap_used'] / MB:>9.1f}/{m['heap_total'] / MB:<9.1f} "
                  f"{backing:>8} {wasm / MB:>7.1f} {total / MB:>7.1f} {m['nodes'] or 0:>9.0f} {rend:>17}"
                  + (f"   (wasm memories: {' + '.join(f'{w / MB:.2f}' for w in m['wasm'])} MB)"
                     if len(m["wasm"]) != 1 else ""))
            rows.append((name, total, rss[1] if rss else None))
        browser.close()
    heaviest = max(rows, key=lambda r: r[1])
    print(f"\nheaviest page: {heaviest[0]}: JS heap + wasm = {heaviest[1] / MB:.1f} MB   goal < 300 MB -> "
          f"{'meets' if heaviest[1] < 300 * MB else 'MISSES'}"
          + (f"; its renderer process RSS {heaviest[2]:.0f} MB" if heaviest[2] else ""))


if __name__ == "__main__":
    main()
