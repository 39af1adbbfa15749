"""Browser tests of the example editor (pycore/widgets/example_editor/:
view, widget.js, assets/widgets/example.js): the reader edits the running
example, and every widget over it on the page shows pycore's numbers for the edited example;
the URL and the browser's storage keep it (a reload, the next chapter), 重置 restores the
book's example, and junk in the URL shows the book's example without an error.

The module's tests open their pages in the session's reader context (conftest.py: an edited
example must not leak into the pages other tests share), whose runtime boots once: each test
starts with that context's storage empty and closes its pages. A test that needs a browser that never
saw the example opens a context of its own."""
import json
import math
from urllib.parse import parse_qs, urlsplit

import pytest

from pycore import example as book
from tests.browser.harness import (PRESS, RECORD, STOP, assert_drawn, assert_shows, params_of,
                                   parts_came, pycore_view)
from tests.browser.settle import settle

# the chapters whose experiments edit the example, and the widgets there that follow it
CHAPTERS = {
    "03-embeddings.html": ["embedding"],
    "04-attention.html": ["attention"],
    "05-multi-head.html": ["multi-head"],
    "06-positional-encoding.html": ["permutation"],
    "07-encoder-layer.html": ["encoder-layer"],
    "08-decoder.html": ["attention"],
    "09-sampling.html": ["kv-cache"],
}
# the widgets that draw the reader's sentence: every one over the example, the editor's
# preview too
DRAW_THE_SENTENCE = {"attention", "embedding", "permutation", "kv-cache", "encoder-layer",
                     "multi-head", "example-editor"}
ROAD_ALIVE = book.default_example()["x"]
ROAD_ALIVE[3][1] = 1  # 马路 gets 有生命: the experiment of chapters 3, 4, 6 and 8
EDITED = {"x": ROAD_ALIVE}


class Page:
    """A chapter, with its console errors: in `context`, else in a new context of its own."""

    def __init__(self, browser, server, href, context=None, viewport=None):
        self.own_context = context is None
        self.context = browser.new_context() if context is None else context
        self.page = self.context.new_page()
        if viewport:
            self.page.set_viewport_size(viewport)
        self.server, self.errors = server, []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.goto(href)

    def goto(self, href):
        self.page.goto(self.server + href)
        self.wait_live()

    def wait_live(self):
        self.page.wait_for_selector("[data-widget][data-state=static], "
                                    "[data-widget][data-state=loading]",
                                    state="detached", timeout=60_000)
        self.unfold()

    def unfold(self):
        """Open the editor as a reader does: from chapter 4 on it is folded under the line
        of its sentence (its 改例子)."""
        fold = self.editor().locator("details.ex-fold")
        if fold.count() and fold.get_attribute("open") is None:
            fold.locator("summary").click()

    def editor(self):
        return self.page.locator('[data-widget="example-editor"]').first

    def cell(self, row, col):
        return self.editor().locator(f'.ex-cell[data-row="{row}"][data-col="{col}"]')

    def url_example(self):
        settle(self.page)  # the URL is written once the page has caught up (example.js)
        raw = parse_qs(urlsplit(self.page.url).query).get("example")
        return json.loads(raw[0]) if raw else None

    def stored_example(self):
        settle(self.page)
        raw = self.page.evaluate("() => localStorage.getItem('tbook-example')")
        return json.loads(raw) if raw else None

    def close(self):
        (self.context if self.own_context else self.page).close()


@pytest.fixture
def open_page(browser, server, reader_pages):
    """open_page(href, context=None, viewport=None) -> a Page in the session's reader context
    (tests/browser/conftest.py: its storage empty at the test's start), or in `context`."""
    opened = []

    def open_(href, context=reader_pages, **kw):
        opened.append(Page(browser, server, href, context=context, **kw))
        return opened[-1]

    yield open_
    for p in opened:
        p.close()


