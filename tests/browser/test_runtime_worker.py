"""The runtime lives in a worker (assets/runtime-worker.js): one SharedWorker per browser serves
every page of the book and outlives a full navigation, so the next page finds Python booted;
without SharedWorker a page gets a dedicated Worker of its own and works the same."""
import json

from pycore.widgets import call_json
from tests.browser.conftest import WORKER_REQUESTS
from tests.browser.harness import assert_shows, pycore_view, updates
from tests.browser.settle import settle

SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"
BOOT = """() => performance.getEntriesByName('tbook:runtime')[0]?.detail.bootSeconds ?? null"""


def open_live(page, url):
    page.goto(url)
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    assert page.locator("[data-widget][data-state=live]").count() >= 1


def test_a_full_navigation_finds_the_runtime_booted(browser, server):
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    open_live(page, server + "01-dot-product.html")
    booted = page.evaluate(BOOT)
    fetched = page.evaluate(WORKER_REQUESTS)
    assert any(u.endswith("/pyodide.asm.wasm") for u in fetched)

    open_live(page, server + "04-attention.html")  # page.goto: a new document
    assert page.evaluate(BOOT) == booted, "the next page booted a runtime of its own"
    assert page.evaluate(WORKER_REQUESTS) == fetched, "the runtime was fetched again"
    root = page.locator('[data-widget="attention"]').first
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert_shows(root, pycore_view("attention", query="累"))
    context.close()


def test_without_shared_worker_a_page_has_its_own_worker(browser, server):
    context = browser.new_context(service_workers="block")
    context.add_init_script("delete window.SharedWorker")
    page = context.new_page()
    open_live(page, server + "04-attention.html")
    assert page.evaluate("() => typeof SharedWorker") == "undefined"
    assert page.evaluate(BOOT) > 0
    root = page.locator('[data-widget="attention"]').first
    before = updates(root)
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert updates(root) == before + 1
    assert_shows(root, pycore_view("attention", query="累"))
    context.close()


def test_inputs_faster_than_the_runtime_end_on_the_last_one(book_pages):
    """A dragged slider sends input events faster than views come back: the widget merges those
    that arrive while one view is computed into its next request, and ends on the last value."""
    page = book_pages("softmax")
    root = page.widget("softmax")
    slider = root.locator("[data-control=temperature]")
    before = updates(root)
    last = slider.evaluate("""s => {  // 21 input events in one task, as fast as a drag can go
        const [lo, hi] = [Number(s.min), Number(s.max)];
        for (let i = 0; i <= 20; i++) {
            s.value = String(lo + (hi - lo) * i / 20);
            s.dispatchEvent(new Event('input', { bubbles: true }));
        }
        return Number(s.value);
    }""")
    settle(page.page)
    # the first value's view, then one view for the 20 inputs that came while it was computed
    assert updates(root) == before + 2
    assert_shows(root, pycore_view("softmax", temperature=10 ** last))


def test_a_views_round_trip_is_timed_on_the_pages_clock(book_pages):
    """runtime.onTiming (benchmarks/interaction.py): the worker's times, moved onto the page's
    clock, fall between the request's sending and the answer's arrival, in order; the view's
    size is the length of its JSON text."""
    page = book_pages("softmax")
    timing = page.page.evaluate("""async () => {
        const base = new URL(document.querySelector('meta[name="tbook-root"]').content,
                             document.baseURI);
        const { bootRuntime } = await import(new URL("assets/runtime.js", base).href);
        const runtime = await bootRuntime();
        const times = [];
        runtime.onTiming = (t) => times.push(t);
        await runtime.compute("softmax", { temperature: 2 });
        runtime.onTiming = null;
        return times[0];
    }""")
    assert timing["name"] == "softmax"
    steps = ["sent", "received", "start", "end", "posted", "arrived", "parsed"]
    at = [timing[s] for s in steps]
    # the two threads' clocks agree to Chromium's coarsened 0.1 ms, not better
    assert all(b >= a - 0.2 for a, b in zip(at, at[1:])), dict(zip(steps, at))
    assert at[-1] - at[0] < 5000
    # the JSON text Pyodide sent: CPython's for the same view, give or take a few last digits
    expected = len(call_json("softmax", json.dumps({"temperature": 2})))
    assert abs(timing["bytes"] - expected) <= 0.02 * expected, (timing["bytes"], expected)
