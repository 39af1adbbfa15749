"""The search box in Chromium: real queries against the book's index give the expected first
section, the list works from the keyboard, shows formulas as text and more results on demand,
and the index is fetched from the site in parts: its table of sections when the box is first
focused, then a few shards per query. One page (the landing page, whose one widget is
live before the tests type)."""
import re
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BookPage, empty_storage
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
    # a lone character of the running example: the chapter that resolves it, or the one whose
    # task heading asks who it is
    ("它", ("04-attention.html", "13b-trained-model.html"), None),
]


@pytest.fixture(scope="module")
def search_page(reader_context, server):
    # the session's runtime (no boot), with nothing an earlier module kept in its storage: an
    # edited running example would follow every page a hit opens into its address (?example=)
    empty_storage(reader_context)
    page = BookPage(reader_context, server, "index.html")
    yield page
    page.page.close()


def search(page, query):
    """Type the query and wait until the list shows its hits (a query's shards come later)."""
    page.fill(BOX, query)
    page.wait_for_function("([box, q]) => document.querySelector(box + '-results')"
                           ".dataset.query === q.trim()", arg=[BOX, query])


def first_hit(page):
    link = page.page.locator(FIRST)
    expect(link).to_be_visible()
    url = urlsplit(link.get_attribute("data-href"))
    return url.path.rsplit("/", 1)[1], unquote(url.fragment).lower()


def test_index_is_fetched_in_parts_from_the_first_focus(search_page):
    page = search_page.page
    assert not any("/search/" in u for u in search_page.requests)
    with page.expect_response(re.compile(r"/search/meta\.json$")) as response:
        page.focus(BOX)
    assert response.value.ok
    search(page, "位置编码")
    expect(page.locator(FIRST)).to_be_visible()
    parts = [urlsplit(u).path.rsplit("/", 1)[1] for u in search_page.requests if "/search/" in u]
    assert parts[0] == "meta.json"
    shards = [p for p in parts if p.startswith("t")]
    texts = [p for p in parts if p.startswith("c")]
    assert 1 <= len(shards) <= 3 and 1 <= len(texts) <= 8, parts  # 3 bigrams; 8 hits' chapters
    assert len(parts) == len(set(parts)) == 1 + len(shards) + len(texts)


@pytest.mark.parametrize("query,expected,anchor_words", QUERIES)
def test_first_hit(search_page, query, expected, anchor_words):
    search(search_page.page, query)
    expect(search_page.page.locator("#tbook-search-results")).to_be_visible()
    href, fragment = first_hit(search_page)
    titles = search_page.page.locator("#tbook-search-results .search-hit-title").all_inner_texts()
    assert href in ((expected,) if isinstance(expected, str) else expected), f"{query!r}: first hit {href}#{fragment}; titles {titles[:4]}"
    if anchor_words:
        assert anchor_words in fragment, f"{query!r}: first hit #{fragment}"


