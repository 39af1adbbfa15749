"""Browser tests of the bpe widget (pycore/widgets/bpe/: view, widget.js)."""
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

SLIDER = "input[type=range][data-control=k]"


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def corpus(root, name):
    return root.locator(f"""[data-control=corpus] [data-value='"{name}"']""")


def visible_boxes(root, lang):
    """(x, width) of the token boxes of one sentence the page draws (hidden slots left out)."""
    return root.evaluate(f"""root => [...root.querySelectorAll('rect.tok')]
        .filter(r => r.dataset.attr.startsWith('x={lang}.') && !r.hasAttribute('data-hidden'))
        .map(r => [Number(r.getAttribute('x')), Number(r.getAttribute('width'))])""")


def test_bpe_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "03-embeddings.html")
    root = page.locator('[data-widget="bpe"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("bpe", **params_of(root))
    assert_shows(root, view, min_count=45 + 56 + 8 * 6)
    assert_drawn(root, view, min_count=(45 + 56) * 9)
    assert text(root, "zh.n_tokens") == "39" and text(root, "en.n_tokens") == "18"
    page.close()


def test_no_merges_then_one_merge_at_a_time(book_pages):
    """k = 0: every byte is a token (45 and 56 boxes, one byte wide each); then the stepper
    adds merges one at a time, and the token the newest merge made is framed."""
    root = book_pages("bpe").widget("bpe")
    before = updates(root)
    root.locator(SLIDER).fill("0")
    assert updates(root) > before
    view = pycore_view("bpe", k=0)
    assert_shows(root, view)
    assert_drawn(root, view)
    zh, en = visible_boxes(root, "zh"), visible_boxes(root, "en")
    assert len(zh) == 45 and len(en) == 56
    assert {w for _, w in zh + en} == {11}  # one byte: 13 units a byte, less a 2-unit gap
    assert root.locator("rect.tok[data-new]").count() == 0
    root.locator("[data-control=k] [data-step='1']").click()  # k = 1: h + e -> he
    view = pycore_view("bpe", k=1)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert text(root, "en.n_tokens") == "54"  # "he" twice: in The and the
    new = root.locator("rect.tok[data-new]")
    assert new.count() == 2 and {new.nth(i).get_attribute("width") for i in range(2)} == {"24"}
    stepper = root.locator("[data-control=k][role=spinbutton]")
    stepper.focus()
    for _ in range(3):
        root.page.keyboard.press("ArrowRight")
    assert stepper.get_attribute("aria-valuenow") == "4"
    view = pycore_view("bpe", k=4)
    assert_shows(root, view)
    assert_drawn(root, view)


def test_a_balanced_corpus_makes_chinese_cheaper(book_pages):
    """At k = 300 the English-centric merges leave Chinese at 39 tokens for English's 18; the
    balanced merges give 17 and 20, and 小猫 becomes one box six bytes wide."""
    root = book_pages("bpe").widget("bpe")
    assert text(root, "ratio") == "2.17"
    corpus(root, "balanced").click()
    assert corpus(root, "balanced").get_attribute("aria-checked") == "true"
    view = pycore_view("bpe", corpus="balanced")
    assert_shows(root, view)
    assert_drawn(root, view)  # the staircases of the other corpus too
    assert (text(root, "zh.n_tokens"), text(root, "en.n_tokens")) == ("17", "20")
    assert visible_boxes(root, "zh")[0] == [5, 6 * 13 - 2]
    # the chart's mark sits on both staircases at k = 300
    dots = root.locator("circle.bpe-dot").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('cy')))")
    assert dots == [p["y"] for p in view["chart"]["mark"]["points"]]
    root.locator(SLIDER).fill("450")  # more merges than the English-centric corpus has
    view = pycore_view("bpe", corpus="balanced", k=450)
    assert_shows(root, view)
    corpus(root, "english_centric").focus()
    root.page.keyboard.press("Space")
    view = pycore_view("bpe", k=450)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert "409" in text(root, "latest")


def test_reset_restores_the_block(book_pages):
    root = book_pages("bpe").widget("bpe")
    params = params_of(root)
    root.locator(SLIDER).fill("12")
    corpus(root, "balanced").click()
    assert_shows(root, pycore_view("bpe", k=12, corpus="balanced"))
    root.locator("[data-action=reset]").click()
    view = pycore_view("bpe", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert corpus(root, "english_centric").get_attribute("aria-checked") == "true"


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """k brings the tokens, the corpus its chart and the tokens; the characters never again."""
    root = book_pages("bpe").widget("bpe")
    assert parts_came(root, lambda: root.locator(SLIDER).fill("20")) == [["tokens"]]
    assert parts_came(root, lambda: corpus(root, "balanced").click()) == \
        [["corpus_chart", "tokens"]]
    assert_shows(root, pycore_view("bpe", k=20, corpus="balanced"))
    root.locator("[data-action=reset]").click()
