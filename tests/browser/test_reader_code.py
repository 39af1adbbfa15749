"""The reader's code (the code lab) runs in a Python of its own, apart from the widgets': an
endless loop can be stopped and is stopped by the time limit, while every other widget of the
book keeps computing; nothing it does to pycore reaches a widget or the next run; a run that
ends Python itself is reported, and one whose Python never boots ends too; the worker that ran
the code goes when the run ends."""
import json
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser.harness import ASYNC, ASYNC_REFUSED, assert_shows, pycore_view

LAB = "15-code-lab.html"
WIDGET = "code-lab-15-code-lab"
SOURCE = (Path(__file__).resolve().parents[2] / "pycore" / "block.py").read_text(encoding="utf-8")
LIVE = "[data-widget][data-state=static], [data-widget][data-state=loading]"


def open_live(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(LIVE, state="detached", timeout=60_000)
    return page


@pytest.fixture
def context(reader_pages):
    """The session's reader context (conftest.py): the widgets' runtime (a SharedWorker) booted
    once; every run of the reader's code still gets a Python of its own. The pages a test
    opens there close after it."""
    return reader_pages


def lab_of(page):
    return page.locator('[data-widget="code-lab"]').first


def start_run(root, code):
    """Put code in the box and press 运行 without waiting for the run (it may never end)."""
    root.locator("textarea").fill(code)
    before = int(root.get_attribute("data-updates") or 0)
    root.evaluate("root => root.querySelector('[data-action=run]').click()")
    return before


def wait_for_view(root, before, timeout=60_000):
    root.page.wait_for_function(
        "([root, n]) => Number(root.dataset.updates || 0) > n && !root.hasAttribute('aria-busy')",
        arg=[root.element_handle(), before], timeout=timeout)


def run_to_end(root, code):
    wait_for_view(root, start_run(root, code))
    return root.locator(".lab-error").text_content(), root.locator(".lab-stdout").text_content()


def test_an_endless_loop_is_stopped_while_the_widgets_keep_computing(context, server):
    lab_page = open_live(context, server + LAB)
    lab = lab_of(lab_page)
    before = start_run(lab, "while True:\n    pass\n")
    lab_page.wait_for_selector("[data-action=stop]:visible")
    time.sleep(0.5)  # well into the loop
    assert lab.get_attribute("aria-busy") == "true"

    # every chapter's widgets keep computing, in the tabs that were open and in new ones
    other = open_live(context, server + "04-attention.html")
    root = other.locator('[data-widget="attention"]').first
    assert root.get_attribute("data-state") == "live"
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert_shows(root, pycore_view("attention", query="累"))
    assert lab.get_attribute("aria-busy") == "true", "the loop ended by itself?"

    lab.locator("[data-action=stop]").evaluate("b => b.click()")
    wait_for_view(lab, before)
    assert "已停止" in lab.locator(".lab-error").text_content()
    assert lab.locator("[data-action=stop]").is_hidden()
    assert lab.get_attribute("data-state") == "live"
    assert_shows(lab, pycore_view("code-lab", code="while True:\n    pass\n",
                                  interrupted="stopped"))
    # and the next run, in a new Python, works
    error, stdout = run_to_end(lab, SOURCE)
    assert error == "" and "(2, 32, 128)" in stdout


def test_the_time_limit_stops_a_run(context, server):
    state = quote(json.dumps({"time_limit": 2}))
    page = open_live(context, f"{server}{LAB}?{WIDGET}={state}")
    lab = lab_of(page)
    assert "最多 2 秒" in lab.locator(".lab-label").text_content()
    # the run is ended by the page's limit (its words name it), not by the test's patience
    error, _ = run_to_end(lab, "import time\nwhile True:\n    time.sleep(0.01)\n")
    assert "运行超过 2 秒，已自动停止" in error


def test_a_python_that_does_not_boot_in_time_is_replaced_then_given_up(context, server):
    """A reader's Python that has not booted within the page's bound is ended and a new one
    started; when that one is late too, the run ends with words that say so, and the next run
    boots afresh (reader.js). The bound is shortened here to 1 ms, which no boot meets."""
    page = open_live(context, server + LAB)
    lab = lab_of(page)
    page.evaluate("() => { window.tbookReaderBootMs = 1; }")
    # the code put in as a paste would, without the focus that boots a Python ahead (and that
    # the tests' actions then wait for: settle.py), so that the run's Python is still booting
    lab.locator("textarea").evaluate("""(box) => {
        box.value = 'print(6 * 7)\\n'; box.dispatchEvent(new Event('input', { bubbles: true })); }""")
    before = int(lab.get_attribute("data-updates") or 0)
    lab.evaluate("root => root.querySelector('[data-action=run]').click()")
    wait_for_view(lab, before)
    error, stdout = lab.locator(".lab-error").text_content(), lab.locator(".lab-stdout").text_content()
    assert "迟迟没有启动好" in error and stdout == "", (error, stdout)
    page.evaluate("() => { delete window.tbookReaderBootMs; }")
    error, stdout = run_to_end(lab, "print(6 * 7)\n")
    assert error == "" and stdout.strip() == "42"


def test_patching_pycore_in_the_lab_reaches_no_widget_and_no_later_run(context, server):
    page = open_live(context, server + LAB)
    lab = lab_of(page)
    patch = ("import pycore.softmax as s\n"
             "s.softmax = lambda z, temperature=1.0, axis=-1: z * 0 + 0.125\n"
             "s.PATCHED = True\nprint('patched')\n")
    error, stdout = run_to_end(lab, patch)
    assert error == "" and stdout.strip() == "patched"
    # a new tab's softmax widget computes with the real softmax (the rows sum to 1)
    softmax = open_live(context, server + "02-softmax.html")
    root = softmax.locator('[data-widget="softmax"]').first
    root.locator("[data-action=reset]").click()
    view = pycore_view("softmax")
    assert_shows(root, view)
    assert abs(sum(view["probs"]) - 1) < 1e-9
    # and the lab's next run starts in a Python that never saw the patch
    error, stdout = run_to_end(lab, "import pycore.softmax as s\nprint(hasattr(s, 'PATCHED'))\n")
    assert error == "" and stdout.strip() == "False"


def test_ending_python_itself_is_reported_as_such(context, server):
    page = open_live(context, server + LAB)
    lab = lab_of(page)
    error, _ = run_to_end(lab, "import os\nos._exit(1)\n")
    assert "os._exit(1)" in error and "结束了 Python 本身" in error
    error, stdout = run_to_end(lab, "print(6 * 7)\n")
    assert error == "" and stdout.strip() == "42"
    # asyncio.run is refused with Python's own words, as in every engine (harness.ASYNC)
    error, _ = run_to_end(lab, ASYNC)
    assert ASYNC_REFUSED in error, error


def test_the_worker_that_ran_the_code_goes_with_its_memory(context, server):
    page = open_live(context, server + LAB)
    lab = lab_of(page)
    workers, closed = [], []

    def watch(worker):
        workers.append(worker)
        worker.on("close", lambda *_: closed.append(worker))

    page.on("worker", watch)
    hog = "import numpy as np\nkeep = [np.ones(32 * 2**20 // 8) for _ in range(8)]\nprint(len(keep))\n"
    wait_for_view(lab, start_run(lab, hog))
    assert lab.locator(".lab-stdout").text_content().strip() == "8"
    readers = lambda: [w for w in workers if "runtime-worker.js" in w.url]  # noqa: E731
    assert readers(), "the run had no worker of its own"
    for _ in range(50):  # the next run's worker starts once the page shows how this one ended
        if len(readers()) == 2 and readers()[0] in closed:
            break
        page.wait_for_timeout(100)
    readers = readers()
    # the worker that ran the code is closed (its 256 MB go with it); a fresh one waits for
    # the next run
    assert readers[0] in closed and len(readers) == 2 and readers[1] not in closed
    # the widgets' runtime never held the arrays
    memory = page.evaluate("""async () => {
        const { bootRuntime } = await import(new URL('assets/runtime.js', document.baseURI).href);
        return (await (await bootRuntime()).memory()).wasmBytes;
    }""")
    assert memory < 200 * 2**20, f"the widgets' Python holds {memory / 2**20:.0f} MiB"
