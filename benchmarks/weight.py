#!/usr/bin/env python3
"""Page weight: bytes transferred for a first visit of one chapter (runtime included) and for a
second chapter opened after it in the same browser context.

Two views of the same visit:
  browser  what the page itself fetched: CDP Network.loadingFinished encodedDataLength per
           request (headers + body as received; requests answered from the memory/disk cache
           or the service worker count what they cost, i.e. nothing on the wire);
  server   every byte the server wrote (status line, headers, body), which also catches the
           service worker's precache (the runtime, the shared assets, the offline page and
           the open page) that starts after the first chapter is live (a separate worker,
           invisible to the page's network events). The rest of the book is fetched only at
           the reader's request, which this script never makes.
The preview server sends files uncompressed. For the files it sent with status 200, the script
also reports what gzip -9 and brotli (quality 11; `pip install brotli`, else skipped) would make
of them: what a static host serving precompressed files would transfer (plus headers).

    python3 benchmarks/weight.py [--first 04-attention.html] [--second 05-multi-head.html]
                                 [--in-memory]

In Playwright's in-memory context (--in-memory) the precache downloads pyodide.asm.wasm a
second time: the memory HTTP cache does not keep a response that large; a disk cache does.

Goals (issue 7): <= 6 MB compressed for the first visit, <= 150 KB for the second chapter.
"""
import argparse
import gzip
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (ask_runtime, built_site, launch, load_note, serving, wait_all_live,  # noqa: E402
                    wait_service_worker)
from bookbuild.dev.serve import SiteHandler  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, find_chromium  # noqa: E402

try:
    import brotli
except ImportError:
    brotli = None


class CountingWriter:
    """Wraps a handler's wfile and adds every byte written to its log entry."""

    def __init__(self, raw, entry):
        self.raw, self.entry = raw, entry

    def write(self, data):
        self.entry["bytes"] += len(data)
        return self.raw.write(data)

    def __getattr__(self, name):
        return getattr(self.raw, name)


class CountingHandler(SiteHandler):
    log_entries: list = []
    lock = threading.Lock()

    def setup(self):
        super().setup()
        self._raw = self.wfile

    def handle_one_request(self):
        entry = {"path": None, "status": None, "bytes": 0, "time": time.monotonic()}
        self.wfile = CountingWriter(self._raw, entry)
        super().handle_one_request()
        if entry["status"] is not None:  # a request was answered (not a closed connection)
            entry["path"] = unquote(urlsplit(self.path).path)
            with self.lock:
                self.log_entries.append(entry)

    def send_response(self, code, message=None):
        self.wfile.entry["status"] = code
        super().send_response(code, message)


class BrowserLog:
    """Per-request sizes of one page, from the Chrome DevTools Protocol."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)
        self.requests = {}
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def _response(self, e):
        r = e["response"]
        self.requests.setdefault(e["requestId"], {}).update(
            url=r["url"], status=r["status"], sw=r.get("fromServiceWorker", False),
            cache=r.get("fromDiskCache", False) or r.get("fromPrefetchCache", False))

    def _finished(self, e):
        self.requests.setdefault(e["requestId"], {})["encoded"] = e["encodedDataLength"]

    def total(self):
        return sum(r.get("encoded", 0) for r in self.requests.values())


def compressed_sizes(site, entries):
    """(uncompressed body bytes, gzip -9, brotli or None) over the 200 responses' files."""
    raw = gz = br = 0
    seen = set()
    for e in entries:
        if e["status"] != 200 or not e["path"]:
            continue
        path = site / e["path"].lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            continue
        data = path.read_bytes()
        key = (e["path"], len(data))
        seen.add(key)
        raw += len(data)
        gz += len(gzip.compress(data, compresslevel=9))
        if brotli is not None:
            br += len(brotli.compress(data, quality=11))
    return raw, gz, (br if brotli is not None else None)


def headers_bytes(site, entries):
    """Bytes of status lines and headers (what the server wrote beyond the bodies)."""
    total = sum(e["bytes"] for e in entries)
    body = 0
    for e in entries:
        path = site / (e["path"] or "/").lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if e["status"] == 200 and path.is_file():
            body += path.stat().st_size
    return total - body


def mb(n):
    return f"{n / 1e6:7.2f} MB"


def kb(n):
    return f"{n / 1e3:8.1f} KB"


def report(title, site, entries, browser_bytes, unit):
    raw, gz, br = compressed_sizes(site, entries)
    head = headers_bytes(site, entries)
    wire = sum(e["bytes"] for e in entries)
    n200 = sum(1 for e in entries if e["status"] == 200)
    others = {}
    for e in entries:
        if e["status"] != 200:
            others[e["status"]] = others.get(e["status"], 0) + 1
    print(f"{title}")
    print(f"  server wrote     {unit(wire)}  ({len(entries)} responses: {n200} x 200"
          + "".join(f", {n} x {s}" for s, n in sorted(others.items(), key=lambda kv: str(kv[0]))) + ")")
    print(f"  page's own (CDP) {unit(browser_bytes)}  (not counting its runtime worker's)")
    print(f"  bodies sent      {unit(raw)}   gzip -9 {unit(gz + head)}   "
          + (f"brotli 11 {unit(br + head)}" if br is not None else "brotli: not installed (pip install brotli)")
          + f"   (compressed figures include {head} bytes of headers)")
    return {"wire": wire, "browser": browser_bytes, "raw": raw, "gzip": gz + head,
            "brotli": None if br is None else br + head}


