"""Embedding: the example blog post (examples/blog/), served from another site than the book,
shows one widget and one chapter in iframes that go live, size themselves and never leave the
book's origin; the 嵌入 dialog works with the keyboard and gives exactly the example's snippet;
an embed page keeps URL state and works offline through the service worker."""
import json
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from examples.blog.serve import PLACEHOLDER, make_blog_server
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

BLOG_PAGE = Path(__file__).resolve().parents[2] / "examples" / "blog" / "index.html"
WIDGET = "attention-04-attention"
CHAPTER = "02-softmax"
SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"


def origin(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@pytest.fixture(scope="module")
def blog(server):
    """The example blog on another site: `localhost` and its own port (the book is on
    127.0.0.1), with the book's address in place of {{BOOK_URL}}."""
    srv = make_blog_server(server)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://localhost:{srv.server_port}/"
    srv.shutdown()


class Recorder:
    """Every request of a browser context, by who made it: the blog page's own frame, a frame
    inside it (the iframes) or a worker; and every console error of the page's frames."""

    def __init__(self, context):
        self.requests, self.errors = [], []
        context.on("request", self.record)

    def record(self, request):
        try:
            frame = request.frame
        except Exception:  # a service worker's request has no frame
            self.requests.append(("worker", request.url))
            return
        self.requests.append(("top" if frame.parent_frame is None else "iframe", request.url))

    def watch(self, page):
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))

    def by(self, *kinds):
        return [u for k, u in self.requests if k in kinds and not u.startswith(("data:", "blob:"))]


def iframe_of(page, name):
    return page.locator(f'iframe[src$="/embed-{name}.html"]')


def wait_live(frame_locator, name):
    frame_locator.locator(f'[data-widget="{name}"][data-state=live]').first.wait_for(timeout=120_000)
    return frame_locator.locator(f'[data-widget="{name}"]').first


def heights(iframe):
    """(the iframe's height on the blog page, the height of the embed page's content)."""
    outer = iframe.evaluate("f => f.getBoundingClientRect().height")
    inner = iframe.element_handle().content_frame().evaluate(
        "() => document.documentElement.getBoundingClientRect().height")
    return outer, inner


def wait_fitted(page, iframe, tolerance=3, above=0, seconds=30):
    """The iframe's height once the host script has set it to the content's height (and that
    height is over `above`: a disclosure just opened may lay out a frame later)."""
    for _ in range(seconds * 10):
        outer, inner = heights(iframe)
        if abs(outer - inner) <= tolerance and outer > above:
            return outer
        page.wait_for_timeout(100)
    raise AssertionError(f"iframe {outer} px high, its content {inner} px (wanted over {above})")


def wait_height(page, iframe, expected):
    for _ in range(50):
        if abs(heights(iframe)[0] - expected) <= 1:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"iframe {heights(iframe)[0]} px high, expected {expected}")


