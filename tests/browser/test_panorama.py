"""The panorama widget (pycore/widgets/panorama/: view, widget.js): its counts and
shapes against hand arithmetic, then in Chromium: select blocks by click and keyboard, change
d, V and L, follow every block's links to a page of the built site, reset; the diagram is
drawn in GPT-2's Pre-LN order with a final LayerNorm."""
import os

import pytest

from pycore.widgets import compute
from pycore.widgets.panorama import KEYS, block_table
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

NAME = "panorama"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# 12 edges, 11 counts in the boxes (the two additions have none), 6 panel lines, 3 link slots,
# L and "x L", 5 totals
SHOWN = 12 + 11 + 6 + 3 + 2 + 5
GPT2 = {"d_model": 768, "vocab": 50257, "layers": 12}


# --- the view, without a browser -------------------------------------------------------------

def by_key(v):
    """Every block of the view's sizes, by key."""
    blocks, _, _ = block_table(v["d_model"], v["vocab"], v["layers"])
    return {b["key"]: b for b in blocks}


def panorama_view(**params):
    return compute("panorama", params)


def test_gpt2_small_counts_by_hand():
    v = panorama_view(**GPT2, block="attention")
    b = by_key(v)
    assert b["embed"]["params"] == 50257 * 768 == 38_597_376
    assert b["attention"]["params"] == 4 * 768 * 768 == 2_359_296
    assert b["attention"]["total"] == 12 * 2_359_296 == 28_311_552
    assert b["ffn"]["params"] == 2 * 768 * 3072 == 4_718_592
    assert b["norm-1"]["params"] == b["norm-2"]["params"] == b["final-norm"]["params"] == 2 * 768
    assert [b[k]["params"] for k in ("text", "tokens", "add-1", "add-2", "output", "softmax",
                                     "sampling")] == [0] * 7
    # the final LayerNorm (2 d) is counted once, after the L layers
    assert v["model_total"] == \
        38_597_376 + 12 * (2_359_296 + 4_718_592 + 2 * 1536) + 2 * 768 == 123_570_432
    assert v["model_total_text"] == "123,570,432" and v["model_total_short"] == "123.6M"
    assert v["estimate_text"] == "123,532,032"  # 12 * 12 * 768^2 + 50257 * 768
    assert b["attention"]["params_line"] == "4 · d² = 4 × 768² = 2,359,296（每层）；× 12 层 = 28,311,552"
    assert "38,597,376" in b["output"]["params_line"]


def test_shapes_on_the_edges():
    v = panorama_view(**GPT2, block="text")
    # embedding -> LN -> attention -> (+) -> LN -> FFN -> (+) -> final LN -> output: 8 x (9 x d)
    assert v["edges"] == ["1 个字符串", "9 个整数"] + ["9 × d = 9 × 768"] * 8 + \
        ["9 × V = 9 × 50257", "取最后一行：V = 50257"]
    b = by_key(v)
    assert (b["ffn"]["inner"], b["sampling"]["in_text"]) == ("中间层 9 × 4d = 9 × 3072", "V = 50257")
    small = panorama_view(d_model=6, vocab=10, layers=2, block="ffn")
    assert small["sel"]["in_text"] == "9 × d = 9 × 6"
    assert (small["sel"]["params"], small["sel"]["total"]) == (8 * 36, 2 * 8 * 36)


def test_every_block_links_to_a_chapter():
    v = panorama_view(**GPT2, block="text")
    for b in by_key(v).values():
        assert b["links"] and not b["links"][0]["hidden"], b["key"]
        for link in (link for link in b["links"] if not link["hidden"]):
            md = link["href"].replace(".html", ".md")
            assert os.path.exists(os.path.join(ROOT, "book", md)), link


# --- the page --------------------------------------------------------------------------------

def block(root, key):
    """The diagram's block for key: a radio of the `block` choice."""
    return root.locator(f"""[data-control=block] [data-value='"{key}"']""")


def pressed(root):
    return [b.get_attribute("data-value").strip('"') for b in
            root.locator('[data-control=block] [aria-checked="true"]').all()]


def links_of(view):
    """The selected block's links (the panel has MAX_LINKS slots, the unused ones hidden)."""
    return [[link["href"], link["title"]] for link in view["sel"]["links"] if not link["hidden"]]


