"""Browser tests of the permutation widget (pycore/widgets/permutation/:
view, widget.js), and the widget's seeded shuffle."""
import json

import pytest

from pycore.example import MAX_TOKENS
from pycore.widgets.permutation import seeded_order
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)
from tests.browser.test_example_editor import Page, add, chip

HREF = "06-positional-encoding.html"
TOKENS = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]
WIDTH = 36 + 6 * 22 + 48 + 6 * 22 + 36  # labels, heatmap, the lines' gap, heatmap, labels


# --- the seeded shuffle (pure Python) --------------------------------------------------

def test_seeded_order_is_a_reproducible_permutation():
    assert seeded_order(0) == list(range(9))
    orders = [seeded_order(s) for s in range(1, 200)]
    assert all(sorted(o) == list(range(9)) for o in orders)
    assert all(o != list(range(9)) for o in orders)
    assert len({tuple(o) for o in orders}) == len(orders)  # different seeds, different orders
    assert seeded_order(7) == seeded_order(7)


def test_seeded_order_by_hand_for_seed_1():
    # the generator written out: warm up 4 steps, then Fisher-Yates from the end
    state, order = 1, list(range(9))
    for _ in range(4):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
    for i in range(8, 0, -1):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
        j = (state // 65536) % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert seeded_order(1) == order


# --- the widget ------------------------------------------------------------------------

def shown_max_diff(root):
    return float(root.locator('[data-sci="max_abs_diff"]').inner_text())


def visible(root, selector):
    """The trimmed texts of the elements the reader sees (the spare slots are hidden)."""
    return root.locator(selector).evaluate_all(
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent.trim())")


def shown_order(root):
    return visible(root, ".perm-chip")


def picture_shows_the_move(root, view):
    """Each token's line ends at the row of its new slot (row s at y = 40 + 22 s + 11); without
    positions every new row has the colours of the token's old row, the same vector moved,
    and no line is dashed; with them the dashed lines are the rows whose output changed."""
    before, after, ends, dashed = root.evaluate("""root => {
        const classes = (sel) =>
            [...root.querySelectorAll(sel)].map(c => c.getAttribute('data-div'));
        const links = [...root.querySelectorAll('.perm-heat .link')];
        return [classes('.perm-heat > rect.cell'), classes('.perm-heat > g rect.cell'),
                links.map(l => l.getAttribute('d').split(' ').pop()),
                links.map(l => l.hasAttribute('data-changed'))];
    }""")
    rows = lambda cls, r: cls[6 * r:6 * r + 6]  # noqa: E731
    for slot, token in enumerate(view["perm"]):
        assert float(ends[token].split(",")[1]) == 40 + 22 * slot + 11  # TOP + CELL s + CELL / 2
        if not view["positions"]:
            assert rows(after, slot) == rows(before, token)
    changed = [d > 1e-9 for d in view["diff_per_slot"]]
    assert [dashed[token] for token in view["perm"]] == changed
    assert any(changed) == view["positions"]


def check(root, **params):
    """Every number equals pycore's; the e-notation difference is ~0 without positions and
    clearly positive with them; the picture is pycore's, frames the sentence's n rows and
    shows the move. Returns the view."""
    view = pycore_view("permutation", **params)
    n = view["n"]
    assert_shows(root, view, min_count=3 * 6 * n + 2 * n)
    assert_drawn(root, view, min_count=12 * 6 * 2 * 3 + 12 * 3)
    picture_shows_the_move(root, view)
    assert shown_order(root) == view["tokens"]
    assert root.locator(".perm-heat").get_attribute("viewBox") == f"0 0 {WIDTH} {40 + 22 * n}"
    assert visible(root, ".perm-heat > .row-label") == view["original_tokens"]
    assert visible(root, ".perm-heat > g .row-label") == view["tokens"]
    assert root.locator(".perm-heat rect.cell:not([data-hidden])").count() == 2 * 6 * n
    assert root.locator(".perm-heat .link:not([data-hidden])").count() == n
    assert root.locator(".perm-fallback").inner_text() == view["perm_note"]
    diff = shown_max_diff(root)
    if view["positions"]:
        assert diff > 0.01 and abs(diff - view["max_abs_diff"]) <= 0.006 * view["max_abs_diff"]
    else:
        assert diff <= 1e-12 and view["max_abs_diff"] <= 1e-12
    return view


def test_permutation_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + HREF)
    root = page.locator('[data-widget="permutation"]').first
    assert root.get_attribute("data-state") == "static"
    check(root, **params_of(root))
    # the permutation is chapter 06's Π (P is a patch's side in 11 and 14: pycore/notation.py)
    assert root.locator(".key-figure").inner_text().startswith("最大绝对差 max |A(ΠX) − Π·A(X)|")
    page.close()


