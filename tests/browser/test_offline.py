"""One runtime for the whole book: later chapters reuse it, a chapter the reader opened works
offline (widgets included) and only what it needs is kept, the whole book is kept only at the
reader's request, Save-Data means nothing fetched in the background, and a page whose runtime
cannot load stays readable with its static numbers."""
import json
import re
import threading

import pytest

from bookbuild.dev.serve import SiteHandler, make_server
from playwright.sync_api import expect

from tests.browser.harness import assert_shows, params_of, pycore_view, run_axe

RUNTIME = ("/pyodide/", "/assets/pycore-")
ALL_SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"


class RecordingHandler(SiteHandler):
    hits = []

    def do_GET(self):
        self.hits.append(self.path)
        super().do_GET()


@pytest.fixture(scope="module")
def recording_server(site):
    srv = make_server(site, handler=RecordingHandler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


def settle(page):
    page.wait_for_selector(ALL_SETTLED, state="detached", timeout=60_000)


CACHED = """async () => {
    // every entry of the book's caches: its address and its size in bytes
    const entries = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const body = await (await cache.match(request)).arrayBuffer();
            entries.push([request.url, body.byteLength]);
        }
    }
    return entries;
}"""
READY = "navigator.serviceWorker.ready.then(() => true)"
OFFLINE_TITLE = "离线时没有这一节"


def paths(entries, server):
    return {url.removeprefix(server).split("?")[0] for url, _ in entries}


def chapters(site):
    return sorted(p.name for p in site.glob("[0-9]*.html"))


def test_a_first_visit_keeps_the_runtime_and_that_chapter_only(browser, recording_server, site):
    RecordingHandler.hits.clear()
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(recording_server + "04-attention.html")
    settle(page)
    page.evaluate(READY)  # installed: its precache is done
    entries = page.evaluate(CACHED)
    kept = paths(entries, recording_server)
    print(f"\nprecached after a first visit of 04-attention.html: {sum(n for _, n in entries)} bytes"
          f" in {len(entries)} files")
    assert {"pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "offline.html",
            "04-attention.html"} <= kept
    assert any(re.fullmatch(r"pyodide/numpy-.*\.whl", p) for p in kept)
    assert any(re.fullmatch(r"assets/pycore-[0-9a-f]+\.zip", p) for p in kept)
    assert [c for c in chapters(site) if c in kept] == ["04-attention.html"]
    assert not [p for p in kept if p.startswith("embed-") or p.startswith("search/")]
    fetched = {h.split("?")[0].lstrip("/") for h in RecordingHandler.hits}
    assert not [p for p in fetched if p.startswith("embed-")]
    assert [c for c in chapters(site) if c in fetched] == ["04-attention.html"]

    context.set_offline(True)
    page.reload()
    settle(page)
    root = page.locator('[data-widget="attention"]').first
    assert root.get_attribute("data-state") == "live"
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert_shows(root, pycore_view("attention", query="累"))
    page.goto(recording_server + "05-multi-head.html")  # never opened: not kept
    assert page.locator("h1").inner_text() == OFFLINE_TITLE
    context.close()


def test_second_chapter_downloads_no_runtime_and_is_kept_as_visited(browser, recording_server):
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(recording_server + "01-dot-product.html")
    settle(page)
    assert any(h.startswith(RUNTIME[0]) for h in RecordingHandler.hits), "runtime never fetched?"
    page.evaluate(READY)
    RecordingHandler.hits.clear()

    page.goto(recording_server + "02-softmax.html")
    settle(page)
    assert page.locator("[data-widget][data-state=live]").count() >= 1
    fetched = [h for h in RecordingHandler.hits if h.startswith(RUNTIME)]
    assert fetched == [], f"the second chapter downloaded the runtime again: {fetched}"

    context.set_offline(True)
    page.reload()
    settle(page)
    assert page.locator("h1").inner_text() != OFFLINE_TITLE
    assert page.locator('[data-widget="softmax"]').first.get_attribute("data-state") == "live"
    context.close()


def whole_book_bytes(site):
    """Every file the whole book keeps, counted from the site itself: all but the embed pages,
    the service worker and what is downloaded on purpose (print page, PDF, EPUB, notebooks,
    the pycore wheel; the runtime's own wheel is kept)."""
    on_demand = re.compile(r"^print\.html$|\.(pdf|epub|ipynb)$|^downloads/.*\.whl$|^embed-|^sw\.js$")
    return sum(p.stat().st_size for p in site.rglob("*")
               if p.is_file() and not on_demand.search(p.relative_to(site).as_posix()))


def test_the_whole_book_is_kept_on_request_and_freed(browser, recording_server, site, axe_source):
    RecordingHandler.hits.clear()
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(recording_server + "index.html")
    settle(page)
    page.evaluate(READY)
    button = page.get_by_role("button", name=re.compile("离线阅读整本书"))
    expect(button).to_be_visible()
    size = round(whole_book_bytes(site) / 1e6)
    print(f"\nthe button: {button.inner_text()} ({whole_book_bytes(site)} bytes)")
    assert button.inner_text() == f"离线阅读整本书（约 {size} MB）"
    status = page.locator(".keep-book [aria-live=polite]")
    button.click()
    expect(status).to_have_text(re.compile("整本书已保存"), timeout=120_000)
    assert not [h for h in RecordingHandler.hits if h.lstrip("/").startswith("embed-")]
    flagged = [v for v in run_axe(page, axe_source) if any("keep-book" in n for n in v["nodes"])]
    assert flagged == []

    context.set_offline(True)
    # every chapter in a second tab, the landing page staying open in the first: its runtime
    # worker serves the chapters, as a reader's tabs share it (a tab alone would take the worker
    # with it at each navigation and boot the runtime again for the next chapter; a boot from
    # the offline cache is test_a_runtime_worker_started_offline_boots_from_the_service_worker's)
    reader = context.new_page()
    for chapter in chapters(site):
        reader.goto(recording_server + chapter)
        assert reader.locator("h1").first.inner_text() != OFFLINE_TITLE, chapter
    reader.goto(recording_server + "05-multi-head.html")
    settle(reader)
    root = reader.locator('[data-widget]').first
    assert root.get_attribute("data-state") == "live"
    reader.close()

    context.set_offline(False)
    page.goto(recording_server + "index.html")
    page.evaluate(READY)
    free = page.get_by_role("button", name=re.compile("删除离线保存的整本书"))
    free.click()
    expect(status).to_have_text(re.compile("已删除"))
    kept = paths(page.evaluate(CACHED), recording_server)
    assert "05-multi-head.html" not in kept and "index.html" in kept  # the open page stays
    assert "pyodide/pyodide.asm.wasm" in kept
    assert not [p for p in kept if p.startswith("embed-")]
    context.close()


SAVE_DATA = "Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})});"


def test_save_data_fetches_nothing_in_the_background(browser, recording_server):
    """Save-Data on, as a browser with it on shows it: navigator.connection.saveData (an init
    script), which the page passes to the worker, and the Save-Data header on every request
    (extra_http_headers; the worker does not need it). The service worker still keeps the
    pages the reader opens, but fetches nothing of its own: no offline page, no runtime copy,
    no other chapter."""
    RecordingHandler.hits.clear()
    context = browser.new_context(service_workers="allow", extra_http_headers={"Save-Data": "on"})
    context.add_init_script(SAVE_DATA)
    page = context.new_page()
    page.goto(recording_server + "04-attention.html")
    settle(page)
    page.evaluate(READY)
    assert page.evaluate(CACHED) == []
    fetched = {h.split("?")[0].lstrip("/") for h in RecordingHandler.hits}
    assert "offline.html" not in fetched and "05-multi-head.html" not in fetched
    page.goto(recording_server + "02-softmax.html")  # opened: kept as visited
    settle(page)
    assert paths(page.evaluate(CACHED), recording_server) >= {"02-softmax.html"}
    context.close()


def test_blocked_webassembly_leaves_the_static_page_readable(browser, server_without_wasm):
    server = server_without_wasm
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(server + "04-attention.html")
    settle(page)
    roots = page.locator("[data-widget]")
    assert roots.count() >= 1
    for i in range(roots.count()):
        assert roots.nth(i).get_attribute("data-state") == "error"
    notice = page.locator(".runtime-notice")
    assert notice.is_visible() and "构建时" in notice.inner_text()
    assert page.locator(".runtime-notice:visible").count() == 1
    root = page.locator('[data-widget="attention"]').first
    assert_shows(root, pycore_view("attention", **params_of(root)), min_count=90)
    assert root.locator("[data-control=query] [data-value]").first.is_disabled()
    context.close()


FRESH_WORKER = """async () => {
    // A second runtime worker (another name: a new instance, as after a browser restart).
    const url = new URL(document.querySelector('meta[name="tbook-worker"]').content, document.baseURI);
    const name = document.querySelector('meta[name="tbook-worker-name"]').content + " offline-test";
    const worker = new SharedWorker(url, { type: "module", name });
    return new Promise((resolve) => {
        worker.onerror = () => resolve({ error: "the worker's script did not load" });
        worker.port.onmessage = ({ data }) => resolve(data);
        worker.port.postMessage({ id: 1, op: "compute", name: "attention", params: { query: "累" } });
    });
}"""


def test_a_runtime_worker_started_offline_boots_from_the_service_worker(browser, server):
    """After a first visit, even a new runtime worker (the browser restarted, offline) gets its
    script, Pyodide, NumPy and pycore from the service worker's cache."""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(server + "01-dot-product.html")
    settle(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # precache done
    context.set_offline(True)
    reply = page.evaluate(FRESH_WORKER)
    assert reply.get("ok"), reply
    view = json.loads(reply["view"])
    view.pop("$parts")  # the keys of its parts (pycore/view_parts.py), which a page holds
    assert view == json.loads(json.dumps(pycore_view("attention", query="累")))
    context.close()


CACHED_COPIES = """async (path) => {
    // every entry of the book's caches whose address is that page's, whatever its query
    const entries = [];
    for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) {
            if (new URL(request.url).pathname === path) entries.push(request.url);
        }
    }
    return entries;
}"""


def test_a_page_is_cached_once_whatever_its_query(browser, server):
    """A link's query (widget state, ?example=) names no other file: the service worker keeps
    one copy of a page, not one per query, and offline it serves that copy for any query."""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(server + "index.html")  # the service worker registers once the runtime booted
    page.evaluate("""() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller
        || new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r)))""")
    page.evaluate("""() => Promise.all([1, 2, 3, 4, 5].map((i) =>
        fetch(`14-recap.html?softmax-02-softmax={"temperature":${i}}`).then((r) => r.text())))""")
    assert page.evaluate(CACHED_COPIES, "/14-recap.html") == [server + "14-recap.html"]
    context.set_offline(True)
    offline = page.evaluate("""() => fetch('14-recap.html?example={"x":[]}')
        .then((r) => r.text()).then((t) => t.includes('<title>14. '), () => 'failed')""")
    assert offline is True
    context.close()


@pytest.mark.parametrize("save_data", [False, True])
def test_what_a_visited_page_fetched_is_kept_even_when_saving_data(
        browser, recording_server, save_data):
    """Once the service worker runs, it also serves the runtime's worker (clients.claim), so a
    widget's data files, fetched there, are kept as their page is opened; with Save-Data on
    (navigator.connection overridden by an init script) that is all it keeps: the runtime,
    fetched before the worker ran, is not fetched again in the background."""
    context = browser.new_context(service_workers="allow")
    if save_data:
        context.add_init_script(SAVE_DATA)
    page = context.new_page()
    page.goto(recording_server + "01-dot-product.html")
    settle(page)
    page.evaluate(READY)
    page.goto(recording_server + "11-vit.html")
    settle(page)
    kept = paths(page.evaluate(CACHED), recording_server)
    assert {"11-vit.html", "assets/pycore-data/photo224.rgb"} <= kept
    assert ("pyodide/pyodide.asm.wasm" in kept) is not save_data
    assert ("offline.html" in kept) is not save_data
    context.close()
