"""The search box in Chromium: real queries against the book's index give the expected first
section, the list works from the keyboard, and the index is fetched from the site only when
the box is first focused. One page (the landing page: no widgets, no runtime to wait for)."""
import re
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BookPage
from tests.browser.harness import run_axe

BOX = "#tbook-search"
FIRST = "#tbook-search-results > li:first-child"

# (query, the first hit's page and, if given, words its #anchor must hold)
QUERIES = [
    ("softmax", "02-softmax.html", None),
    ("位置编码", "06-positional-encoding.html", None),
    ("注意力", "04-attention.html", None),
    ("LayerNorm", "07-encoder-layer.html", "layernorm"),
    ("layern", "07-encoder-layer.html", "layernorm"),       # prefix of an ASCII word
    ("KV cache", "09-sampling.html", "kv"),
    ("ViT", "11-vit.html", None),
    ("Chinchilla", "13-training.html", None),
    ("RoPE", "06-positional-encoding.html", "rope"),
    ("因果掩码", "08-decoder.html", None),
    ("top-p", "09-sampling.html", "top-p"),
    ("BPE", "03-embeddings.html", "bpe"),
    ("残差连接", "07-encoder-layer.html", None),
    ("点积", "01-dot-product.html", None),
    ("多头注意力", "05-multi-head.html", None),
    ("Swin", "11-vit.html", "swin"),
    # added with the bigram cut (FORMAT 2)
    ("参数量", "10-parameters.html", "参数量"),
    ("KV 缓存", "09-sampling.html", "kv"),                 # ASCII word and Chinese run together
    ("键值缓存", "09-sampling.html", "kv"),                 # not in the book verbatim: OR over bigrams
    ("温度采样", "09-sampling.html", "温度"),               # ditto
    ("它", "04-attention.html", None),                     # a lone character of the running example
]


@pytest.fixture(scope="module")
def search_page(browser, server):
    page = BookPage(browser, server, "index.html")
    yield page
    page.page.close()


def first_hit(page):
    link = page.page.locator(FIRST)
    expect(link).to_be_visible()
    url = urlsplit(link.get_attribute("data-href"))
    return url.path.rsplit("/", 1)[1], unquote(url.fragment).lower()


def test_index_is_fetched_on_first_focus(search_page):
    page = search_page.page
    assert not any("search-index.json" in u for u in search_page.requests)
    with page.expect_response(re.compile(r"/search-index\.json$")) as response:
        page.focus(BOX)
    assert response.value.ok


@pytest.mark.parametrize("query,expected,anchor_words", QUERIES)
def test_first_hit(search_page, query, expected, anchor_words):
    search_page.page.fill(BOX, query)
    expect(search_page.page.locator("#tbook-search-results")).to_be_visible()
    href, fragment = first_hit(search_page)
    titles = search_page.page.locator("#tbook-search-results .search-hit-title").all_inner_texts()
    assert href == expected, f"{query!r}: first hit {href}#{fragment}; titles {titles[:4]}"
    if anchor_words:
        assert anchor_words in fragment, f"{query!r}: first hit #{fragment}"


