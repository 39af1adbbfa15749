"""Shared browser fixtures: one build, one HTTP server, one Chromium for the whole session,
and one page per chapter, all in one browser context (Pyodide boots once, in the runtime's
SharedWorker that serves every chapter; tests reset the widgets they move)."""
import functools
import os
import shutil
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bookbuild.pipeline import build
from bookbuild.dev.serve import SiteHandler, make_server

from . import settle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM_FLAGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"]


def find_chromium(shell=False):
    """Debian's Chromium on PATH, else None: Playwright's own build, if installed. shell: its
    headless shell first (Debian's chromium-headless-shell, the kind of build Playwright runs
    headless tests in): the same Blink and V8 without the whole browser around them. The
    tests use it; the benchmarks time the browser a reader runs."""
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    for name in (("chromium-headless-shell",) if shell else ()) + names:
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="session", autouse=True)
def settling():
    """Every test action waits for the page to show its result (settle.py)."""
    settle.install()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site"
    build(os.path.join(ROOT, "book"), out, log=lambda *a: None)
    return out


@pytest.fixture(scope="session")
def server(site):
    srv = make_server(site)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


class NoWebAssemblyHandler(SiteHandler):
    """A host that fails to send the runtime's WebAssembly (503 for every .wasm)."""

    def do_GET(self):
        if self.path.split("?")[0].endswith(".wasm"):
            self.send_error(503, "WebAssembly unavailable (test)")
            return
        super().do_GET()