def assert_follows(page, example):
    """Every widget of the page that uses the example shows pycore's view of `example` (and
    the editor too), numbers and picture."""
    roots = page.page.locator("[data-widget][data-example]")
    assert roots.count() >= 2
    for k in range(roots.count()):
        root = roots.nth(k)
        name = root.get_attribute("data-widget")
        view = pycore_view(name, **params_of(root), **({"example": example} if example else {}))
        assert_shows(root, view, min_count=10)
        assert_drawn(root, view)


def summary_words(editor):
    """The words of the folded editor's line (its sentence), those of the sentence's slots."""
    return editor.locator(".ex-summary .ex-word").evaluate_all(
        "els => els.filter(e => !e.hidden).map(e => e.textContent.trim())")


@pytest.mark.parametrize("href, unfolded", [("03-embeddings.html", True),
                                            ("04-attention.html", False),
                                            ("09-sampling.html", False)])
def test_the_editor_is_open_where_the_example_is_introduced_and_folded_after(browser, server,
                                                                             href, unfolded):
    """Chapter 3 shows the whole editor; from chapter 4 on one line shows the sentence and a
    tap on it opens the same editor (no script needed: a <details>)."""
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + href)
    root = page.locator('[data-widget="example-editor"]').first
    fold = root.locator("details.ex-fold")
    assert (fold.get_attribute("open") is not None) == unfolded
    assert summary_words(root) == book.TOKENS
    cell = root.locator('.ex-cell[data-row="3"][data-col="1"]')
    assert cell.is_visible() == unfolded
    assert root.locator(".ex-summary .ex-words").is_visible() != unfolded
    if not unfolded:
        height = root.bounding_box()["height"]
        assert height < 300, f"the folded editor is {height:.0f} px tall"
        fold.locator("summary").click()
        assert cell.is_visible()
    page.close()


def test_the_editor_is_pre_rendered_with_the_books_example(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="example-editor"]').first
    assert root.get_attribute("data-state") == "static"
    root.locator("details.ex-fold summary").click()  # folded from chapter 4 on
    view = pycore_view("example-editor")
    assert_shows(root, view, min_count=54 + 6 + 9)
    assert root.locator(".key-figure .big").inner_text() == "0.2101"
    page.close()


@pytest.mark.parametrize("href", sorted(CHAPTERS))
def test_editing_a_feature_moves_every_widget_on_the_page(open_page, href):
    page = open_page(href)
    names = {page.page.locator("[data-widget][data-example]").nth(k).get_attribute("data-widget")
             for k in range(page.page.locator("[data-widget][data-example]").count())}
    assert set(CHAPTERS[href]) | {"example-editor"} <= names
    assert_follows(page, None)
    page.cell(3, 1).click()  # 马路「有生命」: 0 -> 1
    assert page.cell(3, 1).get_attribute("aria-pressed") == "true"
    assert_follows(page, EDITED)
    assert page.url_example() == EDITED
    assert page.stored_example() == EDITED
    assert page.errors == []


def test_attention_splits_as_chapter_4_says(open_page):
    page = open_page("04-attention.html")
    attention = page.page.locator('[data-widget="attention"]').first
    page.cell(3, 1).click()
    row = attention.locator('[data-bind^="row."]').all_text_contents()
    assert row[0] == row[3] == "0.1963" and row[1] == "0.0868"
    assert page.editor().locator(".key-figure .big").inner_text() == "0.1963"
    assert page.editor().locator('[data-bind="n_changed"]').inner_text() == "1"
    # the W_Q pronoun row: with 实体 off as well, 它 asks only for 有生命
    page.cell("q", 0).click()
    view = pycore_view("attention", example={"x": ROAD_ALIVE, "pronoun": [0, 1, 0, 0, 0, 0]})
    assert_shows(attention, view)
    assert page.url_example() == {"x": ROAD_ALIVE, "pronoun": [0, 1, 0, 0, 0, 0]}