def test_hits_show_title_chapter_and_marked_snippet(search_page):
    page = search_page.page
    page.fill(BOX, "softmax")
    first = page.locator("#tbook-search-results > li").first
    chapter = first.locator(".search-hit-chapter")  # absent when the hit is the chapter's title
    where = chapter if chapter.count() else first.locator(".search-hit-title")
    assert where.inner_text().startswith("2. softmax")
    marks = first.locator("mark").all_inner_texts()
    assert marks and all(m.lower() == "softmax" for m in marks)
    assert first.locator(".search-hit-snippet mark").count() >= 1
    # a query made of markup stays text: no element is created from it
    page.fill(BOX, '<img src=x onerror="window.pwned=1">softmax')
    assert page.locator("#tbook-search-results img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_chinese_marks_are_whole_runs_or_their_bigrams(search_page):
    page = search_page.page
    page.fill(BOX, "位置编码")
    expect(page.locator(FIRST)).to_be_visible()
    assert page.locator(f"{FIRST} .search-hit-title mark").all_inner_texts() == ["位置编码"]
    # the run is not in the heading "温度": its bigram that is gets marked, merged spans only
    page.fill(BOX, "温度采样")
    expect(page.locator(FIRST)).to_be_visible()
    assert page.locator(f"{FIRST} .search-hit-title mark").all_inner_texts() == ["温度"]
    marks = page.locator(f"{FIRST} .search-hit-snippet mark").all_inner_texts()
    assert marks and set(marks) <= {"温度", "采样", "温度采样"}, marks


def test_no_match_says_so(search_page):
    page = search_page.page
    page.fill(BOX, "zzqxj")
    expect(page.locator("#tbook-search-results")).to_be_hidden()
    expect(page.locator(".search-status")).to_have_text("没有找到匹配的小节")


def test_open_list_passes_axe(search_page, axe_source):
    page = search_page.page
    page.fill(BOX, "注意力")
    page.locator(BOX).press("ArrowDown")
    bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
    assert bad == []


def test_keyboard_navigation_escape_and_enter(search_page):
    page, box = search_page.page, search_page.page.locator(BOX)
    page.fill(BOX, "LayerNorm")
    options = page.locator("#tbook-search-results > li")
    assert options.count() >= 2
    box.press("ArrowDown")
    box.press("ArrowDown")
    second_id = options.nth(1).get_attribute("id")
    assert box.get_attribute("aria-activedescendant") == second_id
    assert options.nth(1).get_attribute("aria-selected") == "true"
    box.press("ArrowUp")
    assert box.get_attribute("aria-activedescendant") == options.nth(0).get_attribute("id")
    assert options.nth(1).get_attribute("aria-selected") == "false"
    box.press("Escape")
    expect(page.locator("#tbook-search-results")).to_be_hidden()
    assert box.get_attribute("aria-expanded") == "false" and box.input_value() == "LayerNorm"
    box.press("ArrowDown")          # opens the list again, first option active
    expect(page.locator("#tbook-search-results")).to_be_visible()
    target = options.nth(0).get_attribute("data-href")
    box.press("Enter")
    page.wait_for_url(target)
    assert urlsplit(page.url).path.endswith("/07-encoder-layer.html")
    # the slash key focuses the box on any page
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "tbook-search"


def test_click_on_a_hit_opens_it_from_another_page(search_page):
    page = search_page.page       # now on 07-encoder-layer.html: a fresh box, index fetched again
    page.fill(BOX, "Chinchilla")
    target = page.locator(FIRST).get_attribute("data-href")
    page.locator(FIRST).click()
    page.wait_for_url(target)
    assert urlsplit(page.url).path.endswith("/13-training.html")


def test_search_stays_on_origin_without_errors(search_page):
    assert search_page.off_origin_requests() == []
    assert search_page.errors == []


def test_a_pasted_paragraph_is_searched_within_a_frame(search_page):
    """A query of 1,000 characters (a paragraph pasted into the box) is read up to its first
    MAX_QUERY characters, and one input event costs well under a frame."""
    page = search_page.page
    page.fill(BOX, "softmax")  # the index is loaded
    expect(page.locator("#tbook-search-results")).to_be_visible()
    times = page.evaluate("""(box) => {
        const input = document.querySelector(box);
        const text = '注意力机制让每个位置按相关程度加权汇总其他位置的信息，'.repeat(40).slice(0, 1000);
        const once = (n) => {
            input.value = text.slice(0, n);
            const t = performance.now();
            input.dispatchEvent(new Event('input'));
            return performance.now() - t;
        };
        const median = (n) => Array.from({ length: 7 }, () => once(n)).sort((a, b) => a - b)[3];
        return [median(8), median(200), median(1000)];
    }""", BOX)
    assert max(times) < 16, f"one input took {max(times):.1f} ms (8, 200, 1000 characters: {times})"
    assert "只按前" in page.locator(".search-status").inner_text()
    expect(page.locator("#tbook-search-results > li").first).to_be_visible()