@pytest.fixture(scope="session")
def server_without_wasm(site):
    """The same book from a host where the runtime's WebAssembly cannot be fetched. (Playwright's
    routing does not see the requests of the runtime's worker, so the host refuses them.)"""
    srv = make_server(site, handler=NoWebAssemblyHandler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    exe = find_chromium(shell=True)
    # One renderer process for the pages of the book a context opens, not one per page (the
    # benchmarks keep Chromium's default: they time the reader's browser). What it saves is
    # where a test opens a new page that boots a Python of its own (an exercise's, the code
    # lab's): alternated on five files, the exercises' among them, 94-110 CPU-s against 126-131;
    # on files whose tests share their pages, nothing. What it costs: pages held open together
    # share one heap, so a test that holds many (axe over twenty-two pages) gets slower:
    # test_accessibility.py checks one page at a time.
    args = CHROMIUM_FLAGS + ["--process-per-site"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=args)
        except Exception as e:
            pytest.fail(f"cannot start Chromium ({e}); install it: apt-get install -y "
                        "chromium-headless-shell fonts-noto-cjk", pytrace=False)
        # Every context the tests open prefers reduced motion unless it asks otherwise: the
        # figures' 160 ms easing (figures.css) would paint ~10 frames of every changed mark after
        # each input, frames no test reads (attributes change at once; a box measured mid-easing
        # is not the picture's). Measured on five widget test files, alternated: 66-67 against
        # 73-79 CPU-s. test_motion.py and test_play.py ask for the easing where they check it.
        # Nor does a context run the book's service worker unless it asks for it
        # (service_workers="allow": the offline, deploy, embed and search tests that check what
        # it keeps): once the runtime has booted it installs and copies the runtime, some 31 MB,
        # into the context's Cache Storage, about 1 CPU-s a context that no other test reads
        # (four contexts opening 04, alternated: 23.2-24.3 CPU-s with it, 19.8-20.0 without).
        b.new_context = functools.partial(b.new_context, reduced_motion="reduce",
                                          service_workers="block")
        b.new_page = functools.partial(b.new_page, reduced_motion="reduce",
                                       service_workers="block")
        yield b
        b.close()


WORKER_REQUESTS = """async () => {
    if (!document.querySelector('[data-widget]')) return [];  // no widgets, no worker
    const root = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
    const { bootRuntime } = await import(new URL('assets/runtime.js', root).href);
    return (await bootRuntime()).requests();
}"""


class BookPage:
    """A chapter open in the browser (a new page of `context`, a browser context, or of a new
    context when given the browser), with every request it (or its runtime worker) made and
    every console error."""

    def __init__(self, context, server, href):
        self.server = server
        self.page = context.new_page()
        self.page_requests, self.errors = [], []
        self.page.on("request", lambda r: self.page_requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.failed = []  # requests without an answer, for the message below
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.goto(server + href)
        if self.page.locator("[data-widget]").count():
            # until no widget is still static or loading (each ends live or error)
            try:
                self.page.wait_for_selector("[data-widget][data-state=static], "
                                            "[data-widget][data-state=loading]",
                                            state="detached", timeout=60_000)
            except PlaywrightTimeout:
                states = self.page.eval_on_selector_all(
                    "[data-widget]", "els => els.map(e => e.dataset.widget + ':' + e.dataset.state)")
                pytest.fail(f"{href}: widgets not live after 60 s ({states}); console errors "
                            f"{self.errors}; failed requests {self.failed}", pytrace=False)

    @property
    def requests(self):
        """Every URL the page fetched, then every URL its runtime worker fetched (Resource
        Timing in the worker: Playwright does not see a worker's requests). The worker serves
        every page of its context: its URLs are those of every page opened there so far."""
        return self.page_requests + self.page.evaluate(WORKER_REQUESTS)

    def widget(self, name, index=0):
        """The index-th widget of that name, live and reset to its block's parameters."""
        root = self.page.locator(f'[data-widget="{name}"]').nth(index)
        assert root.get_attribute("data-state") == "live", root.locator(".widget-status").inner_text()
        root.locator("[data-action=reset]").click()
        return root

    def off_origin_requests(self):
        origin = urlsplit(self.server).netloc
        return [u for u in self.requests if urlsplit(u).scheme not in ("data", "blob")
                and urlsplit(u).netloc != origin]


@pytest.fixture(scope="session")
def book_pages(browser, server, site):
    """book_pages(widget_name) -> the BookPage of the first chapter holding that widget. The
    chapters open in one context, as a reader's tabs: one runtime serves them all."""
    opened, context = {}, browser.new_context()

    def open_page(href):
        if href not in opened:
            opened[href] = BookPage(context, server, href)
        return opened[href]

    def for_widget(name):
        for path in sorted(p for p in site.glob("*.html") if not p.name.startswith("embed-")
                             and p.name != "print.html"):
            if f'data-widget="{name}"' in path.read_text(encoding="utf-8"):
                return open_page(path.name)
        pytest.fail(f"no page of the book holds a {name} widget")

    for_widget.open = open_page
    yield for_widget
    context.close()


@pytest.fixture(scope="session")
def reader_context(browser, server):
    """A browser context apart from book_pages', for tests that change what a reader keeps in
    the browser's storage (an edited running example, saved code): the change stays out of the
    pages the other tests share, and reader_pages empties the storage before each test. Its
    first page, a chapter whose widgets do not follow the example, stays open to the session's
    end, so the runtime's SharedWorker boots once and serves every later page of every module
    (a page alone takes the worker with it when it closes)."""
    context = browser.new_context()
    BookPage(context, server, "02-softmax.html")
    yield context
    context.close()


def empty_storage(reader_context):
    """Empty the reader context's storage (through its first page, which stays open): nothing a
    test edited (the running example, a widget's state) reaches the next one."""
    reader_context.pages[0].evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")


@pytest.fixture
def reader_pages(reader_context):
    """The session's reader context, its storage emptied before the test (empty_storage) and
    the test's pages closed after it (a page left open would follow the next test's edits)."""
    keeper = reader_context.pages[0]
    empty_storage(reader_context)
    yield reader_context
    for page in reader_context.pages:
        if page is not keeper:
            page.close()


TESTS = Path(__file__).resolve().parent.parent
AXE = TESTS / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source():
    """axe-core's source (npm, tests/package.json), installed on first use."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if not npm:
            pytest.fail("axe-core is missing and npm is not installed: apt-get install npm", pytrace=False)
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=TESTS, check=True)
    return AXE.read_text(encoding="utf-8")
