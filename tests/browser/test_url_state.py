"""Shareable state: a widget's changed parameters go into the URL, and the link reopens it."""
from urllib.parse import parse_qs, urlsplit

from tests.browser.harness import assert_shows, pycore_view


def test_link_round_trip(book_pages, reader_pages, server):
    page = book_pages("attention")
    root = page.widget("attention")
    wid = root.get_attribute("id")
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    root.locator("[data-control=causal]").click()
    # the URL follows a moment after the last change (never inside the input event)
    page.page.wait_for_url(lambda u: '"causal":true' in parse_qs(urlsplit(u).query).get(wid, [""])[0])
    url = page.page.url
    saved = parse_qs(urlsplit(url).query)[wid][0]
    assert '"query":"累"' in saved and '"causal":true' in saved

    other = reader_pages.new_page()  # a reader who opens the link (conftest.py)
    other.goto(url)
    other.wait_for_selector(f'#{wid}[data-state=live]', timeout=60_000)
    reopened = other.locator(f"#{wid}")
    assert reopened.locator("""[data-control=query] [data-value='"累"']""").get_attribute("aria-checked") == "true"
    assert reopened.locator("[data-control=causal]").get_attribute("aria-checked") == "true"
    assert_shows(reopened, pycore_view("attention", query="累", causal=True))

    root.locator("[data-action=reset]").click()
    page.page.wait_for_url(lambda u: wid not in parse_qs(urlsplit(u).query))


def test_a_broken_link_falls_back_to_the_block(reader_pages, server):
    page = reader_pages.new_page()
    page.goto(server + '04-attention.html?attention-04-attention={"query":"狗"}')
    page.wait_for_selector("#attention-04-attention[data-state=live]", timeout=60_000)
    assert_shows(page.locator("#attention-04-attention"), pycore_view("attention"))


PAGE = "06-positional-encoding.html"
ROPE = "rope-06-positional-encoding"
WAVES = "positional-encoding-06-positional-encoding"
EDITOR = "example-editor-06-positional-encoding"
DEEP = "[" * 3000 + "1" + "]" * 3000  # deeper than a message to the runtime's worker may be


def deep_link_page(browser, server, query):
    """PAGE opened with a query longer than the preview server takes: the host is asked for
    the page without it (a static host serves the page whatever its query)."""
    page = browser.new_page()
    page.route(f"**/{PAGE}?*", lambda route: route.fulfill(response=route.fetch(url=server + PAGE)))
    page.goto(f"{server}{PAGE}?{query}")
    page.wait_for_selector("[data-widget][data-state=static], [data-widget][data-state=loading]",
                           state="detached", timeout=60_000)
    return page


NO_ANSWER = """async (deep) => {
    const root = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
    const { bootRuntime } = await import(new URL('assets/runtime.js', root).href);
    const runtime = await bootRuntime();
    window.unanswered = runtime.compute('rope', { q: JSON.parse(deep) })
        .then(() => 'answered', (err) => err.message);
}"""


def test_a_crafted_link_never_strands_the_widgets(browser, server):
    """A widget's state or an example nested thousands deep never reaches the worker (it would
    arrive there as nothing, and never be answered): what does not fit the widget's parameters
    is left out with a note, the example is the book's, and a request that gets no answer
    ends after a time with an error the page reports."""
    page = deep_link_page(browser, server, f'{ROPE}={{"q":{DEEP},"m":5}}&{WAVES}={{"p":5,"k":[3]}}'
                                           f'&example={{"x":{DEEP}}}')
    rope = page.locator(f"#{ROPE}")
    assert rope.get_attribute("data-state") == "live"
    assert "书中的参数" in rope.locator(".widget-status").inner_text()
    assert_shows(rope, pycore_view("rope"))
    waves = page.locator(f"#{WAVES}")  # what fits the widget is kept, the rest left out
    assert "有些参数无法使用" in waves.locator(".widget-status").inner_text()
    assert_shows(waves, pycore_view("positional-encoding", p=5))
    editor = page.locator(f"#{EDITOR}")
    assert editor.get_attribute("data-state") == "live"
    assert "无法使用" in editor.locator(".ex-set-aside").inner_text()
    page.wait_for_url(lambda u: "example" not in parse_qs(urlsplit(u).query))
    assert page.evaluate("localStorage.getItem('tbook-example')") is None

    page.clock.install()
    page.evaluate(NO_ANSWER, DEEP)
    page.clock.run_for(10 * 60_000)
    outcome = page.evaluate("Promise.race([window.unanswered, Promise.resolve('still waiting')])")
    assert "没有回答" in outcome
    page.close()
