"""The two browser engines besides Chromium (which every other browser test drives through
Playwright) behind the same few verbs, for the smoke tests of test_engines.py.

- firefox: Debian's Firefox ESR through WebDriver BiDi, spoken here over its websocket
  (Debian has no geckodriver, and Playwright's Firefox is a patched build it downloads).
- webkit: WebKitGTK's MiniBrowser through WebKitWebDriver (classic WebDriver, Selenium), in an
  Xvfb of its own (MiniBrowser's --headless hangs under automation).

A Tab is one page of one engine: goto(url), evaluate(js_function, *args) (a function's source;
its promise is awaited; arguments and result travel as JSON), click / press / drag on an
element (the engine's own input at its centre: trusted events, as a reader's),
wait_for(js_predicate, *args), errors (the console's errors and uncaught exceptions since the
last goto, where the engine reports them: None where it cannot) and close(). (No viewport verb:
MiniBrowser's window cannot be made narrower than about 450 px, so a phone's width is a frame's.) After every input the tab waits until the page
has shown its result (settle.py's SETTLE), as the Playwright tests do.
"""
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time

from .settle import SETTLE

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
NEEDS = {
    "firefox": "apt-get install -y firefox-esr",
    "webkit": "apt-get install -y webkit2gtk-driver xvfb",
}
# Where to find an element: the n-th match of a CSS selector, found again at every call.
FIND = "(sel, n) => document.querySelectorAll(sel)[n]"
# Scroll the element to the middle of the viewport; its centre in viewport pixels.
CENTRE = """(el) => {
    el.scrollIntoView({ block: "center", inline: "center" });
    const r = el.getBoundingClientRect();
    return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
}"""
# WebDriver's codes for the keys the tests press (w3c.github.io/webdriver/#keyboard-actions).
KEYS = {"Enter": "\ue007", "Escape": "\ue00c", "Tab": "\ue004", "Space": " ", "Home": "\ue011",
        "End": "\ue010", "ArrowLeft": "\ue012", "ArrowUp": "\ue013", "ArrowRight": "\ue014",
        "ArrowDown": "\ue015", "Control": "\ue009", "Shift": "\ue008"}


class Missing(Exception):
    """The engine is not installed; the message says what to install."""


class Element:
    """The index-th match of a selector in a tab. evaluate(fn, arg) calls fn(element, arg), as
    a Playwright Locator does: harness.py's readers (assert_shows, params_of...) take either."""

    def __init__(self, tab, selector, index=0):
        self.tab, self.selector, self.index = tab, selector, index

    def evaluate(self, fn, arg=None):
        return self.tab.evaluate(f"(sel, n, arg) => ({fn})(({FIND})(sel, n), arg)",
                                 self.selector, self.index, arg)

    def get_attribute(self, name):
        return self.evaluate("(el, name) => el.getAttribute(name)", name)

    def count(self):
        return self.tab.evaluate("(sel) => document.querySelectorAll(sel).length", self.selector)

    def locator(self, selector):
        """The first element inside this one matching selector (by a unique mark)."""
        mark = self.evaluate("""(el, sel) => {
            const inner = el.querySelector(sel);
            if (!inner) return null;
            inner.dataset.engineMark ??= String(Math.random()).slice(2);
            return inner.dataset.engineMark;
        }""", selector)
        assert mark, f"nothing matches {selector!r} inside {self.selector}"
        return Element(self.tab, f'[data-engine-mark="{mark}"]')

    def click(self, settle=True):
        """Click the element; settle=False: without waiting for what it asks the runtime
        (a run of the reader's code that may never end)."""
        self.tab.click_at(*self.evaluate(CENTRE), settle=settle)

    def press(self, key):
        """Focus the element, then press key ("ArrowRight", "Control+Enter")."""
        self.evaluate("(el) => el.focus()")
        self.tab.keys(key)

    def drag(self, dx, dy):
        """Press the main button at the element's centre, move by (dx, dy), release."""
        x, y = self.evaluate(CENTRE)
        self.tab.drag_from(x, y, dx, dy)


