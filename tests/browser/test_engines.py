"""The book in every reader's engine: Chromium (Playwright), Firefox (WebDriver BiDi) and WebKit
(WebKitGTK's MiniBrowser, the engine of Safari), through the same few verbs (engines.py).

A smoke suite, not the whole browser suite three times: each page is opened once in Firefox and
once in WebKit, and every check is made on it (Chromium runs the whole browser suite, every page
and every widget, the code lab, the exercises and the offline chapter included, so nothing here
runs in it a second time). Every widget goes live, shows pycore's numbers (computed here in
CPython for the parameters the page shows), and one input of the reader's own (a key on a
slider, a click on a choice, a drag) makes it show pycore's numbers for its new parameters; no
page scrolls sideways at a phone's 360 px. Then the code lab runs and 停止 ends a runaway loop,
an exercise is checked, and a chapter opened offline after one visit goes live.

An engine that is not installed FAILS with what to install. TBOOK_ENGINES (a comma-separated
list, e.g. TBOOK_ENGINES=chromium) leaves the others out on purpose.
"""
import os
import threading
from pathlib import Path

import pytest

from bookbuild.dev.serve import make_server
from pycore.exercises import check, describe
from pycore.widgets import compute
from tests.browser import engines
from tests.browser.harness import ASYNC, ASYNC_REFUSED, assert_shows

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("firefox", "webkit")  # Chromium: the rest of the browser suite
PAGES = ["index.html"] + [p.stem + ".html" for p in sorted((ROOT / "book").glob("*.md"))]
SETTLED = """() => !document.querySelector(
    ':is([data-widget], [data-exercise]):is([data-state=static], [data-state=loading])')"""
PHONE = 360
# a panel the reader has not opened keeps the numbers it last showed (test_trained_model.py)
HIDDEN = "[data-panel][data-hidden]"


def chosen_engines():
    wanted = os.environ.get("TBOOK_ENGINES")
    return ENGINES if not wanted else tuple(e.strip() for e in wanted.split(",") if e.strip())


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    name = request.param
    if name not in chosen_engines():
        pytest.skip(f"{name} left out by TBOOK_ENGINES={os.environ['TBOOK_ENGINES']}")
    try:
        started = engines.start(name)
    except engines.Missing as e:
        pytest.fail(f"{name}: {e} (or leave it out on purpose: TBOOK_ENGINES=chromium)",
                    pytrace=False)
    yield started
    started.close()


# A chapter kept open in a tab of its own, as a reader keeps one, while the tests' tab goes from
# page to page: the runtime's SharedWorker lives as long as one page of the book holds it, so
# Python boots once for the module, not once a page. (Firefox ends the worker when its only
# page navigates away; WebKit's MiniBrowser has one window, and its next page was measured to
# find the worker still running: docs/browsers.md.)
KEEPER = "02-softmax.html"


@pytest.fixture(scope="module")
def tab(engine, server):
    keeper = engine.new_tab() if engine.tabs_apart else None
    if keeper:
        open_live(keeper, server + KEEPER)
    opened = engine.new_tab()
    yield opened
    opened.close()
    if keeper:
        keeper.close()


def open_live(tab, url):
    """Open url and wait until no widget or exercise is still static or loading."""
    tab.goto(url)
    tab.wait_for(SETTLED, what=f"{url} to go live")


# The parameters of the view a widget shows (common.js currentParams: with the running
# example, where the reader edited it), read through the page's own module.
CURRENT_PARAMS = """async (root) => {
    const base = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
    const { currentParams } = await import(new URL('assets/widgets/common.js', base).href);
    return currentParams(root);
}"""

