"""Shareable state: a widget's changed parameters go into the URL, and the link reopens it."""
from urllib.parse import parse_qs, urlsplit

from tests.browser.harness import assert_shows, pycore_view


def test_link_round_trip(book_pages, browser, server):
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

    other = browser.new_page()
    other.goto(url)
    other.wait_for_selector(f'#{wid}[data-state=live]', timeout=60_000)
    reopened = other.locator(f"#{wid}")
    assert reopened.locator("""[data-control=query] [data-value='"累"']""").get_attribute("aria-checked") == "true"
    assert reopened.locator("[data-control=causal]").get_attribute("aria-checked") == "true"
    assert_shows(reopened, pycore_view("attention", query="累", causal=True))
    other.close()

    root.locator("[data-action=reset]").click()
    page.page.wait_for_url(lambda u: wid not in parse_qs(urlsplit(u).query))


def test_a_broken_link_falls_back_to_the_block(browser, server):
    page = browser.new_page()
    page.goto(server + '04-attention.html?attention-04-attention={"query":"狗"}')
    page.wait_for_selector("#attention-04-attention[data-state=live]", timeout=60_000)
    assert_shows(page.locator("#attention-04-attention"), pycore_view("attention"))
    page.close()
