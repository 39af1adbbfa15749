"""Helpers shared by the benchmark scripts: build the book into a temporary folder, serve it,
start Chromium, wait until every widget of a page is live, and summarise timings.

The scripts print figures; they are not tests and assert nothing about speed.
"""
import contextlib
import math
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bookbuild.pipeline import build  # noqa: E402
from bookbuild.dev.serve import make_server  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, find_chromium  # noqa: E402

# A page is "all live" when no widget is still static or loading and at least one is live.
ALL_LIVE = ("body:not(:has([data-widget][data-state=static])):not(:has([data-widget]"
            "[data-state=loading])):has([data-widget][data-state=live])")


def build_site(dest):
    """Build book/ into dest/site (quietly) and return that folder."""
    site = Path(dest) / "site"
    build(ROOT / "book", site, log=lambda *a: None)
    return site


@contextlib.contextmanager
def built_site():
    """A freshly built copy of the book in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="tbook-bench-") as tmp:
        yield build_site(tmp)


@contextlib.contextmanager
def serving(site, handler=None):
    """Serve site on 127.0.0.1 (the preview server's handler unless one is given); yields the
    base URL, ending in '/'."""
    server = make_server(site) if handler is None else make_server(site, handler=handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def launch(playwright, extra_args=()):
    """Chromium with the browser tests' flags."""
    args = CHROMIUM_FLAGS + list(extra_args)
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return playwright.chromium.launch(executable_path=find_chromium(), args=args)


def wait_all_live(page, timeout=180_000):
    page.wait_for_selector(ALL_LIVE, state="attached", timeout=timeout)


def ask_runtime(page, method):
    """The result of a diagnostic method of the page's runtime (assets/runtime.js: `requests`,
    `memory`, `timeline`), answered by its worker."""
    return page.evaluate("""async (method) => {
        const root = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
        const { bootRuntime } = await import(new URL("assets/runtime.js", root).href);
        return (await bootRuntime())[method]();
    }""", method)


# Pages of a built site that are not chapters: print.html holds every widget, pre-rendered
# and never made live (waiting for its widgets to go live would wait forever).
NOT_CHAPTERS = {"index.html", "print.html", "bibliography.html"}


def chapter_pages(site, embeds=False):
    """The chapter pages of a built site (index, print and, unless asked, embed-*.html left
    out)."""
    return [p for p in sorted(Path(site).glob("*.html"))
            if p.name not in NOT_CHAPTERS and (embeds or not p.name.startswith("embed-"))]


def chapters_with_widgets(site, embeds=False):
    """[(page file name, [widget names in page order])] for every chapter holding a widget."""
    import re
    found = []
    for path in chapter_pages(site, embeds):
        names = re.findall(r'data-widget="([a-z0-9-]+)"', path.read_text(encoding="utf-8"))
        if names:
            found.append((path.name, names))
    return found


def percentile(values, q):
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def spread(values, unit="", digits=2):
    """'median X (min A, max B, n=N)' for a list of repeated measurements."""
    f = f"{{:.{digits}f}}"
    return (f"median {f.format(statistics.median(values))}{unit} "
            f"(min {f.format(min(values))}, max {f.format(max(values))}, n={len(values)})")


def load_note():
    """The machine's load right now, to print next to the figures (the machine is shared)."""
    try:
        one, five, _ = os.getloadavg()
        return f"load average {one:.1f} / {five:.1f} (1 / 5 min) on {os.cpu_count()} CPUs"
    except OSError:
        return "load average unknown"


def wait_service_worker(page, timeout_s=120):
    """Until the page's service worker is active (its install, the precache, is done)."""
    page.evaluate("""() => navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false""")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            return True
        time.sleep(0.2)
    return False
