"""A runtime that fails to boot does not fail the book until the browser restarts: the failed
worker retires, the notice offers 重试, and once the host serves the files again a retry (or a
new tab) boots a new runtime."""
import re
import threading
import time
from pathlib import Path

import pytest

from bookbuild.dev.serve import SiteHandler, make_server

WORKER = Path(__file__).resolve().parents[2] / "assets" / "runtime-worker.js"
RETIRE_S = int(re.search(r"RETIRE_MS = (\d+)", WORKER.read_text(encoding="utf-8")).group(1)) / 1000
SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"


class FlakyHost(SiteHandler):
    """Answers 503 for the runtime's WebAssembly while `broken` is set (a host mid-deploy)."""
    broken = threading.Event()

    def do_GET(self):
        if self.broken.is_set() and self.path.split("?")[0].endswith(".wasm"):
            self.send_error(503, "WebAssembly unavailable (test)")
            return
        super().do_GET()


@pytest.fixture
def flaky(site):
    FlakyHost.broken.set()
    srv = make_server(site, handler=FlakyHost)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()
    FlakyHost.broken.clear()


def open_settled(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    return page


def states(page):
    return page.eval_on_selector_all("[data-widget]", "els => els.map(e => e.dataset.state)")


def test_a_failed_boot_retires_its_worker_and_retry_boots_a_new_one(browser, flaky):
    context = browser.new_context(service_workers="block")  # the host alone serves the files
    first = open_settled(context, flaky + "04-attention.html")
    assert set(states(first)) == {"error"}
    notice = first.locator(".runtime-notice")
    assert notice.is_visible() and "没能启动" in notice.text_content()
    retry = notice.locator("[data-action=retry-runtime]")
    assert retry.is_visible() and retry.text_content() == "重试"

    FlakyHost.broken.clear()  # the host is fixed
    # a new tab gets a new runtime (the failed one closed itself, a few seconds after failing:
    # runtime-worker.js RETIRE_MS), not the failed one's error
    time.sleep(RETIRE_S + 0.5)
    second = open_settled(context, flaky + "02-softmax.html")
    assert set(states(second)) == {"live"}
    # and the first page's 重试 boots it again, in place
    retry.click()
    first.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    assert set(states(first)) == {"live"}
    assert notice.is_hidden()
    assert first.evaluate("document.documentElement.dataset.runtime") is None
    context.close()


def test_coming_back_online_retries_by_itself(browser, flaky):
    context = browser.new_context(service_workers="block")
    page = open_settled(context, flaky + "01-dot-product.html")
    assert set(states(page)) == {"error"}
    FlakyHost.broken.clear()
    page.evaluate("dispatchEvent(new Event('online'))")  # what the browser fires on reconnecting
    page.wait_for_function("() => [...document.querySelectorAll('[data-widget]')]"
                           ".every(e => e.dataset.state === 'live')", timeout=60_000)
    context.close()