def test_hits_show_title_chapter_and_marked_snippet(search_page):
    page = search_page.page
    search(page, "softmax")
    first = page.locator("#tbook-search-results > li").first
    chapter = first.locator(".search-hit-chapter")  # absent when the hit is the chapter's title
    where = chapter if chapter.count() else first.locator(".search-hit-title")
    assert where.inner_text().startswith("2. softmax")
    marks = first.locator("mark").all_inner_texts()
    assert marks and all(m.lower() == "softmax" for m in marks)
    assert first.locator(".search-hit-snippet mark").count() >= 1
    # a query made of markup stays text: no element is created from it
    search(page, '<img src=x onerror="window.pwned=1">softmax')
    assert page.locator("#tbook-search-results img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_chinese_marks_are_whole_runs_or_their_bigrams(search_page):
    page = search_page.page
    search(page, "位置编码")
    expect(page.locator(FIRST)).to_be_visible()
    assert page.locator(f"{FIRST} .search-hit-title mark").all_inner_texts() == ["位置编码"]
    # the run is not in the heading "温度": its bigram that is gets marked, merged spans only
    search(page, "温度采样")
    expect(page.locator(FIRST)).to_be_visible()
    assert page.locator(f"{FIRST} .search-hit-title mark").all_inner_texts() == ["温度"]
    marks = page.locator(f"{FIRST} .search-hit-snippet mark").all_inner_texts()
    assert marks and set(marks) <= {"温度", "采样", "温度采样"}, marks


def test_no_match_says_so(search_page):
    page = search_page.page
    search(page, "zzqxj")
    expect(page.locator("#tbook-search-results")).to_be_hidden()
    expect(page.locator(".search-status")).to_have_text("没有找到匹配的小节")


def test_open_list_passes_axe(search_page, axe_source):
    page = search_page.page
    search(page, "注意力")
    page.locator(BOX).press("ArrowDown")
    bad = [v for v in run_axe(page, axe_source) if v["impact"] in ("serious", "critical")]
    assert bad == []


def test_keyboard_navigation_escape_and_enter(search_page):
    page, box = search_page.page, search_page.page.locator(BOX)
    search(page, "LayerNorm")
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
    search(page, "Chinchilla")
    target = page.locator(FIRST).get_attribute("data-href")
    page.locator(FIRST).click()
    page.wait_for_url(target)
    assert urlsplit(page.url).path.endswith("/13-training.html")


def test_search_stays_on_origin_without_errors(search_page):
    assert search_page.off_origin_requests() == []
    assert search_page.errors == []


def test_a_pasted_paragraph_is_searched_by_its_first_characters_only(search_page):
    """A query of 1,000 characters (a paragraph pasted into the box) is read up to its first
    MAX_QUERY (64) characters, which bounds the work of one keystroke whatever is pasted: its
    hits are those of those 64 characters, and the status says so. (How long a search takes is
    a benchmark's figure, benchmarks/search.py's, not a test's.)"""
    page = search_page.page
    text = ("注意力机制让每个位置按相关程度加权汇总其他位置的信息，" * 40)[:1000]
    hits = "() => [...document.querySelectorAll('#tbook-search-results > li')].map(li => li.dataset.href)"
    status = page.locator(".search-status")
    search(page, text[:64])
    first_64, said = page.evaluate(hits), status.inner_text()
    assert first_64 and "只按前" not in said, said
    search(page, text)
    assert status.inner_text() == said + "（只按前 64 个字符搜索）"
    assert page.evaluate(hits) == first_64


def test_formulas_read_as_text_in_titles_and_snippets(search_page):
    page = search_page.page
    search(page, "d_k")
    first = page.locator(FIRST)
    expect(first).to_be_visible()
    assert first.locator(".search-hit-title").inner_text() == "为什么要除以 √dₖ"
    snippet = first.locator(".search-hit-snippet").inner_text()
    assert "dₖ" in snippet and "\\" not in snippet, snippet  # the formula as one reads it
    marks = first.locator(".search-hit-snippet mark").all_inner_texts()
    assert marks and all(m in ("d_k", "dₖ") for m in marks), marks
    search(page, "dk")             # as the index reads dₖ: the formula's characters are marked
    marks = page.locator(f"{FIRST} mark").all_inner_texts()
    assert "dₖ" in marks, marks
    texts = page.locator("#tbook-search-results").inner_text()
    assert "\\" not in texts and "$" not in texts, texts   # no TeX source anywhere


def test_more_results_on_demand_by_click_and_by_key(search_page):
    page = search_page.page
    page.goto(search_page.server + "index.html")
    box, more = page.locator(BOX), page.locator(".search-more")
    options = page.locator("#tbook-search-results > li")
    search(page, "softmax")
    expect(options).to_have_count(8)
    status = page.locator(".search-status").inner_text()
    total = int(re.match(r"(\d+) 个结果，显示前 8 个", status)[1])
    assert total > 16, status
    expect(more).to_be_visible()
    expect(more).to_have_text(f"显示更多结果（还有 {total - 8} 个）")
    first_eight = [options.nth(i).get_attribute("data-href") for i in range(8)]
    more.click()
    expect(options).to_have_count(16)
    assert [options.nth(i).get_attribute("data-href") for i in range(8)] == first_eight
    assert len({options.nth(i).get_attribute("data-href") for i in range(16)}) == 16
    assert page.evaluate("document.activeElement.id") == "tbook-search"  # the box kept focus
    for i in range(16):
        expect(options.nth(i).locator(".search-hit-snippet")).not_to_be_empty()
    for _ in range(17):               # down to the last option, then once more: 8 more come
        box.press("ArrowDown")
    expect(options).to_have_count(24)
    assert box.get_attribute("aria-activedescendant") == options.nth(16).get_attribute("id")
    search(page, "Swin")            # a new query starts from its first 8 again
    expect(options.first).to_be_visible()
    assert options.count() <= 8
    assert search_page.errors == []


def test_search_works_offline_from_the_service_workers_cache(browser, server):
    """Once the reader keeps the whole book (the contents page's button), the service worker
    holds every part of the index: offline, a query no page has asked for yet still finds its
    sections, snippets and more results."""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(server + "index.html")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.get_by_role("button", name=re.compile("离线阅读整本书")).click()
    expect(page.locator(".keep-book [aria-live]")).to_have_text(re.compile("整本书已保存"),
                                                                 timeout=120_000)
    context.set_offline(True)
    page.goto(server + "01-dot-product.html")
    search(page, "梯度裁剪")
    first = page.locator(FIRST)
    expect(first).to_be_visible()
    assert urlsplit(first.get_attribute("data-href")).path.endswith("/13-training.html")
    expect(first.locator(".search-hit-snippet")).not_to_be_empty()
    search(page, "注意力")
    page.locator(".search-more").click()
    expect(page.locator("#tbook-search-results > li")).to_have_count(16)
    assert "无法搜索" not in page.locator(".search-status").inner_text()
    context.close()