def test_shuffle_button_adds_one_to_the_seed(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    check(root, seed=seed)
    for n in (1, 2, 3):
        before = updates(root)
        root.locator("[data-action=shuffle]").click()
        assert updates(root) == before + 1
        view = check(root, seed=seed + n)
        assert root.locator('[data-bind="seed"]').inner_text() == str(seed + n)
        assert view["perm"] == seeded_order(seed + n)


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A new order leaves the sentence and its original outputs; the positions switch the
    sentence alone."""
    root = book_pages("permutation").widget("permutation")
    shuffle = root.locator("[data-action=shuffle]")
    assert parts_came(root, shuffle.click) == [["reordered"]]
    assert parts_came(root, root.locator("[data-control=positions]").click) == \
        [["original", "reordered"]]
    root.locator("[data-action=reset]").click()


def test_positions_switch_makes_the_order_matter(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    switch = root.locator("[data-control=positions]")
    switch.click()
    assert switch.get_attribute("aria-checked") == "true"
    view = check(root, seed=seed, positions=True)
    assert view["max_abs_diff"] > 0.01
    root.locator("[data-action=shuffle]").click()
    check(root, seed=seed + 1, positions=True)
    switch.focus()
    root.page.keyboard.press("Space")  # off again, by keyboard
    assert switch.get_attribute("aria-checked") == "false"
    check(root, seed=seed + 1, positions=False)


def test_reverse_and_rotate_buttons(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    start = seeded_order(seed)
    root.locator("[data-action=reverse]").click()
    check(root, seed=seed, perm=start[::-1])
    root.locator("[data-control=positions]").click()
    root.locator("[data-action=rotate]").click()
    rotated = start[::-1][1:] + start[::-1][:1]
    view = check(root, seed=seed, perm=rotated, positions=True)
    assert shown_order(root) == [TOKENS[i] for i in rotated] == view["tokens"]


def test_arrow_keys_move_the_focused_word(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    order = seeded_order(seed)
    first = root.locator('.perm-chip[data-slot="0"]')
    first.focus()
    root.page.keyboard.press("ArrowRight")
    root.page.keyboard.press("ArrowRight")
    moved = order[1:3] + order[:1] + order[3:]
    check(root, seed=seed, perm=moved)
    # the focus followed the word to slot 2
    assert root.evaluate("root => document.activeElement.dataset.slot") == "2"
    root.page.keyboard.press("ArrowLeft")
    check(root, seed=seed, perm=order[1:2] + order[:1] + order[2:])


def test_dragging_a_word_onto_another_slot(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    order = seeded_order(seed)
    src = root.locator('.perm-chip[data-slot="0"]').bounding_box()
    dst = root.locator('.perm-chip[data-slot="4"]').bounding_box()
    page = root.page
    before = updates(root)
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=6)
    page.mouse.up()
    assert updates(root) == before + 1
    check(root, seed=seed, perm=order[1:5] + order[:1] + order[5:])


def test_reset_restores_the_block(book_pages):
    root = book_pages("permutation").widget("permutation")
    params = params_of(root)
    root.locator("[data-action=shuffle]").click()
    root.locator("[data-control=positions]").click()
    root.locator("[data-action=reverse]").click()
    root.locator("[data-action=reset]").click()
    check(root, **params)
    assert root.locator("[data-control=positions]").get_attribute("aria-checked") == \
        str(params["positions"]).lower()


def test_pointing_at_a_word_lights_its_rows_on_both_sides(book_pages):
    root = book_pages("permutation").widget("permutation")
    view = check(root, **params_of(root))
    slot = view["tokens"].index("马路")
    root.locator(f'.perm-chip[data-slot="{slot}"]').hover()
    lit = root.locator(".perm-heat .linked").evaluate_all(
        "els => els.map(e => e.classList.contains('row-label') ? e.textContent : e.tagName)")
    assert lit.count("马路") == 2 and lit.count("path") == 1  # both row labels, its line
    assert lit.count("rect") == 12  # its six cells on each side (no spare slot lights up)
    cell = root.locator(".perm-heat > g rect.cell").nth(6 * slot + 1)
    cell.hover()
    assert root.locator(".perm-fig [data-readout]").inner_text() == \
        f"马路 → 有生命：{view['shuffled'][slot][1]:.4f}"


# --- the reader's sentence -------------------------------------------------------------

SHORT = ["马路", "因为", "它", "累", "小狗"]
LONG = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了", "小狗", "饿", "它们"]


@pytest.fixture
def sentence_page(server, reader_pages):
    """The chapter in the session's reader context (tests/browser/conftest.py: the edited
    example stays out of other tests and modules), closed after the test."""
    def open_(query):
        page = Page(None, server, HREF + query, context=reader_pages)
        return page, page.page.locator('[data-widget="permutation"]').first

    return open_


@pytest.mark.parametrize("tokens", [SHORT, LONG], ids=["5", "12"])
def test_the_readers_sentence_is_drawn(sentence_page, tokens):
    """One chip, row label, heatmap row and line per token; the shuffle, the buttons and the
    keys reorder this sentence; the shuffle of Pyodide is CPython's."""
    n = len(tokens)
    example = {"tokens": tokens}
    page, root = sentence_page("?example=" + json.dumps(example))
    seed = params_of(root)["seed"]
    view = check(root, seed=seed, example=example)
    assert view["original_tokens"] == tokens and view["perm"] == seeded_order(seed, n)
    assert not root.locator(".sentence-note").count()
    assert root.locator('table[data-matrix="shuffled"]').get_attribute("data-rows") == str(n)
    # the picture's height follows the rows it frames (one unit per px of width over 384)
    box = root.locator(".perm-heat").bounding_box()
    assert abs(box["height"] - box["width"] * (40 + 22 * n) / WIDTH) < 1.5
    root.locator("[data-action=shuffle]").click()
    view = check(root, seed=seed + 1, example=example)
    assert view["perm"] == seeded_order(seed + 1, n)
    root.locator("[data-action=reverse]").click()
    order = seeded_order(seed + 1, n)[::-1]
    check(root, seed=seed + 1, perm=order, example=example)
    # End reaches the last word of the sentence, not a spare slot; → there moves nothing
    root.locator('.perm-chip[data-slot="0"]').focus()
    page.page.keyboard.press("End")
    assert root.evaluate("root => document.activeElement.dataset.slot") == str(n - 1)
    before = updates(root)
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowLeft")  # the last word one slot to the left
    order = order[:n - 2] + [order[n - 1], order[n - 2]]
    assert updates(root) == before + 1
    root.locator("[data-control=positions]").click()
    view = check(root, seed=seed + 1, perm=order, positions=True, example=example)
    assert view["n_changed"] > 0
    assert page.errors == []