def test_a_reload_and_the_next_chapter_keep_the_example(browser, open_page):
    page = open_page("04-attention.html")
    page.cell(3, 1).click()
    assert_follows(page, EDITED)
    page.page.reload()
    page.wait_live()
    assert page.cell(3, 1).get_attribute("aria-pressed") == "true"
    assert_follows(page, EDITED)
    # a link to the next chapter carries no ?example: the browser's storage does
    page.goto("05-multi-head.html")
    assert page.url_example() == EDITED
    assert_follows(page, EDITED)
    # a copied link opens the example in a browser that never saw it (a context of its own:
    # the shared one's storage holds the example)
    link = urlsplit(page.page.url)
    fresh = open_page(link.path.lstrip("/") + "?" + link.query, context=None)
    assert fresh.stored_example() == EDITED
    assert_follows(fresh, EDITED)
    assert page.errors == [] and fresh.errors == []


def test_reset_restores_the_books_example_everywhere(open_page):
    page = open_page("05-multi-head.html")
    page.cell(3, 1).click()
    page.cell("q", 1).click()
    assert_follows(page, {"x": ROAD_ALIVE, "pronoun": [1, 0, 0, 0, 0, 0]})
    page.editor().locator("[data-action=reset]").click()
    assert_follows(page, None)
    assert page.url_example() is None and page.stored_example() is None
    assert page.editor().locator('[data-bind="changes"]').inner_text() == "和书中的例子相同"
    assert page.cell(3, 1).get_attribute("aria-pressed") == "false"


@pytest.mark.parametrize("junk", ["garbage", '{"x":"junk"}', '{"x":[[1e309]]}', "[1,2]",
                                  '{"pronoun":[1,1,1]}', '{"evil":"<script>"}'])
def test_junk_in_the_url_shows_the_books_example_without_an_error(open_page, junk):
    page = open_page("04-attention.html?example=" + junk)
    widgets = page.page.locator("[data-widget]")
    assert all(widgets.nth(k).get_attribute("data-state") == "live" for k in range(widgets.count()))
    try:  # what the page sends pycore: a JSON object, else nothing (the book's example)
        sent = json.loads(junk)
    except ValueError:
        sent = None
    sent = sent if isinstance(sent, dict) else None
    assert_follows(page, sent)  # pycore shows the book's example for it
    attention = page.page.locator('[data-widget="attention"]').first
    assert attention.locator('[data-bind="row.0"]').text_content() == "0.2101"  # the book's
    problem = page.editor().locator(".ex-problem").inner_text()
    assert problem == ("链接里的例子无法使用，这里显示的是书中的例子。" if sent else "")
    set_aside = page.editor().locator(".ex-set-aside").inner_text()  # the page's own word
    assert set_aside == ("" if sent else "链接或浏览器里存着的例子无法使用，已略去。")
    assert page.errors == []
    assert page.url_example() is None and page.stored_example() is None


def test_values_out_of_range_are_clamped_by_pycore(open_page):
    x = book.default_example()["x"]
    x[3][1] = 7  # clamped to 2
    page = open_page("04-attention.html?example=" + json.dumps({"x": x}))
    clamped = book.default_example()["x"]
    clamped[3][1] = 2
    assert_follows(page, {"x": clamped})
    assert page.cell(3, 1).inner_text() == "2"
    assert page.url_example() == {"x": clamped}  # the URL keeps what pycore accepted


def test_the_grid_is_one_tab_stop_with_arrow_keys(open_page):
    page = open_page("04-attention.html")
    first = page.cell(0, 0)
    assert first.get_attribute("tabindex") == "0"
    assert page.cell(0, 1).get_attribute("tabindex") == "-1"
    first.focus()
    for key in ["ArrowDown"] * 3 + ["ArrowRight"]:
        page.page.keyboard.press(key)
    assert page.page.evaluate("document.activeElement.dataset.row") == "3"
    assert page.page.evaluate("document.activeElement.dataset.col") == "1"
    page.page.keyboard.press("Enter")
    assert_follows(page, EDITED)


