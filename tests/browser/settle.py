"""After every input a test makes, wait until the page has shown its result.

Widgets compute in the runtime's worker (assets/runtime.js), so a widget's numbers change a
moment after the click, key or slider move that asked for them: the way a reader sees it. Every
Playwright action that can move a widget (Locator.click, fill, press, ..., Keyboard.*, Mouse.*)
is wrapped here to wait, once the action is done, until no request to the runtime is waiting for
its answer in the page or any of its frames (runtime.js settled()). The tests then read the DOM
exactly as before. Nothing is mocked: the page computes as it does for a reader.
"""
import functools

from playwright.sync_api import Keyboard, Locator, Mouse, Page, Touchscreen

SETTLE = """async () => {
    const root = document.querySelector('meta[name="tbook-root"]');
    if (!root) return;  // not a page of the book (e.g. a blog post that embeds one)
    const url = new URL('assets/runtime.js', new URL(root.content, document.baseURI)).href;
    const { settled } = await import(url);
    await settled();
}"""

ACTIONS = {
    Locator: ("click", "dblclick", "fill", "press", "press_sequentially", "type", "check",
              "uncheck", "set_checked", "select_option", "dispatch_event", "drag_to", "tap",
              "clear"),
    Page: ("click", "fill", "press", "dispatch_event", "check", "select_option"),
    Keyboard: ("press", "type", "down", "up", "insert_text"),
    Mouse: ("click", "dblclick", "down", "up", "move", "wheel"),
    Touchscreen: ("tap",),
}


def settle(page):
    """Wait until no frame of page has a request to the runtime in flight."""
    for frame in page.frames:
        try:
            frame.evaluate(SETTLE)
        except Exception:  # the action navigated, or the frame went away: nothing to wait for
            pass


def _page_of(obj):
    if isinstance(obj, Locator):
        return obj.page
    if isinstance(obj, Page):
        return obj
    return getattr(obj, "_tbook_page", None)  # Keyboard, Mouse, Touchscreen: tagged by Page


def _settling(method):
    @functools.wraps(method)
    def action(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        page = _page_of(self)
        if page is not None and not page.is_closed():
            settle(page)
        return result
    return action


def _tagged(prop):
    def get(page):
        device = prop.fget(page)
        device._tbook_page = page
        return device
    return property(get)


def install():
    for cls, names in ACTIONS.items():
        for name in names:
            method = getattr(cls, name)
            if not getattr(method, "_tbook_settles", False):
                wrapped = _settling(method)
                wrapped._tbook_settles = True
                setattr(cls, name, wrapped)
    for name in ("keyboard", "mouse", "touchscreen"):
        prop = getattr(Page, name)
        if not getattr(prop.fget, "_tbook_tags", False):
            tagged = _tagged(prop)
            tagged.fget._tbook_tags = True
            setattr(Page, name, tagged)
