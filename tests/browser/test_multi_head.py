"""Browser tests of the multi-head widget (pycore/widgets/multi_head.py, assets/widgets/multi-head.js)."""
import json

from pycore.example import MAX_TOKENS
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

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
    assert legends == ["0.00", "1.00", "0.00", "1.00"]
    block = lambda name: root.locator(f".mh-blocks .block.{name} rect")
    assert block("w-o").get_attribute("height") == str(12 * 7)  # 12 x 6: 12 rows of 7 units
    heads_button(root, "B").click()
    view = pycore_view("multi-head", heads="B")
    assert_drawn(root, view)
    assert root.locator(".mh-blocks .head-a").get_attribute("data-hidden") == ""
    assert root.locator(".mh-blocks .head-b").get_attribute("data-hidden") is None
    assert block("w-o").get_attribute("height") == block("w-o").get_attribute("width") == "42"
    assert root.locator(".mh").get_attribute("data-heads") == "B"
    assert float(root.locator('.mh-head[data-head="A"]').evaluate(
        "e => getComputedStyle(e).opacity")) < 1
    assert root.locator('[data-bind="blocks.concat.text"]').text_content() == "拼接 9 × 6"
