"""Browser tests of the multi-head widget (pycore/widgets/multi_head/: view, widget.js)."""
import json

from pycore.example import MAX_TOKENS
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

TOKENS = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]
S = MAX_TOKENS  # every token list keeps this many slots (the unused ones hidden)
N_WEIGHTS = 2 * S * S + 2 * S  # two weight tables and the selected row of each, in slots


def table(root, path):
    """The cells of table[data-matrix=path] as floats, row by row (also inside closed <details>)."""
    texts = root.evaluate(f"""root => [...root.querySelectorAll('table[data-matrix="{path}"] tbody tr')]
        .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))""")
    return [[float(t) for t in row] for row in texts]


def token(root, t):
    return root.locator(f"""[data-control=query] [data-value='"{t}"']""")


def heads_button(root, heads):
    return root.locator(f"""[data-control=heads] [data-value='"{heads}"']""")


def selected_rows(root):
    """For each head's heatmap, the row its band is drawn round (32 units a row, 22 of
    column labels above the first)."""
    return root.evaluate("""root => ['heat_a', 'heat_b'].map(p =>
        (Number(root.querySelector(`rect.band[data-attr^="y=${p}.row_band"]`).getAttribute('y'))
         - 22) / 32)""")


def visible_table(root, path):
    """table[data-matrix=path] as the reader sees it with 数值 open: the header's labels and
    the shown rows' cells (the spare slots' rows and columns are hidden)."""
    return root.evaluate(f"""root => {{
        root.querySelector('details.numbers').open = true;
        const t = root.querySelector('table[data-matrix="{path}"]');
        const shown = (els) => [...els].filter(e => e.getClientRects().length);
        return {{
            cols: shown(t.querySelectorAll('thead th')).map(e => e.textContent).slice(1),
            rows: shown(t.querySelectorAll('tbody th')).map(e => e.textContent),
            cells: shown(t.querySelectorAll('tbody tr')).map(tr =>
                shown(tr.querySelectorAll('td')).map(td => Number(td.textContent))),
        }};
    }}""")