def test_the_blog_embeds_a_live_widget_and_a_live_chapter(browser, server, blog):
    context = browser.new_context(service_workers="allow", viewport={"width": 1100, "height": 900})
    recorder = Recorder(context)
    page = context.new_page()
    recorder.watch(page)
    page.goto(blog)
    book = origin(server)
    assert origin(page.url) != book

    # the widget: live in its iframe, and every number is pycore's after each move
    frame = iframe_of(page, WIDGET)
    assert frame.get_attribute("loading") == "lazy" and frame.get_attribute("height") == "520"
    root = wait_live(page.frame_locator(f'iframe[src$="/embed-{WIDGET}.html"]'), "attention")
    assert_shows(root, pycore_view("attention"), min_count=90)
    before = updates(root)
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert updates(root) > before
    assert_shows(root, pycore_view("attention", query="累"))
    root.locator("[data-control=scale]").fill("4")
    assert_shows(root, pycore_view("attention", query="累", scale=4.0))
    inner = frame.element_handle().content_frame()
    # URL state, in the iframe's URL: written a moment after the last change (the token's
    # state alone may show first, if the machine is slow)
    state = lambda u: json.loads(parse_qs(urlsplit(u).query).get(WIDGET, ["{}"])[0])  # noqa: E731
    inner.wait_for_url(lambda u: state(u).get("scale") is not None)
    assert state(inner.url) == {"query": "累", "scale": 4.0}
    assert page.url.rstrip("/") == blog.rstrip("/")  # the blog's own URL is untouched

    # its height follows the content, also when the content grows
    height = wait_fitted(page, frame)
    assert height > 300 and height != 520
    # by the keyboard: a click aims at coordinates, and the host may resize the iframe (moving
    # the summary) between Playwright's stability check and the click, which then misses
    root.locator("details summary").press("Enter")
    expect(root.locator("details")).to_have_attribute("open", "")
    grown = wait_fitted(page, frame, above=height + 50)
    assert grown > height + 50

    # the chapter: loads when scrolled to (lazy), its widget goes live and follows pycore
    chapter = iframe_of(page, CHAPTER)
    chapter.scroll_into_view_if_needed()
    softmax = wait_live(page.frame_locator(f'iframe[src$="/embed-{CHAPTER}.html"]'), "softmax")
    logits = params_of(softmax)["logits"]
    softmax.locator("[data-control=temperature]").fill("-1")
    assert_shows(softmax, pycore_view("softmax", logits=logits, temperature=0.1))
    chapter_height = wait_fitted(page, chapter)
    assert chapter_height > 1000 and chapter_height != 900

    # each iframe takes its height only from itself: not from the blog, not from the other one
    page.evaluate("() => postMessage({type: 'tbook-embed-height', id: 'x', height: 77}, '*')")
    chapter_frame = chapter.element_handle().content_frame()
    chapter_frame.evaluate(f"""() => parent.postMessage(
        {{type: 'tbook-embed-height', id: '{WIDGET}', height: 345}}, '*')""")
    wait_height(page, chapter, 345)
    assert abs(heights(frame)[0] - grown) <= 1
    chapter_frame.evaluate("""() => parent.postMessage({type: 'tbook-embed-height', id: 'x',
        height: document.documentElement.getBoundingClientRect().height}, '*')""")
    wait_fitted(page, chapter)

    # a link of the embedded chapter opens the book in a new tab, not inside the iframe
    link = page.frame_locator(f'iframe[src$="/embed-{CHAPTER}.html"]') \
        .locator('article a[href="01-dot-product.html"]').first
    with context.expect_page() as opened:
        link.click()
    assert opened.value.url == server + "01-dot-product.html"
    opened.value.close()
    assert urlsplit(chapter_frame.url).path == f"/embed-{CHAPTER}.html"  # still the chapter

    # requests: the iframes and workers only ever ask the book; the blog page the blog or book
    # (the runtime's files: fetched for the iframes, by their frames or by the service worker
    # that keeps them, depending on the build of Chromium)
    assert any("/pyodide/" in u for u in recorder.by("iframe", "worker")), "runtime not seen?"
    off = [u for u in recorder.by("iframe", "worker") if origin(u) != book]
    assert off == [], f"the embedded book asked other origins: {off}"
    off = [u for u in recorder.by("top") if origin(u) not in (book, origin(blog))]
    assert off == [], f"the blog page asked other origins: {off}"
    assert recorder.errors == []
    context.close()


def open_dialog(page, button):
    button.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#tbook-embed")
    assert dialog.evaluate("d => d.open")
    assert page.evaluate("() => document.activeElement.closest('dialog')?.id") == "tbook-embed"
    return page.locator("#tbook-embed-code").input_value()


def snippet_src(text):
    return text.split('<iframe src="', 1)[1].split('"', 1)[0].replace("&amp;", "&")


def test_the_widget_embed_dialog_works_with_the_keyboard(book_pages, server):
    bp = book_pages("attention")
    root, page = bp.widget("attention"), bp.page
    button = root.locator(f'button[data-embed="{WIDGET}"]')
    assert button.is_visible() and button.is_enabled()
    text = open_dialog(page, button)
    assert snippet_src(text) == f"{server}embed-{WIDGET}.html"
    for attr in ('loading="lazy"', 'width="100%"', 'style="border:0"',
                 'title="《交互式 Transformer》小部件：注意力：点一个词，看它在看谁"'):
        assert attr in text.split(">", 1)[0], attr
    assert "event.origin !== origin || event.source !== frame.contentWindow" in text
    # the example blog uses exactly this snippet, with the book's address as a placeholder
    assert text.replace(server, PLACEHOLDER) in BLOG_PAGE.read_text(encoding="utf-8")
    page.keyboard.press("Escape")
    assert not page.locator("#tbook-embed").evaluate("d => d.open")
    assert page.evaluate("() => document.activeElement.dataset.embed") == WIDGET

    # a widget the reader has set up is embedded as it is (its URL state goes along)
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    src = snippet_src(open_dialog(page, button))
    assert json.loads(parse_qs(urlsplit(src).query)[WIDGET][0]) == {"query": "累"}
    page.keyboard.press("Escape")
    root.locator("[data-action=reset]").click()


