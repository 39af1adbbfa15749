"""The panorama widget (pycore/widgets/panorama.py, assets/widgets/panorama.js): its counts and
shapes against hand arithmetic, then in Chromium: select blocks by click and keyboard, change
d, V and L, follow every block's links to a page of the built site, reset."""
import os

import pytest

from pycore.widgets.panorama import KEYS, view as panorama_view
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

NAME = "panorama"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# 9 edges, 5 per-block counts, 6 panel lines, L twice, 4 totals
SHOWN = 9 + 5 + 6 + 2 + 4
GPT2 = {"d_model": 768, "vocab": 50257, "layers": 12}


# --- the view, without a browser -------------------------------------------------------------

def by_key(v):
    return {b["key"]: b for b in v["blocks"]}


def test_gpt2_small_counts_by_hand():
    v = panorama_view(**GPT2, block="attention")
    b = by_key(v)
    assert b["embed"]["params"] == 50257 * 768 == 38_597_376
    assert b["attention"]["params"] == 4 * 768 * 768 == 2_359_296
    assert b["attention"]["total"] == 12 * 2_359_296 == 28_311_552
    assert b["ffn"]["params"] == 2 * 768 * 3072 == 4_718_592
    assert b["add-norm-1"]["params"] == b["add-norm-2"]["params"] == 2 * 768
    assert [b[k]["params"] for k in ("text", "tokens", "output", "softmax", "sampling")] == [0] * 5
    assert v["model_total"] == 38_597_376 + 12 * (2_359_296 + 4_718_592 + 2 * 1536) == 123_568_896
    assert v["model_total_text"] == "123,568,896" and v["model_total_short"] == "123.6M"
    assert v["estimate_text"] == "123,532,032"  # 12 * 12 * 768^2 + 50257 * 768
    assert b["attention"]["params_line"] == "4 · d² = 4 × 768² = 2,359,296（每层）；× 12 层 = 28,311,552"
    assert "38,597,376" in b["output"]["params_line"]


def test_shapes_on_the_edges():
    v = panorama_view(**GPT2, block="text")
    assert v["edges"] == ["1 个字符串", "9 个整数"] + ["9 × d = 9 × 768"] * 5 + \
        ["9 × V = 9 × 50257", "9 × V → 取最后一行：V = 50257"]
    b = by_key(v)
    assert (b["ffn"]["inner"], b["sampling"]["in_text"]) == ("中间层 9 × 4d = 9 × 3072", "V = 50257")
    small = panorama_view(d_model=6, vocab=10, layers=2, block="ffn")
    assert small["sel"]["in_text"] == "9 × d = 9 × 6"
    assert (small["sel"]["params"], small["sel"]["total"]) == (8 * 36, 2 * 8 * 36)


def test_every_block_links_to_a_chapter():
    v = panorama_view(**GPT2, block="text")
    for b in v["blocks"]:
        assert b["links"], b["key"]
        for link in b["links"]:
            md = link["href"].replace(".html", ".md")
            assert os.path.exists(os.path.join(ROOT, "book", md)), link


# --- the page --------------------------------------------------------------------------------

def pressed(root):
    return [b.get_attribute("data-block") for b in
            root.locator('[data-block][aria-pressed="true"]').all()]


def links_shown(root):
    return root.locator(".pano-link-list a").evaluate_all(
        "as => as.map(a => [a.getAttribute('href'), a.textContent])")


def test_panorama_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "00-overview.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert params == {**GPT2, "block": "attention"}  # the chapter's GPT-2 small sizes
    view = pycore_view(NAME, **params)
    assert_shows(root, view, min_count=SHOWN)
    assert links_shown(root) == [[l["href"], l["title"]] for l in view["sel"]["links"]]
    page.close()


def test_click_two_blocks(book_pages):
    root = book_pages(NAME).widget(NAME)
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    before = updates(root)
    root.locator('[data-block="embed"]').click()
    view = pycore_view(NAME, block="embed")
    assert_shows(root, view, min_count=SHOWN)
    assert pressed(root) == ["embed"]
    assert root.locator('[data-bind="sel.params_line"]').inner_text() == \
        "V · d = 50257 × 768 = 38,597,376"
    root.locator('[data-block="sampling"]').click()
    view = pycore_view(NAME, block="sampling")
    assert_shows(root, view, min_count=SHOWN)
    assert links_shown(root) == [[l["href"], l["title"]] for l in view["sel"]["links"]]
    assert updates(root) == before + 2
    assert not root.locator("dd.pano-inner").is_visible()


def test_keyboard_selects_a_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    before = updates(root)
    root.locator('[data-block="softmax"]').focus()
    root.page.keyboard.press("Enter")
    assert_shows(root, pycore_view(NAME, block="softmax"), min_count=SHOWN)
    root.page.keyboard.press("Shift+Tab")  # the block before softmax in data order
    root.page.keyboard.press("Space")
    assert_shows(root, pycore_view(NAME, block="output"), min_count=SHOWN)
    assert pressed(root) == ["output"] and updates(root) == before + 2
    root.locator('[data-block="ffn"]').focus()
    root.page.keyboard.press("Enter")
    assert root.locator("dd.pano-inner").inner_text() == "中间层 9 × 4d = 9 × 3072"


def test_sizes_change_shapes_and_counts(book_pages):
    root = book_pages(NAME).widget(NAME)
    root.locator('[data-block="attention"]').click()
    before = updates(root)
    root.locator("[data-control=d_model]").fill("512")
    root.locator("[data-control=vocab]").fill("32000")
    root.locator("[data-control=layers]").fill("6")
    assert updates(root) == before + 3
    sizes = {"d_model": 512, "vocab": 32000, "layers": 6}
    assert_shows(root, pycore_view(NAME, **sizes), min_count=SHOWN)
    assert root.locator('[data-bind="edges.7"]').inner_text() == "9 × V = 9 × 32000"
    assert root.locator('[data-bind="model_total_text"]').inner_text() == \
        f"{32000 * 512 + 6 * (12 * 512 * 512 + 4 * 512):,}"
    # arrow key on a number input: one more layer
    root.locator("[data-control=layers]").focus()
    root.page.keyboard.press("ArrowUp")
    assert_shows(root, pycore_view(NAME, **{**sizes, "layers": 7}), min_count=SHOWN)
    # a value out of range is ignored until it is valid again
    n = updates(root)
    root.locator("[data-control=d_model]").fill("0")
    assert updates(root) == n
    root.locator("[data-control=d_model]").fill("6")
    view = pycore_view(NAME, **{**sizes, "layers": 7, "d_model": 6})
    assert_shows(root, view, min_count=SHOWN)
    assert root.locator('[data-bind="sel.params_line"]').inner_text() == \
        "4 · d² = 4 × 6² = 144（每层）；× 7 层 = 1,008"


@pytest.mark.parametrize("key", KEYS)
def test_each_block_links_to_a_built_page(book_pages, site, key):
    root = book_pages(NAME).widget(NAME)
    root.locator(f'[data-block="{key}"]').click()
    view = pycore_view(NAME, block=key)
    assert_shows(root, view, min_count=SHOWN)
    links = links_shown(root)
    assert links == [[l["href"], l["title"]] for l in view["sel"]["links"]]
    for href, _ in links:
        assert (site / href).is_file(), href


def test_reset_restores_the_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    root.locator('[data-block="tokens"]').click()
    root.locator("[data-control=layers]").fill("3")
    assert_shows(root, pycore_view(NAME, block="tokens", layers=3), min_count=SHOWN)
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    assert pressed(root) == ["attention"]
    assert root.locator("[data-control=layers]").input_value() == "12"