def test_multi_head_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "05-multi-head.html")
    root = page.locator('[data-widget="multi-head"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert_shows(root, pycore_view("multi-head", **params), min_count=N_WEIGHTS + 9 * 12 + 12 * 6 + 54)
    page.close()


def test_head_b_looks_at_the_previous_token(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    assert_shows(root, pycore_view("multi-head"), min_count=N_WEIGHTS)
    weights_b = table(root, "weights_b")
    assert len(weights_b) == S and all(x == 0 for row in weights_b[9:] for x in row)
    for i in range(1, 9):
        row = weights_b[i]
        assert row.index(max(row)) == i - 1, f"row {TOKENS[i]}: {row}"
        assert max(row) >= 0.75  # a clear peak, not a near tie
    assert visible_table(root, "weights_b")["rows"] == TOKENS
    peaks = root.locator('[data-bind^="peak_b_tokens."]').all_text_contents()
    assert peaks[1:9] == TOKENS[:-1] and peaks[9:] == [""] * (S - 9)
    # head A is the semantic head of chapter 4: the row of 它 as the chapter states it
    row_a = root.locator('[data-bind^="row_a."]').all_text_contents()
    assert (row_a[0], row_a[3], row_a[1]) == ("0.2101", "0.1397", "0.0929")


def test_clicking_a_token_highlights_its_row_in_both_heads(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    assert selected_rows(root) == [5, 5]
    before = updates(root)
    token(root, "累").click()
    assert updates(root) == before + 1
    assert token(root, "累").get_attribute("aria-checked") == "true"
    assert token(root, "它").get_attribute("aria-checked") == "false"
    assert selected_rows(root) == [7, 7]
    view = pycore_view("multi-head", query="累")
    assert_shows(root, view, min_count=N_WEIGHTS)
    assert_drawn(root, view, min_count=2 * S * 7)
    token(root, "过").focus()
    root.page.keyboard.press("Enter")
    assert selected_rows(root) == [2, 2]
    view = pycore_view("multi-head", query="过")
    assert_shows(root, view)
    assert_drawn(root, view)
    assert root.locator('[data-bind="row_b.1"]').text_content() == f"{view['row_b'][1]:.4f}"


def shape_text(root):
    return [root.locator(f'[data-bind="{p}"]').text_content()
            for p in ("shape_head", "shape_concat", "shape_w_o", "shape_output")]


def test_switching_heads_changes_concat_and_w_o(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    assert shape_text(root) == ["9 × 6", "9 × 12", "12 × 6", "9 × 6"]
    concat = visible_table(root, "concat")
    assert concat["rows"] == TOKENS and len(concat["cols"]) == 12
    assert [len(r) for r in concat["cells"]] == [12] * 9
    assert len(visible_table(root, "w_o")["rows"]) == 12
    for heads in ("A", "B"):
        before = updates(root)
        heads_button(root, heads).click()
        assert updates(root) == before + 1
        assert heads_button(root, heads).get_attribute("aria-checked") == "true"
        view = pycore_view("multi-head", heads=heads)
        assert_shows(root, view, min_count=N_WEIGHTS + 54 + 36 + 54)
        assert_drawn(root, view)
        assert shape_text(root) == ["9 × 6", "9 × 6", "6 × 6", "9 × 6"]
        concat = visible_table(root, "concat")
        assert concat["cols"] == [f"{heads}{j}" for j in range(6)]
        assert [len(r) for r in concat["cells"]] == [6] * 9
        assert visible_table(root, "w_o")["rows"] == concat["cols"]
        # with one head, W_O is the identity and the output is that head's output
        head = view["head_a"] if heads == "A" else view["head_b"]
        shown = table(root, "output")
        assert all(abs(a - b) <= 0.005 for ra, rb in zip(shown, head) for a, b in zip(ra, rb))
    heads_button(root, "A+B").focus()
    root.page.keyboard.press("Space")
    assert shape_text(root) == ["9 × 6", "9 × 12", "12 × 6", "9 × 6"]
    assert_shows(root, pycore_view("multi-head", heads="A+B"))


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A query's click brings its row and its output row, the heads' switch the layer and the
    output row; the heads' weights (the sentence's part) never come again."""
    root = book_pages("multi-head").widget("multi-head")
    tok = root.locator("""[data-control=query] [data-value='"小猫"']""")
    assert parts_came(root, lambda: tok.click()) == [["output", "row"]]
    heads = root.locator("""[data-control=heads] [data-value='"A"']""")
    assert parts_came(root, lambda: heads.click()) == [["layer", "output"]]
    assert_shows(root, pycore_view("multi-head", query="小猫", heads="A"))
    root.locator("[data-action=reset]").click()


def test_reset_restores_the_block(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    params = params_of(root)
    token(root, "小猫").click()
    heads_button(root, "B").click()
    assert_shows(root, pycore_view("multi-head", query="小猫", heads="B"))
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("multi-head", **params))
    assert selected_rows(root) == [5, 5]
    assert heads_button(root, "A+B").get_attribute("aria-checked") == "true"
    assert len(visible_table(root, "concat")["cols"]) == 12


def test_the_picture_shows_each_heads_row_and_the_layers_shapes(book_pages):
    """For 它, head A's thickest curve goes to 小猫 and head B's to 因为 (the previous word);
    one head alone leaves one block in the concatenation and a square W_O, and dims the
    other head; both heatmaps share one 0-1 legend."""
    root = book_pages("multi-head").widget("multi-head")
    view = pycore_view("multi-head")
    assert_drawn(root, view, min_count=2 * S * 7 + 2)
    for key, strongest in (("a", 0), ("b", 4)):
        widths = root.locator(f'.mh-head[data-head="{key.upper()}"] .curve').evaluate_all(
            "els => els.map(e => Number(e.getAttribute('stroke-width')))")
        assert widths.index(max(widths)) == strongest
    assert root.locator(".key-figure .big").all_inner_texts() == ["0.2101", "0.7948"]
    legends = root.locator(".legend text").all_text_contents()
    assert legends == ["0", "0.1", "0.5", "1"] * 2  # the book's one weight scale, twice
    block = lambda name: root.locator(f".mh-blocks .block.{name} rect")
    assert block("w-o").get_attribute("height") == str(12 * 7)  # 12 x 6: 12 rows of 7 units
    heads_button(root, "B").click()
    view = pycore_view("multi-head", heads="B")
    assert_drawn(root, view)
    assert root.locator(".mh-blocks .head-a").get_attribute("data-hidden") == ""
    assert root.locator(".mh-blocks .head-b").get_attribute("data-hidden") is None
    assert block("w-o").get_attribute("height") == block("w-o").get_attribute("width") == "42"
    assert root.locator(".mh").get_attribute("data-heads") == "B"
    # head A's pictures dimmed (they ease there in 160 ms: waited for), its title (which says
    # it is left out) not: it stays readable
    curves = root.locator('.mh-head[data-head="A"] .curves').element_handle()
    root.page.wait_for_function("e => Number(getComputedStyle(e).opacity) < 1", arg=curves,
                                timeout=10_000)
    title = root.locator('.mh-head[data-head="A"] .mh-head-title')
    assert float(title.evaluate("e => getComputedStyle(e).opacity")) == 1
    assert "未送进 W_O" in title.evaluate("e => getComputedStyle(e, '::after').content")
    assert root.locator('[data-bind="blocks.concat.text"]').text_content() == "拼接 9 × 6"


# --- the reader's sentence (pycore.example: 4 to 12 tokens, palette tokens added) -----------

SHORT = ["马路", "小狗", "它", "很", "累"]
LONG = ["小猫", "没有", "过", "马路", "小狗", "因为", "它", "太", "累", "了", "很", "饿"]


def shown_texts(root, sel):
    """The texts of the elements matching sel that the reader sees (hidden slots left out)."""
    return root.locator(sel).evaluate_all(
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent.trim())"
        ".filter(Boolean)")


def boxes(root, sel):
    return root.locator(sel).evaluate_all("els => els.map(e => e.getBoundingClientRect())"
                                          ".map(b => ({l: b.left, r: b.right, t: b.top, "
                                          "b: b.bottom}))")


def assert_draws(root, tokens, **params):
    """The widget shows pycore's view of the sentence `tokens`: every number and bound
    attribute, one picker button, curve, label and heatmap row and column per token, the
    bands round the query's row and its strongest key, the tables' rows; nothing wider than
    the widget. Returns the view."""
    view = pycore_view("multi-head", **params, example={"tokens": tokens})
    n = len(tokens)
    assert view["tokens"] == tokens
    assert_shows(root, view, min_count=N_WEIGHTS)
    assert_drawn(root, view, min_count=2 * S * 7)
    assert shown_texts(root, "[data-control=query] [data-value]") == tokens
    widget = boxes(root, ".mh")[0]
    for key in "ab":
        head = root.locator(f'.mh-head[data-head="{key.upper()}"]')
        assert shown_texts(head, ".curves .key-row") == tokens
        assert shown_texts(head, ".curves .query-row") == tokens
        assert shown_texts(head, ".heat .row-label") == tokens
        assert shown_texts(head, ".heat .col-label") == tokens
        assert head.locator(".curve:not([data-hidden])").count() == n
        assert head.locator(".heat .cell:not([data-hidden])").count() == n * n
        # the thickest curve ends above the strongest key's label
        widths = head.locator(".curve").evaluate_all(
            "els => els.map(e => Number(e.getAttribute('stroke-width')))")
        j = view["tokens"].index(view[f"top_{key}"]["token"])
        assert widths.index(max(widths)) == j
        end_x = float(head.locator(".curve").nth(j).get_attribute("d").split()[-1].split(",")[0])
        assert end_x == view[f"curves_{key}"]["bottom"][j]["x"]
        # the bands frame the query's row and that key's column, as the page lays them out
        row_band, col_band = boxes(head, ".heat .band")
        row_label = boxes(head, ".heat .row-label")[view["index"]]
        col_label = boxes(head, ".heat .col-label")[j]
        assert row_band["t"] <= (row_label["t"] + row_label["b"]) / 2 <= row_band["b"]
        assert col_band["l"] <= (col_label["l"] + col_label["r"]) / 2 <= col_band["r"]
        for b in boxes(head, "svg.fig"):
            assert widget["l"] - 1 <= b["l"] and b["r"] <= widget["r"] + 1
    for path in ("weights_a", "weights_b"):
        table_shown = visible_table(root, path)
        assert table_shown["rows"] == tokens and table_shown["cols"] == tokens
    assert visible_table(root, "concat")["rows"] == tokens
    assert visible_table(root, "output")["rows"] == tokens
    assert shape_text(root)[0] == f"{n} × 6"
    assert not root.locator(".sentence-note").count()
    return view


def test_the_readers_sentence_is_drawn(reader_pages, server):
    """A short sentence and a 12-token one in the link (as the example editor leaves it):
    the widget draws them, picks their tokens, switches heads, and a query the sentence lacks
    falls back to 它."""
    page = reader_pages.new_page()  # the edited example stays out of other tests
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for tokens, pick in ((SHORT, "小狗"), (LONG, "饿")):
        page.goto(server + "05-multi-head.html?example=" + json.dumps({"tokens": tokens}))
        root = page.locator('[data-widget="multi-head"][data-state=live]').first
        root.wait_for(state="attached", timeout=60_000)
        view = assert_draws(root, tokens)
        assert view["index"] == tokens.index("它")
        # head B looks at the previous word in any sentence
        assert root.locator('[data-bind="top_b.token"]').text_content() == \
            tokens[tokens.index("它") - 1]
        before = updates(root)
        token(root, pick).click()
        assert updates(root) == before + 1
        assert token(root, pick).get_attribute("aria-checked") == "true"
        assert selected_rows(root) == [tokens.index(pick)] * 2
        assert_draws(root, tokens, query=pick)
        heads_button(root, "A").focus()
        page.keyboard.press("Enter")
        view = assert_draws(root, tokens, query=pick, heads="A")
        concat = visible_table(root, "concat")
        assert concat["cols"] == [f"A{j}" for j in range(6)]
        assert [len(r) for r in concat["cells"]] == [6] * len(tokens)
        assert root.locator('[data-bind="blocks.concat.text"]').text_content() == \
            f"拼接 {len(tokens)} × 6"
        assert float(root.locator(".mh-blocks .block.out rect").get_attribute("height")) == \
            7 * len(tokens)
    # a link's query that the sentence lacks (马路): the widget shows 它's rows
    lacking = ["小狗", "它", "很", "饿"]
    wid = root.get_attribute("id")
    page.goto(server + "05-multi-head.html?example=" + json.dumps({"tokens": lacking})
              + f"&{wid}=" + json.dumps({"query": "马路"}))
    root = page.locator('[data-widget="multi-head"][data-state=live]').first
    root.wait_for(state="attached", timeout=60_000)
    view = assert_draws(root, lacking, query="马路")
    assert view["query"] == "它" and selected_rows(root) == [1, 1]
    assert root.locator(".key-figure [data-bind=query]").text_content() == "它"
    assert json.loads(page.evaluate("() => new URLSearchParams(location.search).get("
                                    f"{json.dumps(wid)})")) == {"query": "马路"}
    assert errors == []


def test_the_widget_follows_the_editor_and_its_reset(reader_pages, server):
    """Remove a chip, add a palette token in the editor on the page: the widget redraws the
    sentence; 重置 brings the book's nine tokens back."""
    from tests.browser.test_example_editor import Page, add, chip
    page = Page(None, server, "05-multi-head.html", context=reader_pages)
    try:
        root = page.page.locator('[data-widget="multi-head"]').first
        token(root, "累").click()
        chip(page, "没有").click()
        tokens = [t for t in TOKENS if t != "没有"]
        assert page.sentence() == tokens
        assert_draws(root, tokens, query="累")
        add(page, "小狗", after="马路")
        tokens.insert(tokens.index("马路") + 1, "小狗")
        assert page.sentence() == tokens
        view = assert_draws(root, tokens, query="累")
        # 它 now splits head A between the two animate entities
        token(root, "它").click()
        view = assert_draws(root, tokens)
        row = view["row_a"]
        assert row[tokens.index("小猫")] == row[tokens.index("小狗")] == max(row)
        page.editor().locator("[data-action=reset]").click()
        assert page.sentence() == TOKENS
        assert_draws(root, TOKENS)
        assert page.url_example() is None
        assert page.errors == []
    finally:
        page.close()