def test_the_chapter_embed_dialog_copies_and_closes_with_the_keyboard(book_pages, server):
    bp = book_pages("softmax")
    page = bp.page
    bp.widget("softmax")
    button = page.locator("button[data-embed-kind=chapter]")
    assert button.inner_text() == "嵌入本节" and button.is_enabled()
    text = open_dialog(page, button)
    assert snippet_src(text) == f"{server}embed-{CHAPTER}.html"
    assert text.replace(server, PLACEHOLDER) in BLOG_PAGE.read_text(encoding="utf-8")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin(server))
    page.keyboard.press("Tab")  # from the code to 复制
    assert page.evaluate("() => document.activeElement.textContent") == "复制"
    page.keyboard.press("Enter")
    page.locator("#tbook-embed [role=status]").filter(has_text="已复制").wait_for(timeout=5_000)
    assert page.evaluate("() => navigator.clipboard.readText()") == text
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "关闭"
    page.keyboard.press("Enter")
    assert not page.locator("#tbook-embed").evaluate("d => d.open")
    assert page.evaluate("() => document.activeElement.dataset.embedKind") == "chapter"


def test_an_embed_page_keeps_url_state_and_works_offline(browser, server):
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    state = '{"query":"累","causal":true}'
    page.goto(f"{server}embed-{WIDGET}.html?{WIDGET}={state}")
    page.wait_for_selector(SETTLED, state="detached", timeout=120_000)
    root = page.locator(f"#{WIDGET}")
    assert root.get_attribute("data-state") == "live"
    assert_shows(root, pycore_view("attention", query="累", causal=True))
    assert page.locator(".toc, .pager, .search").count() == 0
    assert not root.locator("button[data-embed]").is_visible()
    back = page.locator(".embed-source a")
    assert back.get_attribute("target") == "_blank"
    assert back.get_attribute("href") == f"04-attention.html#{WIDGET}"
    assert back.inner_text().startswith("出自《交互式 Transformer》第 4 节")

    # the book's service worker (same scope) serves the embed page and the runtime offline
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(SETTLED, state="detached", timeout=120_000)
    root = page.locator(f"#{WIDGET}")
    assert root.get_attribute("data-state") == "live"
    assert_shows(root, pycore_view("attention", query="累", causal=True))
    assert errors == []
    context.close()


def test_the_embed_button_works_without_the_runtime_and_after_moving_on(browser, server_without_wasm):
    server = server_without_wasm
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(server + "01-dot-product.html")
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    page.evaluate("() => { window.sameDocument = true; }")
    page.locator(f'.toc a[href$="{CHAPTER}.html"]').click()  # navigate.js swaps <main> in
    page.wait_for_selector('[data-widget="softmax"]', timeout=10_000)
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    assert page.evaluate("() => window.sameDocument === true"), "the page was reloaded"
    root = page.locator('[data-widget="softmax"]').first
    assert root.get_attribute("data-state") == "error"
    assert root.locator("[data-action=reset]").is_disabled()
    button = root.locator("button[data-embed]")
    assert button.is_enabled()
    text = open_dialog(page, button)
    assert snippet_src(text) == f"{server}embed-softmax-{CHAPTER}.html"
    # with no clipboard API (a book on plain http), 复制 selects the code for Ctrl+C
    page.evaluate("() => Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.locator("#tbook-embed [data-embed-copy]").click()
    page.locator("#tbook-embed [role=status]").filter(has_text="Ctrl+C").wait_for(timeout=5_000)
    selected = page.evaluate("""() => { const t = document.activeElement;
        return t.id === 'tbook-embed-code' && t.value.slice(t.selectionStart, t.selectionEnd); }""")
    assert selected == text
    page.keyboard.press("Escape")
    assert page.evaluate("() => document.activeElement.dataset.embed") == f"softmax-{CHAPTER}"
    context.close()