def test_the_example_follows_a_chapter_opened_in_place(open_page):
    """The pager's link opens the next chapter without reloading (assets/navigate.js): its
    widgets start with the edited example, and its URL shows it."""
    page = open_page("04-attention.html")
    page.cell(3, 1).click()
    page.page.evaluate("() => { window.sameDocument = true; }")
    page.page.locator('.pager a[rel=next]').click()
    page.page.wait_for_selector('[data-widget="multi-head"][data-state=live]', timeout=20_000)
    page.wait_live()
    assert page.page.evaluate("() => window.sameDocument === true"), "the page was reloaded"
    assert urlsplit(page.page.url).path.endswith("05-multi-head.html")
    assert page.url_example() == EDITED
    assert_follows(page, EDITED)
    # 重置 there restores the book's example, and going back (to a URL that still holds the
    # edited one) keeps it reset
    page.editor().locator("[data-action=reset]").click()
    assert_follows(page, None)
    page.page.go_back()
    page.page.wait_for_selector('[data-widget="attention"][data-state=live]', timeout=20_000)
    page.wait_live()
    assert urlsplit(page.page.url).path.endswith("04-attention.html")
    assert page.url_example() is None and page.stored_example() is None
    assert_follows(page, None)
    assert page.errors == []


EDIT_WITH_FOLLOWER_OFF_SCREEN = """async () => {
    const editor = document.querySelector('[data-widget="example-editor"]');
    const follower = document.querySelector('[data-widget="multi-head"]');
    editor.scrollIntoView({ block: "center" });
    for (let k = 0; k < 3; k++) await new Promise((r) => requestAnimationFrame(r));
    const box = follower.getBoundingClientRect();
    const before = [Number(editor.dataset.updates), Number(follower.dataset.updates)];
    editor.querySelector('.ex-cell[data-row="3"][data-col="1"]').click();
    while (Number(editor.dataset.updates) === before[0]) {
        await new Promise((r) => setTimeout(r, 5));
    }
    return { offScreen: box.bottom < 0 || box.top > innerHeight,
             followerMoved: Number(follower.dataset.updates) !== before[1], before: before[1] };
}"""


def test_a_follower_off_screen_recomputes_after_the_editor_and_catches_up(open_page):
    """The edit answers in the editor first; the follower off screen is not recomputed
    meanwhile (it catches up once the reader pauses or scrolls to it), and then shows
    pycore's numbers for the edited example."""
    page = open_page("05-multi-head.html")
    state = page.page.evaluate(EDIT_WITH_FOLLOWER_OFF_SCREEN)
    assert state["offScreen"] and not state["followerMoved"]
    follower = page.page.locator('[data-widget="multi-head"]').first
    follower.evaluate("el => el.scrollIntoView()")
    page.page.wait_for_function(
        f"() => Number(document.querySelector('[data-widget=\"multi-head\"]').dataset.updates)"
        f" > {state['before']}", timeout=30_000)
    view = pycore_view("multi-head", **params_of(follower), example=EDITED)
    assert_shows(follower, view, min_count=10)
    assert_drawn(follower, view)
# --- the sentence: tokens removed, and added from the palette ------------------------------

def chip(page, token):
    """The sentence's chip of `token` (it removes the token)."""
    return page.editor().locator(f"[data-action=remove]:not([hidden])", has_text=token)


def add(page, token, after=None):
    """Add `token` from the palette, after the token `after` (None: at the start)."""
    index = 0 if after is None else page.sentence().index(after) + 1
    page.editor().locator(".ex-pos").select_option(str(index))
    page.editor().locator(f'[data-action=add][data-token="{token}"]').click()


def sentence(self):
    return [t.strip() for t in self.editor().locator("[data-action=remove]:not([hidden])")
            .all_text_contents()]


Page.sentence = sentence