# One input a reader makes on a widget: the widget's first usable control (a slider or a
# number box takes an arrow key, a choice a click on another option, a switch or a stepper's
# button a click), a drag for the dot product's arrows, a click that drops a word for the
# example editor. The element is marked; returns {mark, key | click | drag} or null.
FIRST_INPUT = """(root) => {
    const usable = (el) => el.getClientRects().length > 0 && !el.disabled
        && !el.closest('details:not([open]), [hidden]');
    const mark = (el) => (el.dataset.engineMark ??= String(Math.random()).slice(2));
    const tip = root.querySelector('[data-tip]');
    if (tip) return { mark: mark(tip), drag: [40, -40] };
    for (const c of root.querySelectorAll('[data-control][data-kind]')) {
        const kind = c.dataset.kind;
        if (['range', 'steps', 'number'].includes(kind) && usable(c)) {
            const top = Number(c.value) >= Number(c.max);
            const key = kind === 'number' ? (top ? 'ArrowDown' : 'ArrowUp')
                                          : (top ? 'ArrowLeft' : 'ArrowRight');
            return { mark: mark(c), key };
        }
        const button = kind === 'choice'
            ? [...c.querySelectorAll('[data-value]')].find(
                (b) => usable(b) && b.getAttribute('aria-checked') !== 'true')
            : kind === 'switch' ? c
            : kind === 'stepper' ? [...c.querySelectorAll('[data-step]')].find(usable) : null;
        if (button && usable(button)) return { mark: mark(button), click: true };
    }
    const remove = root.querySelector('[data-action=remove]');
    if (remove && usable(remove)) return { mark: mark(remove), click: true };
    return null;
}"""

# The same page at a phone's width, in a frame of 360 x 740 px (MiniBrowser's window cannot be
# made narrower than about 450 px; a frame's document lays out as a viewport of its size, its
# media queries included): how wide it is once live, and what sticks out.
AT_PHONE_WIDTH = """async ([url, width]) => {
    const frame = document.createElement('iframe');
    frame.style.cssText = `width: ${width}px; height: 740px; border: 0`;
    await new Promise((loaded) => { frame.onload = loaded; frame.src = url; document.body.append(frame); });
    const doc = frame.contentDocument;
    const busy = ':is([data-widget], [data-exercise]):is([data-state=static], [data-state=loading])';
    for (let i = 0; i < 600 && doc.querySelector(busy); i++) await new Promise((r) => setTimeout(r, 100));
    const wide = [...doc.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5
                       && e.parentElement.getBoundingClientRect().right <= width + 0.5)
        .slice(0, 5).map((e) => e.outerHTML.slice(0, 80));
    const scrollWidth = doc.documentElement.scrollWidth;
    frame.remove();
    return { scrollWidth, wide };
}"""


@pytest.mark.parametrize("href", PAGES)
def test_every_page_goes_live_and_every_widget_answers_an_input(engine, tab, server, href):
    open_live(tab, server + href)
    states = tab.evaluate("""() => [...document.querySelectorAll('[data-widget], [data-exercise]')]
        .map((e) => [e.id, e.dataset.state, e.querySelector('.widget-status')?.textContent])""")
    assert all(state == "live" for _, state, _ in states), f"{tab.engine} {href}: {states}"
    if tab.errors is not None:  # WebKit's classic WebDriver reports no console
        assert tab.errors == [], f"{tab.engine} {href}: {tab.errors}"
    for i in range(tab.locator("[data-widget]").count()):
        root = tab.locator("[data-widget]", i)
        name = root.get_attribute("data-widget")
        before = root.evaluate(CURRENT_PARAMS)
        assert_shows(root, compute(name, before), skip=HIDDEN)
        # the example editor after chapter 3 is folded: open it as a reader does
        root.evaluate("(root) => root.querySelector('details.ex-fold:not([open]) > summary')?.click()")
        reader = root.evaluate(FIRST_INPUT)
        if reader is None:
            assert name == "code-lab", f"{tab.engine} {href}: no input found for {name}"
            continue  # its run and 停止: test_the_code_lab_runs_and_stop_ends_a_runaway_loop
        target = tab.locator(f'[data-engine-mark="{reader["mark"]}"]')
        if "key" in reader:
            target.press(reader["key"])
        elif "drag" in reader:
            target.drag(*reader["drag"])
        else:
            target.click()
        after = root.evaluate(CURRENT_PARAMS)
        assert after != before, f"{tab.engine} {href}: {name} did not take the input {reader}"
        assert_shows(root, compute(name, after), skip=HIDDEN)
        root.locator("[data-action=reset]").click()  # as it was, for the widgets after it
    shown = tab.evaluate(AT_PHONE_WIDTH, [server + href, PHONE])
    assert shown["scrollWidth"] <= PHONE, \
        f"{tab.engine} {href}: {shown['scrollWidth']} px wide at {PHONE} px: {shown['wide']}"