class Tab:
    """What every engine's tab has in common; subclasses speak to the engine."""
    engine = None

    def evaluate(self, fn, *args):
        wrapped = f"async (json) => JSON.stringify((await ({fn})(...JSON.parse(json))) ?? null)"
        return json.loads(self._call(wrapped, json.dumps(args)))

    def locator(self, selector, index=0):
        return Element(self, selector, index)

    def goto(self, url):
        """Open url and wait for its document to load. (The old document is marked first:
        Firefox answers a navigation to the URL already open while the new one still loads.)"""
        self.evaluate("() => { window.tbookEngineLeft = true; }")
        self._goto(url)
        self.wait_for("() => !window.tbookEngineLeft && document.readyState === 'complete'",
                      what=f"{url} to load")

    def wait_for(self, predicate, *args, timeout=90, what=None):
        """Wait until the JS function predicate(*args) is true."""
        end = time.monotonic() + timeout
        while not self.evaluate(predicate, *args):
            if time.monotonic() > end:
                raise AssertionError(f"{self.engine}: timed out after {timeout} s waiting for "
                                     f"{what or predicate}")
            time.sleep(0.1)

    def settle(self):
        self.evaluate(SETTLE)

    def click_at(self, x, y, settle=True):
        self._click(x, y)
        if settle:
            self.settle()

    def keys(self, key):
        self._keys(key.split("+"))
        self.settle()

    def drag_from(self, x, y, dx, dy):
        self._drag(x, y, dx, dy)
        self.settle()


def _chord(names):
    codes = [KEYS.get(n, n) for n in names]
    return ([{"type": "keyDown", "value": c} for c in codes]
            + [{"type": "keyUp", "value": c} for c in reversed(codes)])


# ---- Firefox (WebDriver BiDi) ---------------------------------------------------------------

class BiDi:
    """A WebDriver BiDi session over a websocket: command() sends one and waits for its answer;
    events (log.entryAdded) are kept in `events` as they arrive."""

    def __init__(self, url):
        import websocket  # websocket-client (a dependency of selenium)
        self.ws = websocket.create_connection(url, timeout=120, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def command(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == self.next_id:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message['error']}: {message.get('message')}")
                return message["result"]

    def close(self):
        self.ws.close()


# Prefs for a quiet Firefox on a closed network; the remote agent adds its own recommended
# ones (remote.prefs.recommended).
FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.captive-portal-service.enabled": False,
    # WebAssembly in its baseline compiler only: a test session never runs the runtime long
    # enough to repay the optimizing compiler's background work (WebKit, by contrast, keeps
    # its optimizing tier: see WEBKIT_ENV)
    "javascript.options.wasm_optimizingjit": False,
}