def assert_attention_follows(page, tokens):
    attention = page.page.locator('[data-widget="attention"]').first
    view = pycore_view("attention", **params_of(attention), example={"tokens": tokens})
    assert view["tokens"] == tokens
    assert_shows(attention, view, min_count=len(tokens) ** 2)
    assert_drawn(attention, view, min_count=len(tokens) * 6)
    # what the reader sees: one label, curve and query button per token of the sentence (the
    # heatmap's spare labels are empty, outside its viewBox)
    shown = lambda sel: attention.locator(sel).evaluate_all(  # noqa: E731
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent.trim())"
        ".filter(Boolean)")
    assert shown(".curves .key-row") == tokens
    assert shown(".heat .row-label") == tokens and shown(".heat .col-label") == tokens
    assert shown("[data-control=query] [data-value]") == tokens
    assert attention.locator(".curves .curve:not([data-hidden])").count() == len(tokens)
    assert attention.locator(".heat .cell:not([data-hidden])").count() == len(tokens) ** 2
    assert shown('table[data-matrix="weights"] tbody th') == tokens
    return attention, view


def test_adding_a_palette_token_moves_attention(open_page):
    page = open_page("04-attention.html")
    add(page, "小狗", after="马路")
    tokens = ["小猫", "没有", "过", "马路", "小狗", "因为", "它", "太", "累", "了"]
    assert page.sentence() == tokens
    attention, view = assert_attention_follows(page, tokens)
    # 小狗 is an animate entity like 小猫: 它 splits its attention between the two
    row = attention.locator('[data-bind^="row."]').all_text_contents()
    assert row[0] == row[4] and float(row[0]) > float(row[3])
    assert page.url_example() == {"tokens": tokens} and page.stored_example() == {"tokens": tokens}
    # the picker's new button picks the new token
    attention.locator("""[data-control=query] [data-value='"小狗"']""").click()
    view = pycore_view("attention", query="小狗", example={"tokens": tokens})
    assert_shows(attention, view)
    assert_drawn(attention, view)
    assert page.errors == []


def test_removing_tokens_moves_attention_and_a_reload_keeps_it(open_page):
    page = open_page("04-attention.html")
    chip(page, "没有").click()
    chip(page, "过").click()
    tokens = ["小猫", "马路", "因为", "它", "太", "累", "了"]
    assert page.sentence() == tokens
    assert_attention_follows(page, tokens)
    assert chip(page, "它").get_attribute("aria-disabled") == "true"  # 它 stays
    chip(page, "它").dispatch_event("click")  # a click on it changes nothing
    assert page.sentence() == tokens and page.url_example() == {"tokens": tokens}
    page.page.reload()
    page.wait_live()
    assert page.sentence() == tokens
    assert_attention_follows(page, tokens)
    page.editor().locator("[data-action=reset]").click()
    assert page.sentence() == book.TOKENS
    assert_attention_follows(page, book.TOKENS)
    assert page.url_example() is None and page.stored_example() is None
    assert page.errors == []


def test_the_sentence_is_keyboard_operable(open_page):
    page = open_page("04-attention.html")
    first = page.editor().locator("[data-action=remove]").first
    assert first.get_attribute("tabindex") == "0"
    first.focus()
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("Enter")  # removes 没有
    assert page.sentence() == [t for t in book.TOKENS if t != "没有"]
    palette = page.editor().locator("[data-action=add]:visible")
    palette.first.focus()
    page.page.keyboard.press("Enter")  # adds the first one (没有 again) at the end
    assert page.sentence() == [t for t in book.TOKENS if t != "没有"] + ["没有"]
    assert_attention_follows(page, page.sentence())


@pytest.mark.parametrize("tokens", [["它", "了"], ["它", "了", "累", "狮子"],
                                    ["小猫", "了", "累", "太"], "它了累太",
                                    ["它", "它", "累", "了"]])
def test_a_junk_sentence_in_the_url_shows_the_books_example(open_page, tokens):
    page = open_page("04-attention.html?example=" + json.dumps({"tokens": tokens}))
    assert page.sentence() == book.TOKENS
    assert_attention_follows(page, book.TOKENS)
    assert page.editor().locator("[data-bind=problem_text]").inner_text()
    assert page.url_example() is None and page.errors == []