LAB = "15-code-lab.html"
SOURCE = (ROOT / "pycore" / "block.py").read_text(encoding="utf-8")
SMALLER = SOURCE.replace("batch=2, length=32, d_model=128, n_heads=8",
                         "batch=3, length=32, d_model=64, n_heads=4")
LOOP = "while True:\n    pass\n"
# Put code in an editor's box as a paste would (one input event).
FILL = """(box, text) => { box.value = text; box.dispatchEvent(new Event('input', { bubbles: true })); }"""
UPDATED = """([sel, n]) => { const root = document.querySelector(sel);
    return Number(root.dataset.updates || 0) > n && !root.hasAttribute('aria-busy'); }"""


def test_the_code_lab_runs_and_stop_ends_a_runaway_loop(engine, tab, server):
    """The edited block runs and shows pycore's numbers for it; asyncio.run is refused as
    everywhere in the book's Python (no engine's stack switching); 停止 ends an endless loop."""
    assert SMALLER != SOURCE
    open_live(tab, server + LAB)
    sel = '[data-widget="code-lab"]'
    root = tab.locator(sel)
    box = root.locator("[data-control=code]")
    for code, ending in ((SMALLER, None), (ASYNC, None), (LOOP, "stopped")):
        box.evaluate(FILL, code)
        before = int(root.get_attribute("data-updates") or 0)
        root.locator("[data-action=run]").click(settle=ending is None)
        if ending == "stopped":
            tab.wait_for("(sel) => !document.querySelector(sel).hidden",
                         f"{sel} [data-action=stop]", what="停止 to show")
            root.locator("[data-action=stop]").click()
        tab.wait_for(UPDATED, [sel, before], what="the run to end")
        if code == ASYNC:
            error = root.locator(".lab-error").evaluate("e => e.textContent")
            assert ASYNC_REFUSED in error, error
            continue
        params = {**root.evaluate(CURRENT_PARAMS), "code": code}
        if ending:
            params["interrupted"] = ending
            assert "已停止" in root.locator(".lab-error").evaluate("e => e.textContent")
        assert_shows(root, compute("code-lab", params), min_count=3)


EXERCISE = "softmax"


def test_an_exercise_is_checked(engine, tab, server):
    open_live(tab, server + "02-softmax.html")
    sel = f'[data-exercise="{EXERCISE}"]'
    root = tab.locator(sel)
    solution = describe(EXERCISE)["solution"]
    root.locator("[data-part=code]").evaluate(FILL, solution)
    before = int(root.get_attribute("data-checks") or 0)
    root.locator("[data-action=check]").click()
    tab.wait_for("([sel, n]) => Number(document.querySelector(sel).dataset.checks || 0) > n",
                 [sel, before], what="the check")
    feedback = root.locator("[data-part=feedback]")
    assert feedback.get_attribute("data-status") == "passed"
    assert feedback.locator(".fb-title").evaluate("e => e.textContent") == \
        check(EXERCISE, solution)["title"]


@pytest.fixture
def host(site):
    """A host of the book of its own (an origin no service worker has seen), which the test
    can take down."""
    srv = make_server(site)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_a_chapter_opened_offline_after_one_visit_goes_live(engine, tab, host):
    url = f"http://127.0.0.1:{host.server_port}/"
    open_live(tab, url + "01-dot-product.html")
    # the service worker has kept the runtime and the chapter opened (book.js registers it
    # once Python booted); 04-attention was opened too, under its control
    tab.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    open_live(tab, url + "04-attention.html")
    host.shutdown()
    host.server_close()  # nothing listens: the origin is offline
    open_live(tab, url + "04-attention.html")
    root = tab.locator('[data-widget="attention"]')
    assert root.get_attribute("data-state") == "live"
    assert_shows(root, compute("attention", root.evaluate(CURRENT_PARAMS)))