class FirefoxTab(Tab):
    engine = "firefox"

    def __init__(self, engine, context):
        self.bidi, self.context = engine.bidi, context
        self.seen = len(self.bidi.events)

    @property
    def errors(self):
        return [e["params"].get("text") for e in self.bidi.events[self.seen:]
                if e["method"] == "log.entryAdded" and e["params"].get("level") == "error"
                and e["params"].get("source", {}).get("context") == self.context]

    def _goto(self, url):
        self.seen = len(self.bidi.events)
        self.bidi.command("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def _call(self, fn, arg):
        result = self.bidi.command(
            "script.callFunction", functionDeclaration=fn, awaitPromise=True,
            target={"context": self.context}, arguments=[{"type": "string", "value": arg}])
        if result["type"] == "exception":
            raise RuntimeError(f"firefox: {result['exceptionDetails']['text']}")
        return result["result"]["value"]

    def _actions(self, *sources):
        self.bidi.command("input.performActions", context=self.context, actions=list(sources))
        self.bidi.command("input.releaseActions", context=self.context)

    def _pointer(self, steps):
        return {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": steps}

    def _click(self, x, y):
        self._actions(self._pointer([{"type": "pointerMove", "x": x, "y": y},
                                     {"type": "pointerDown", "button": 0},
                                     {"type": "pointerUp", "button": 0}]))

    def _drag(self, x, y, dx, dy):
        moves = [{"type": "pointerMove", "x": x + dx * k // 4, "y": y + dy * k // 4}
                 for k in range(1, 5)]
        self._actions(self._pointer([{"type": "pointerMove", "x": x, "y": y},
                                     {"type": "pointerDown", "button": 0}, *moves,
                                     {"type": "pointerUp", "button": 0}]))

    def _keys(self, names):
        self._actions({"type": "key", "id": "keyboard", "actions": _chord(names)})


    def close(self):
        self.bidi.command("browsingContext.close", context=self.context)


class FirefoxEngine:
    tabs_apart = True  # tabs of one profile: they share the runtime's SharedWorker

    def __init__(self):
        exe = shutil.which("firefox-esr") or shutil.which("firefox")
        if not exe:
            raise Missing("Firefox is not installed")
        self.profile = tempfile.mkdtemp(prefix="tbook-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            f.writelines(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n"
                         for k, v in FIREFOX_PREFS.items())
        self.process = subprocess.Popen(
            [exe, "--headless", "--no-remote", "--profile", self.profile,
             "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.bidi = BiDi(self._listening() + "/session")
        self.bidi.command("session.new", capabilities={})
        self.bidi.command("session.subscribe", events=["log.entryAdded"])
        self.blank = self.bidi.command("browsingContext.getTree")["contexts"][0]["context"]

    def _listening(self):
        """The websocket address Firefox prints once its remote agent listens."""
        found = queue.Queue()

        def read():
            for line in self.process.stderr:
                match = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if match:
                    found.put(match.group(1))
            found.put(None)  # the process ended
        threading.Thread(target=read, daemon=True).start()
        try:
            url = found.get(timeout=60)
        except queue.Empty:
            url = None
        if not url:
            self.close()
            raise Missing("Firefox started but its WebDriver BiDi agent never listened")
        return url

    def new_tab(self):
        context = self.bidi.command("browsingContext.create", type="tab")["context"]
        return FirefoxTab(self, context)

    def close(self):
        try:
            self.bidi.command("browser.close")
            self.bidi.close()
        except Exception:
            pass
        finally:
            _end(self.process)
            shutil.rmtree(self.profile, ignore_errors=True)


# ---- WebKit (WebKitWebDriver + MiniBrowser, Selenium) ---------------------------------------

class WebKitTab(Tab):
    engine = "webkit"
    errors = None  # classic WebDriver has no log for WebKitGTK

    def __init__(self, driver):
        self.driver = driver

    def _goto(self, url):
        self.driver.get(url)

    def _call(self, fn, arg):
        return self.driver.execute_script(f"return ({fn})(arguments[0]);", arg)

    def _perform(self, build):
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        actions = ActionBuilder(self.driver)
        build(actions)
        actions.perform()

    def _click(self, x, y):
        self._perform(lambda a: a.pointer_action.move_to_location(x, y).click())

    def _drag(self, x, y, dx, dy):
        def build(a):
            a.pointer_action.move_to_location(x, y).pointer_down()
            for k in range(1, 5):
                a.pointer_action.move_to_location(x + dx * k // 4, y + dy * k // 4)
            a.pointer_action.pointer_up()
        self._perform(build)

    def _keys(self, names):
        codes = [KEYS.get(n, n) for n in names]

        def build(a):
            for c in codes:
                a.key_action.key_down(c)
            for c in reversed(codes):
                a.key_action.key_up(c)
        self._perform(build)


    def close(self):
        pass  # one window for the whole engine


# The WebKit process spent most of its CPU on a thing a test gains nothing from, measured on
# this module's WebKit half (TBOOK_ENGINES=webkit, one process): 131 CPU-s in all, of which 52
# in Mesa's software OpenGL (llvmpipe: Xvfb has no GPU, so accelerated compositing is emulated).
# With compositing off, pages are still laid out, run and painted by WebKit; only the GPU path
# differs. WebAssembly keeps every tier of a reader's Safari: left at its baseline JIT (BBQ,
# JSC_useOMGJIT=false, ~27 CPU-s less), WebKit in loaded full runs here twice left a reader's
# Pyodide never settling and once computed a NumPy draw out of its range (IndexError in
# train-live's view): 3 of about 12 runs, all after BBQ-only was set (12ee3d6). A reader's
# Safari runs the optimizing tier (OMG) too, and so do these tests.
WEBKIT_ENV = {"WEBKIT_DISABLE_COMPOSITING_MODE": "1"}


class WebKitEngine:
    tabs_apart = False  # one window (new_tab)

    def __init__(self):
        driver_exe = shutil.which("WebKitWebDriver")
        if not driver_exe or not os.path.exists(MINIBROWSER):
            raise Missing("WebKitWebDriver or its MiniBrowser is not installed")
        if not shutil.which("Xvfb"):
            raise Missing("Xvfb is not installed")
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service
        self.xvfb, display = _start_xvfb()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = Service(executable_path=driver_exe, env={**os.environ, **WEBKIT_ENV, "DISPLAY": display})
        try:
            self.driver = webdriver.WebKitGTK(options=options, service=service)
        except Exception:
            _end(self.xvfb)
            raise
        self.driver.set_script_timeout(120)
        self.driver.set_page_load_timeout(120)
        self.tab = WebKitTab(self.driver)

    def new_tab(self):
        return self.tab  # MiniBrowser under automation: one window, reused page after page

    def close(self):
        try:
            self.driver.quit()
        finally:
            _end(self.xvfb)


def _start_xvfb():
    """An Xvfb on a free display (it names the display it took): (process, ":N")."""
    read, write = os.pipe()
    process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                                "-nolisten", "tcp"], pass_fds=[write],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        _end(process)
        raise Missing("Xvfb did not start")
    return process, f":{number}"


def _end(process):
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start(name):
    """The engine named: firefox or webkit. Raises Missing, saying what to install, when it
    cannot start."""
    try:
        return {"firefox": FirefoxEngine, "webkit": WebKitEngine}[name]()
    except Missing as e:
        raise Missing(f"{e}: {NEEDS[name]}") from None