def drawn_labels(page, name):
    """The texts of a widget's picture that a reader sees (hidden slots left out)."""
    return page.page.locator(f'[data-widget="{name}"] svg text').evaluate_all(
        """els => els.filter(e => e.getClientRects().length
                                 && getComputedStyle(e).visibility !== "hidden")
                     .map(e => e.textContent.trim())""")


@pytest.mark.parametrize("href", sorted(CHAPTERS))
def test_every_widget_draws_a_changed_sentence(open_page, href):
    """Every widget over the example draws the reader's sentence (a palette token in, book
    tokens out), numbers and picture as pycore computes them; 重置 brings the book's back."""
    assert set(CHAPTERS[href]) <= DRAW_THE_SENTENCE
    tokens = ["小猫", "马路", "小狗", "因为", "它", "累"]
    page = open_page(href + "?example=" + json.dumps({"tokens": tokens}))
    assert page.sentence() == tokens
    assert_follows(page, {"tokens": tokens})
    # the editor's preview too, where it has one (head = false: none before attention)
    names = CHAPTERS[href] + ["example-editor"] * bool(page.editor().locator("svg").count())
    assert ("example-editor" in names) == (href != "03-embeddings.html")
    for name in names:
        labels = drawn_labels(page, name)
        assert "小狗" in labels and "没有" not in labels, (name, labels)
    page.editor().locator("[data-action=reset]").click()
    assert_follows(page, None)
    for name in names:
        labels = drawn_labels(page, name)
        assert "小狗" not in labels and "没有" in labels, (name, labels)
    assert page.errors == []


# --- the editor's preview: the semantic head's row over the reader's sentence ---------------

TWELVE = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了", "小狗", "它们", "饿"]
FOUR = ["小狗", "汽车", "它", "饿"]


def visible_texts(root, selector):
    """The trimmed texts of the elements under root a reader sees (hidden slots left out)."""
    return root.locator(selector).evaluate_all(
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent.trim())")


def assert_preview(page, tokens, query):
    """The editor's preview shows pycore's view of the sentence `tokens` for `query`: every
    number and bound attribute, one bar, picker button and table row per token, the query's
    weights (computed here from the view's own inputs: the sentence's X and the head), and
    the bars framed: each used bar inside the chart, the chart inside the widget."""
    editor = page.editor()
    params = {**params_of(editor), "query": query}  # the block's, with the query picked
    view = pycore_view("example-editor", **params, example={"tokens": tokens})
    assert view["sentence"] == tokens and view["query"] == query
    assert_shows(editor, view, min_count=len(tokens) * 2)
    assert_drawn(editor, view, min_count=len(tokens) * 4)
    assert visible_texts(editor, ".bar-chart .bar .label") == tokens
    assert editor.locator(".bar-chart .bar:not([data-hidden])").count() == len(tokens)
    assert visible_texts(editor, "[data-control=query] [data-value]") == tokens
    assert visible_texts(editor, 'table[data-matrix="row_table"] tbody th') == tokens
    assert editor.locator("[data-control=query] [aria-checked=true]").inner_text() == query
    assert editor.locator(".key-figure [data-bind=query]").inner_text() == query
    # the weights, from the features and W_Q's pronoun row: softmax(q . x_j / sqrt(6))
    ex = book.checked_example({"tokens": tokens})
    rows = [book.features_of(ex, t) for t in tokens]
    x = rows[tokens.index(query)]
    # q = x W_Q, W_Q the identity with the pronoun row in place of its last row
    q = [x[c] * (c != 5) + x[5] * ex["pronoun"][c] for c in range(6)]
    e = [math.exp(sum(a * b for a, b in zip(q, k)) / math.sqrt(6)) for k in rows]
    shown = [float(t) for t in visible_texts(editor, 'table[data-matrix="row_table"] td')[1::2]]
    assert shown == pytest.approx([x / sum(e) for x in e], abs=5e-5)
    svg = editor.locator("svg.bar-chart")
    box = svg.bounding_box()
    widget = editor.bounding_box()
    assert box["x"] >= widget["x"] - 0.5 and box["x"] + box["width"] <= \
        widget["x"] + widget["width"] + 0.5
    marks = editor.locator(".bar-chart .bar:not([data-hidden]) .mark")
    for k in range(marks.count()):
        b = marks.nth(k).bounding_box() or {"x": box["x"], "width": 0}  # a zero bar: no box
        assert box["x"] <= b["x"] and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5
    return view