@pytest.mark.parametrize("tokens, perm", [
    (SHORT, list(range(8, -1, -1))),  # a link made for the book's nine tokens
    (None, list(range(MAX_TOKENS))),  # one made for a sentence of twelve
], ids=["9-for-5", "12-for-book"])
def test_a_perm_made_for_another_sentence_shows_the_seeds_order(sentence_page, tokens, perm):
    example = {"tokens": tokens} if tokens else None
    query = "?" + (f"example={json.dumps(example)}&" if tokens else "")
    page, root = sentence_page(query + "permutation-06-positional-encoding="
                               + json.dumps({"perm": perm}))
    n = len(tokens or TOKENS)
    extra = {"example": example} if tokens else {}
    view = check(root, seed=1, perm=perm, **extra)
    assert view["perm"] == seeded_order(1, n)
    assert f"不是这句话 {n} 个词的排列" in root.locator(".perm-fallback").inner_text()
    root.locator("[data-action=rotate]").click()  # an order of this sentence: the note goes
    rotated = seeded_order(1, n)[1:] + seeded_order(1, n)[:1]
    check(root, seed=1, perm=rotated, **extra)
    assert not root.locator(".perm-fallback").is_visible()
    assert page.errors == []


def test_the_widget_follows_the_editor_and_its_reset(sentence_page):
    page, root = sentence_page("")
    seed = params_of(root)["seed"]
    root.locator('.perm-chip[data-slot="0"]').focus()
    page.page.keyboard.press("ArrowRight")  # a hand-made order of the nine
    order = seeded_order(seed)
    order = order[1:2] + order[:1] + order[2:]
    check(root, seed=seed, perm=order)
    chip(page, "没有").click()  # eight tokens: the nine's order is set aside for the seed's
    tokens = [t for t in TOKENS if t != "没有"]
    assert page.sentence() == tokens
    view = check(root, seed=seed, perm=order, example={"tokens": tokens})
    assert view["perm"] == seeded_order(seed, 8) and view["perm_note"]
    root.locator("[data-action=shuffle]").click()
    view = check(root, seed=seed + 1, example={"tokens": tokens})
    add(page, "汽车", after="马路")
    add(page, "饿", after="累")
    tokens = tokens[:3] + ["汽车"] + tokens[3:7] + ["饿"] + tokens[7:]
    assert page.sentence() == tokens
    view = check(root, seed=seed + 1, example={"tokens": tokens})
    assert "汽车" in shown_order(root) and len(shown_order(root)) == 10
    page.editor().locator("[data-action=reset]").click()
    assert page.sentence() == TOKENS
    check(root, seed=seed + 1)
    root.locator("[data-action=reset]").click()
    check(root, **params_of(root))
    assert page.errors == []
