"""One runtime for the whole book: later chapters reuse it, the book works offline after the
first visit, and a page whose runtime cannot load stays readable with its static numbers."""
import json
import threading

import pytest

from bookbuild.dev.serve import SiteHandler, make_server
from tests.browser.harness import assert_shows, params_of, pycore_view

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


def test_second_chapter_downloads_no_runtime_and_offline_works(browser, recording_server):
    context = browser.new_context()
    page = context.new_page()
    page.goto(recording_server + "01-dot-product.html")
    settle(page)
    assert any(h.startswith(RUNTIME[0]) for h in RecordingHandler.hits), "runtime never fetched?"
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    RecordingHandler.hits.clear()

    page.goto(recording_server + "02-softmax.html")
    settle(page)
    assert page.locator("[data-widget][data-state=live]").count() >= 1
    fetched = [h for h in RecordingHandler.hits if h.startswith(RUNTIME)]
    assert fetched == [], f"the second chapter downloaded the runtime again: {fetched}"

    context.set_offline(True)
    page.goto(recording_server + "04-attention.html")
    settle(page)
    root = page.locator('[data-widget="attention"]').first
    assert root.get_attribute("data-state") == "live"
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert_shows(root, pycore_view("attention", query="累"))
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
    context = browser.new_context()
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
    context = browser.new_context()
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