@pytest.mark.parametrize("tokens", [FOUR, TWELVE])
def test_the_preview_draws_the_sentence_in_the_link(open_page, tokens):
    page = open_page("04-attention.html?example=" + json.dumps({"tokens": tokens}))
    assert page.sentence() == tokens
    view = assert_preview(page, tokens, "它")
    # the chart frames the used bars: one 34-unit slot each after the 30-unit axis
    svg = page.editor().locator("svg.bar-chart")
    assert svg.get_attribute("viewBox") == f"0 0 {30 + 34 * len(tokens)} 150"
    assert view["bars"]["vw"] == 30 + 34 * len(tokens)
    assert_follows(page, {"tokens": tokens})
    assert page.errors == []


def test_a_query_is_picked_by_click_and_by_keyboard(open_page):
    page = open_page("04-attention.html?example=" + json.dumps({"tokens": TWELVE}))
    picker = page.editor().locator("[data-control=query]")
    picker.locator("""[data-value='"小狗"']""").click()
    assert_preview(page, TWELVE, "小狗")
    page.page.keyboard.press("ArrowRight")  # the focus and the choice move to 它们
    page.page.wait_for_function(
        "() => document.querySelector('[data-widget=\"example-editor\"] .key-figure "
        "[data-bind=query]').textContent === '它们'", timeout=20_000)
    assert_preview(page, TWELVE, "它们")
    page.page.keyboard.press("End")  # the last token of the sentence, not a spare slot
    page.page.wait_for_function(
        "() => document.querySelector('[data-widget=\"example-editor\"] .key-figure "
        "[data-bind=query]').textContent === '饿'", timeout=20_000)
    assert_preview(page, TWELVE, "饿")
    assert page.errors == []


def test_the_preview_follows_the_chips_and_reset_brings_the_books_back(open_page):
    page = open_page("04-attention.html")
    assert_preview(page, book.TOKENS, "它")
    page.editor().locator("[data-control=query] [data-value='\"马路\"']").click()
    assert_preview(page, book.TOKENS, "马路")
    chip(page, "马路").click()  # the query leaves the sentence: the preview asks for 它
    tokens = [t for t in book.TOKENS if t != "马路"]
    assert page.sentence() == tokens
    assert_preview(page, tokens, "它")
    add(page, "小狗", after="小猫")
    add(page, "饿", after="累")
    tokens = ["小猫", "小狗", "没有", "过", "因为", "它", "太", "累", "饿", "了"]
    assert page.sentence() == tokens
    assert summary_words(page.editor()) == tokens  # the folded line's words follow
    assert_preview(page, tokens, "它")
    # 它 splits its attention between the two animate entities
    weights = visible_texts(page.editor(), 'table[data-matrix="row_table"] td')[1::2]
    assert weights[0] == weights[1] and float(weights[0]) > float(weights[2])
    assert_follows(page, {"tokens": tokens})
    page.editor().locator("[data-action=reset]").click()
    assert page.sentence() == book.TOKENS
    assert_preview(page, book.TOKENS, "它")
    assert page.editor().locator(".key-figure .big").inner_text() == "0.2101"
    assert page.url_example() is None and page.errors == []


