"""A new deploy on an ordinary static host (Last-Modified, no Cache-Control: browsers guess how
long to keep each file) never strands a reader: a chapter opened by its address shows the new
text, the page is styled with the new stylesheet (online and offline), the service worker's
new cache holds the new files, deletes only its own older caches, and an offline page it does
not hold is the book's own "离线时没有这一节", and the new worker fetches the whole book
again only for a reader who chose to keep it."""
import http.server
import os
import re
import shutil
import threading
import time
from functools import partial
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bookbuild.renderers import output
from bookbuild.pipeline import build

ROOT = Path(__file__).resolve().parents[2]
SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"
DAY = 24 * 3600


class StaticHost(http.server.SimpleHTTPRequestHandler):
    """What `python3 -m http.server` sends: Last-Modified, and no Cache-Control at all."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def age(folder, seconds):
    """Every file of the folder as last modified `seconds` ago (a site deployed days ago)."""
    when = time.time() - seconds
    for path in Path(folder).rglob("*"):
        os.utime(path, (when, when), follow_symlinks=False)


def deploy(book, stage, site, *, css_rule=None, monkeypatch=None):
    """Build the book into a fresh folder and copy it over the served one, as an upload does;
    css_rule: a rule appended to book.css, for a build whose stylesheet changed."""
    if css_rule:
        fake = stage / "root"
        shutil.copytree(ROOT / "assets", fake / "assets")
        (fake / "pycore").symlink_to(ROOT / "pycore")
        css = fake / "assets" / "book.css"
        css.write_text(css.read_text(encoding="utf-8") + "\n" + css_rule + "\n", encoding="utf-8")
        monkeypatch.setattr(output, "ROOT", fake)
    out = stage / "out"
    build(book, out, log=lambda *a: None)
    shutil.copytree(out, site, dirs_exist_ok=True)
    shutil.rmtree(out)


@pytest.fixture
def host(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(StaticHost, directory=str(site)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield site, f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


def controller_cache(page):
    """The Cache Storage names once the page's service worker is active and in control."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    return page.evaluate("caches.keys()")


def wait_for_caches(page, done, timeout=90):
    """The Cache Storage names once done(names) holds. Polled from here: wait_for_function
    takes a returned Promise for a truthy value and would not wait for caches.keys(). The new
    worker fetches the runtime and the open page before it takes over, which takes a while on
    a busy machine."""
    deadline = time.monotonic() + timeout
    while not done(keys := page.evaluate("caches.keys()")):
        assert time.monotonic() < deadline, f"the caches stayed {keys}"
        page.wait_for_timeout(200)
    return keys


def test_a_deploy_on_a_static_host_never_pairs_a_new_page_with_old_files(
        browser, host, tmp_path, monkeypatch):
    site, url = host
    book = Path(shutil.copytree(ROOT / "book", tmp_path / "book"))
    stage = tmp_path / "stage"
    stage.mkdir()
    deploy(book, stage, site)
    age(site, 2 * DAY)

    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(url + "04-attention.html")
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    first = controller_cache(page)
    page.reload()  # now under the worker's control: every file came through it
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    # two other sites' caches on the same origin, one named like this book's old caches
    page.evaluate("""Promise.all(['other-site-v1', 'book-0123456789abcdef']
                      .map((name) => caches.open(name).then((c) => c.put('/x', new Response('x')))))""")

    # the new deploy: new text in chapter 4, a stylesheet that now draws the body's outline
    chapter = book / "04-attention.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "\n\n", "\n\n这一句是新部署的。\n\n", 1), encoding="utf-8")
    deploy(book, stage, site, css_rule="body { outline: 3px solid rgb(1, 2, 3); }",
           monkeypatch=monkeypatch)
    age(site, DAY)  # still old enough for a browser to guess the old copies are fresh

    page.reload()
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    assert "这一句是新部署的。" in page.content()
    assert page.evaluate("getComputedStyle(document.body).outlineColor") == "rgb(1, 2, 3)"
    assert not [e for e in errors if "integrity" in e], errors
    # the new service worker takes over with a cache of its own, and drops only the old one
    keys = wait_for_caches(page, lambda k: first[0] not in k
                           and len([name for name in k if name.startswith("tbook ")]) == 1)
    assert "other-site-v1" in keys and "book-0123456789abcdef" in keys
    assert len([k for k in keys if k.startswith("tbook ")]) == 1

    # offline: the new page, styled; a page the worker does not hold is the book's own
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    assert "这一句是新部署的。" in page.content()
    assert page.evaluate("getComputedStyle(document.body).outlineColor") == "rgb(1, 2, 3)"
    assert page.locator('[data-widget="attention"]').first.get_attribute("data-state") == "live"
    page.goto(url + "no-such-chapter.html")
    assert page.locator("h1").inner_text() == "离线时没有这一节"
    assert page.locator(".toc a").count() >= 16  # the way back to what is stored
    context.close()


CACHED_PATHS = """async () => {
    const paths = [];
    for (const name of (await caches.keys()).filter((n) => n.startsWith('tbook ') && !n.endsWith(' choice'))) {
        for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
}"""


@pytest.mark.parametrize("whole_book", [False, True])
def test_an_update_fetches_the_whole_book_again_only_if_the_reader_chose_it(
        browser, host, tmp_path, whole_book):
    site, url = host
    book = Path(shutil.copytree(ROOT / "book", tmp_path / "book"))
    stage = tmp_path / "stage"
    stage.mkdir()
    deploy(book, stage, site)
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url + "index.html")
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    first = controller_cache(page)
    if whole_book:
        page.get_by_role("button", name=re.compile("离线阅读整本书")).click()
        expect(page.locator(".keep-book [aria-live]")).to_have_text(re.compile("整本书已保存"),
                                                                     timeout=120_000)

    chapter = book / "05-multi-head.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "\n\n", "\n\n这一句是新部署的。\n\n", 1), encoding="utf-8")
    deploy(book, stage, site)
    page.reload()
    wait_for_caches(page, lambda k: first[0] not in k and any(n.startswith("tbook ") for n in k))
    assert ("/05-multi-head.html" in page.evaluate(CACHED_PATHS)) is whole_book
    context.set_offline(True)
    page.goto(url + "05-multi-head.html")
    if whole_book:
        assert "这一句是新部署的。" in page.content()
    else:
        assert page.locator("h1").inner_text() == "离线时没有这一节"
    context.close()