def links_shown(root):
    return root.locator(".pano-link-list a:not([hidden])").evaluate_all(
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
    assert links_shown(root) == links_of(view)
    page.close()


def test_click_two_blocks(book_pages):
    root = book_pages(NAME).widget(NAME)
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    before = updates(root)
    block(root, "embed").click()
    view = pycore_view(NAME, block="embed")
    assert_shows(root, view, min_count=SHOWN)
    assert pressed(root) == ["embed"]
    assert root.locator('[data-bind="sel.params_line"]').inner_text() == \
        "V · d = 50257 × 768 = 38,597,376"
    block(root, "sampling").click()
    view = pycore_view(NAME, block="sampling")
    assert_shows(root, view, min_count=SHOWN)
    assert links_shown(root) == links_of(view)
    assert updates(root) == before + 2
    assert not root.locator("dd.pano-inner").is_visible()


def test_keyboard_selects_a_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    before = updates(root)
    block(root, "softmax").focus()
    root.page.keyboard.press("Enter")
    assert_shows(root, pycore_view(NAME, block="softmax"), min_count=SHOWN)
    root.page.keyboard.press("ArrowLeft")  # the block before softmax in data order
    assert_shows(root, pycore_view(NAME, block="output"), min_count=SHOWN)
    assert pressed(root) == ["output"] and updates(root) == before + 2
    # the blocks are one Tab stop: the chosen one
    stops = root.locator("[data-control=block] [data-value]").evaluate_all(
        "bs => bs.filter(b => b.tabIndex === 0).map(b => b.dataset.value)")
    assert stops == ['"output"']
    root.page.keyboard.press("End")
    assert pressed(root) == ["sampling"]
    block(root, "ffn").focus()
    root.page.keyboard.press("Enter")
    assert root.locator("dd.pano-inner").inner_text() == "中间层 9 × 4d = 9 × 3072"


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A block brings its explanation alone, a size the numbers; the diagram never comes again."""
    root = book_pages(NAME).widget(NAME)
    assert parts_came(root, lambda: block(root, "embed").click()) == [["chosen"]]
    assert parts_came(root, lambda: root.locator("[data-control=layers]").fill("6")) == \
        [["chosen", "numbers"]]
    root.locator("[data-action=reset]").click()


def test_sizes_change_shapes_and_counts(book_pages):
    root = book_pages(NAME).widget(NAME)
    block(root, "attention").click()
    before = updates(root)
    root.locator("[data-control=d_model]").fill("512")
    root.locator("[data-control=vocab]").fill("32000")
    root.locator("[data-control=layers]").fill("6")
    assert updates(root) == before + 3
    sizes = {"d_model": 512, "vocab": 32000, "layers": 6}
    assert_shows(root, pycore_view(NAME, **sizes), min_count=SHOWN)
    assert root.locator('[data-bind="edges.10"]').text_content() == "9 × V = 9 × 32000"
    assert root.locator('[data-bind="model_total_text"]').inner_text() == \
        f"{32000 * 512 + 6 * (12 * 512 * 512 + 4 * 512) + 2 * 512:,}"
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
    block(root, key).click()
    view = pycore_view(NAME, block=key)
    assert_shows(root, view, min_count=SHOWN)
    links = links_shown(root)
    assert links == links_of(view)
    for href, _ in links:
        assert (site / href).is_file(), href


def test_reset_restores_the_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    block(root, "tokens").click()
    root.locator("[data-control=layers]").fill("3")
    assert_shows(root, pycore_view(NAME, block="tokens", layers=3), min_count=SHOWN)
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    assert pressed(root) == ["attention"]
    assert root.locator("[data-control=layers]").input_value() == "12"


DIAGRAM = """root => [...root.querySelectorAll('[data-control=block] [data-value]')].map(b => {
    const box = b.querySelector('.box');
    const y = Number(box.getAttribute(box.tagName === 'circle' ? 'cy' : 'y'));
    return [JSON.parse(b.dataset.value), b.querySelector('.name').textContent, y];
})"""


def test_the_diagram_is_pre_ln_with_a_final_layernorm(book_pages):
    """Top to bottom in data order: LayerNorm before each sublayer, the residual addition
    after it, a final LayerNorm between the L layers and the output projection; the frame of
    the repeated layer holds the six repeated blocks and not the final LayerNorm; a residual
    path goes around each LayerNorm and its sublayer. Every bound attribute is pycore's."""
    root = book_pages(NAME).widget(NAME)
    view = pycore_view(NAME)
    drawn = root.evaluate(DIAGRAM)
    assert [k for k, _, _ in drawn] == KEYS
    ys = [y for _, _, y in drawn]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)  # one below the other
    names = [n for _, n, _ in drawn]
    assert names[KEYS.index("norm-1"):KEYS.index("output") + 1] == \
        ["LayerNorm", "多头注意力", "残差相加", "LayerNorm", "前馈网络", "残差相加",
         "最终 LayerNorm", "输出投影"]
    frame = root.locator(".pano-frame")
    top = float(frame.get_attribute("y"))
    bottom = top + float(frame.get_attribute("height"))
    inside = [k for k, _, y in drawn if top < y < bottom]
    assert inside == ["norm-1", "attention", "add-1", "norm-2", "ffn", "add-2"]
    residuals = root.locator("path.pano-res").evaluate_all("ps => ps.map(p => p.getAttribute('d'))")
    assert residuals == [r["d"] for r in view["fig"]["residuals"]] and len(residuals) == 2
    y = dict((k, y) for k, _, y in drawn)
    for (start, end), d in zip([("norm-1", "add-1"), ("norm-2", "add-2")], residuals):
        y0, y1 = float(d.split()[0].split(",")[1]), float(d.split()[-1][1:])
        assert y0 < y[start] and y1 == y[end]  # from above the LayerNorm into the addition
    assert root.locator('[data-bind="counts.9"]').text_content() == "1.5K"  # 2 d = 1536
    assert_drawn(root, view, min_count=3 * 2 + 1)
    block(root, "ffn").click()
    root.locator("[data-control=d_model]").fill("1024")
    view = pycore_view(NAME, block="ffn", d_model=1024)
    assert_drawn(root, view)
    assert root.locator(".pano-link-list a:not([hidden])").count() == 2
    assert root.locator('[data-control=block] [aria-checked="true"] .name').text_content() == "前馈网络"
    assert root.locator('[data-bind="counts.7"]').text_content() == "8.4M/层"  # 8 * 1024^2