def largest(site, entries, k=8):
    sizes = {}
    for e in entries:
        if e["status"] == 200:
            sizes[e["path"]] = sizes.get(e["path"], 0) + e["bytes"]
    for path, n in sorted(sizes.items(), key=lambda kv: -kv[1])[:k]:
        data = (site / path.lstrip("/")).read_bytes() if (site / path.lstrip("/")).is_file() else b""
        extra = ""
        if data:
            extra = f"  gzip {len(gzip.compress(data, 9)) / 1e3:9.1f} KB"
            if brotli is not None:
                extra += f"  brotli {len(brotli.compress(data, quality=11)) / 1e3:9.1f} KB"
        print(f"    {path:<60} {n / 1e3:9.1f} KB{extra}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--first", default="04-attention.html")
    ap.add_argument("--second", default="05-multi-head.html")
    ap.add_argument("--in-memory", action="store_true",
                    help="Playwright's usual context (in-memory HTTP cache, like a private "
                         "window) instead of a browser profile on disk (the default, with a disk "
                         "HTTP cache as a reader's browser has)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"# weight benchmark; {load_note()}")
    with built_site() as site, serving(site, handler=CountingHandler) as base, sync_playwright() as p:
        profile = tempfile.TemporaryDirectory(prefix="tbook-weight-profile-")
        if not args.in_memory:  # empty disk HTTP cache, no service worker yet
            browser = None
            context = p.chromium.launch_persistent_context(
                profile.name, executable_path=find_chromium(),
                args=CHROMIUM_FLAGS + (["--no-sandbox"] if os.geteuid() == 0 else []))
        else:
            browser = launch(p)
            context = browser.new_context()  # empty in-memory HTTP cache, no service worker yet
        log = CountingHandler.log_entries
        page = context.new_page()
        first = BrowserLog(page)
        page.goto(base + args.first)
        wait_all_live(page)
        first_page = first.total()
        own = {urlsplit(r["url"]).path for r in first.requests.values() if "url" in r}
        # the runtime worker's script and what it fetched: CDP's page session does not see a
        # worker's requests, so the worker lists them (Resource Timing)
        own.add(urlsplit(page.evaluate(
            "new URL(document.querySelector('meta[name=tbook-worker]').content, document.baseURI).href")).path)
        own |= {urlsplit(url).path for url in ask_runtime(page, "requests")}
        sw = wait_service_worker(page)
        time.sleep(1.0)  # let the last precache responses finish
        first_all = list(log)
        # the page's own responses: the first server response for each path the page fetched
        page_entries, taken = [], set()
        for e in first_all:
            if e["path"] in own and e["path"] not in taken:
                taken.add(e["path"])
                page_entries.append(e)
        page.close()

        mark = len(log)
        page = context.new_page()
        second = BrowserLog(page)
        page.goto(base + args.second)
        wait_all_live(page)
        time.sleep(1.0)
        second_entries = log[mark:]
        second_page = second.total()
        from_sw = sum(1 for r in second.requests.values() if r.get("sw"))
        page.close()
        (browser or context).close()
        profile.cleanup()

        print(f"first visit: {args.first} in a fresh browser "
              + ("profile on disk" if not args.in_memory else "context (in-memory HTTP cache)"))
        a = report("  the page's own requests, until every widget is live:", site, page_entries,
                   first_page, mb)
        print("  largest files of the first visit:")
        largest(site, page_entries)
        if sw:
            b = report("  plus the service worker's precache of the whole book (total of the visit):",
                       site, first_all, first_page, mb)
            ids = {id(e) for e in page_entries}
            print("  largest files the precache fetched again or anew:")
            largest(site, [e for e in first_all if id(e) not in ids])
        else:
            b = None
            print("  (the service worker did not become active: no precache figure)")
        print(f"\nsecond chapter: {args.second}, same context ({from_sw} of the page's "
              f"{len(second.requests)} requests answered by the service worker)")
        c = report("  second chapter:", site, second_entries, second_page, kb)
        print("\nsummary vs goals:")
        best = "brotli" if a["brotli"] is not None else "gzip"
        print(f"  first visit, compressed ({best}), until live: {a[best] / 1e6:.2f} MB   goal <= 6 MB "
              f"-> {'meets' if a[best] <= 6e6 else 'MISSES'}")
        if b:
            print(f"  first visit incl. precache, compressed ({best}): {b[best] / 1e6:.2f} MB "
                  f"(the precache runs after the page is live, in the background)")
        print(f"  second chapter on the wire: {c['wire'] / 1e3:.1f} KB (uncompressed), "
              f"{c[best] / 1e3:.1f} KB ({best})   goal <= 150 KB -> "
              f"{'meets' if c[best] <= 150e3 else 'MISSES'}")


if __name__ == "__main__":
    main()