def test_a_twelve_token_preview_fits_a_phone(open_page):
    """At 390 px the 12 bars shrink with the chart (one unit per px at most): the chart stays
    inside the widget and the page does not scroll sideways."""
    page = open_page("04-attention.html?example=" + json.dumps({"tokens": TWELVE}),
                     viewport={"width": 390, "height": 800})
    assert_preview(page, TWELVE, "它")
    box = page.editor().locator("svg.bar-chart").bounding_box()
    assert box["width"] < 30 + 34 * 12  # narrower than its viewBox: scaled down to fit
    assert page.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []


def test_a_shorter_sentence_leaves_one_checked_query(open_page):
    """The build checks the book's 它 in slot 5; in a four-token link that slot is empty and
    hidden, and the one checked button is the visible 它."""
    tokens = ["它", "累", "小猫", "了"]
    page = open_page("04-attention.html?example=" + json.dumps({"tokens": tokens}))
    group = page.page.locator('[data-widget="attention"] [data-control=query]').first
    checked = group.locator("[aria-checked=true]")
    assert checked.count() == 1
    assert checked.inner_text() == "它" and checked.is_visible()


# --- a press asks ahead (example.js aheadExample) -----------------------------------------

# Scroll the page to y, then return the ids of the widgets over the example on screen.
ON_SCREEN_AT = """async (y) => {
    scrollTo(0, y);
    for (let k = 0; k < 3; k++) await new Promise((r) => requestAnimationFrame(r));
    return [...document.querySelectorAll("[data-widget][data-example]")].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
    }).map((el) => el.id).sort();
}"""
TOP = "el => el.getBoundingClientRect().top + scrollY"
BOTTOM = "el => el.getBoundingClientRect().bottom + scrollY"


def test_a_press_on_an_entry_asks_ahead_for_the_views_its_click_brings(open_page):
    """The press on an entry asks the worker for the views its click's example brings: the
    editor's, and those of the followers on screen (not those off screen: they catch up once
    the reader pauses). The click takes them, asking for none of them again, and every widget
    shows pycore's numbers for the edited example."""
    page = open_page("06-positional-encoding.html", viewport={"width": 1280, "height": 1000})
    editor = page.editor()
    follower = page.page.locator('[data-widget="permutation"]').first
    ids = sorted([editor.get_attribute("id"), follower.get_attribute("id")])
    for example, y, on_screen in [
            (EDITED, editor.evaluate(TOP), ids[:1]),  # the editor alone: the follower above
            # both: the screen's bottom just below the entry (the follower's end above it)
            (book.default_example(), page.cell(3, 1).evaluate(BOTTOM) + 40 - 1000, ids)]:
        assert page.page.evaluate(ON_SCREEN_AT, y) == on_screen
        page.page.evaluate(RECORD)
        page.cell(3, 1).dispatch_event("pointerdown", PRESS)
        at_press = page.page.evaluate("() => window.__asked")
        assert sorted(f"{a['name']}-06-positional-encoding" for a in at_press) == on_screen
        assert all(a["params"]["example"]["x"] == example["x"] for a in at_press)
        page.cell(3, 1).click()  # its press again (nothing new to ask) and the click
        settle(page.page)
        after = page.page.evaluate("() => window.__asked")[len(at_press):]
        page.page.evaluate(STOP)
        # only the followers off screen asked, once each, when they caught up
        assert sorted(f"{a['name']}-06-positional-encoding" for a in after) == sorted(
            set(ids) - set(on_screen))
        assert_follows(page, example)
    assert page.errors == []


def test_a_query_brings_the_preview_alone_an_edit_the_example(open_page):
    """The editor's view in parts: a new query brings its preview (query_row), an edit of an
    entry the example's part and the preview that reads it; the grid's labels never again."""
    page = open_page("04-attention.html")
    editor = page.editor()
    query = editor.locator("""[data-control=query] [data-value='"小猫"']""")
    assert parts_came(editor, lambda: query.click()) == [["query_row"]]
    assert parts_came(editor, lambda: page.cell(3, 1).click()) == [["checked", "query_row"]]
    assert_shows(editor, pycore_view("example-editor", query="小猫", example=EDITED))
    assert page.errors == []
