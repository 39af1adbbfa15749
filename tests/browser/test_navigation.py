"""Moving between chapters keeps the page's Python runtime: no reload, no second download or
boot of Pyodide, the next chapter's widgets live at once; back and forward work."""
from tests.browser.conftest import WORKER_REQUESTS
from tests.browser.harness import assert_shows, pycore_view

SETTLED = "[data-widget][data-state=static], [data-widget][data-state=loading]"


def test_chapter_links_keep_the_runtime(browser, server):
    page = browser.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server + "01-dot-product.html")
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    page.evaluate("() => { window.sameDocument = true; }")
    requests.clear()
    fetched_by_worker = len(page.evaluate(WORKER_REQUESTS))

    page.locator('.toc a[href$="04-attention.html"]').click()
    page.wait_for_selector('[data-widget="attention"][data-state=live]', timeout=10_000)
    assert page.url.endswith("04-attention.html")
    assert page.evaluate("() => window.sameDocument === true"), "the page was reloaded"
    assert "注意力" in page.title()
    assert page.locator('.toc a[aria-current=page]').get_attribute("href").endswith("04-attention.html")
    runtime = [u for u in requests if "/pyodide/" in u or "/assets/pycore-" in u]
    assert runtime == [], f"the runtime was fetched again: {runtime}"
    assert page.evaluate(WORKER_REQUESTS)[fetched_by_worker:] == []

    root = page.locator('[data-widget="attention"]').first
    root.locator("""[data-control=query] [data-value='"累"']""").click()
    assert_shows(root, pycore_view("attention", query="累"))

    page.go_back()
    page.wait_for_selector('[data-widget="dot-product"][data-state=live]', timeout=10_000)
    assert page.url.endswith("01-dot-product.html")
    assert page.evaluate("() => window.sameDocument === true")
    page.go_forward()
    page.wait_for_selector('[data-widget="attention"][data-state=live]', timeout=10_000)
    page.close()


def test_anchor_links_stay_ordinary(reader_pages, server):
    page = reader_pages.new_page()
    page.goto(server + "04-attention.html")
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    anchor = page.locator(".chapter h2 .anchor").first
    anchor.click()
    assert "#" in page.url and page.url.split("#")[0].endswith("04-attention.html")


def test_a_malformed_fragment_leaves_the_next_chapter_live(reader_pages, server):
    """#%E0%A4%A is no valid percent-encoding: the in-place move must not throw on it, and the
    swapped-in chapter's widgets go live (they stayed static)."""
    page = reader_pages.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "01-dot-product.html#%E0%A4%A")
    page.wait_for_selector(SETTLED, state="detached", timeout=60_000)
    page.evaluate("""() => { window.sameDocument = true;
        const a = document.createElement('a');
        a.href = '04-attention.html#%E0%A4%A'; a.textContent = 'x'; a.id = 'bad-fragment';
        document.querySelector('.chapter').append(a); }""")
    page.locator("#bad-fragment").click()
    page.wait_for_selector('[data-widget="attention"][data-state=live]', timeout=10_000)
    assert page.evaluate("() => window.sameDocument === true")
    assert page.evaluate("scrollY") == 0  # no such element: the top of the page
    assert errors == []
