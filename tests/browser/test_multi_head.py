"""Browser tests of the multi-head widget (pycore/widgets/multi_head.py, assets/widgets/multi-head.js)."""
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

TOKENS = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]
N_WEIGHTS = 2 * 81 + 2 * 9  # two 9 x 9 tables and the selected row of each


def table(root, path):
    """The cells of table[data-matrix=path] as floats, row by row (also inside closed <details>)."""
    texts = root.evaluate(f"""root => [...root.querySelectorAll('table[data-matrix="{path}"] tbody tr')]
        .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))""")
    return [[float(t) for t in row] for row in texts]


def selected_rows(root):
    """For each weights table, the index of its row marked as selected."""
    return root.evaluate("""root => ['weights_a', 'weights_b'].map(p =>
        [...root.querySelectorAll(`table[data-matrix="${p}"] tbody tr`)].findIndex(tr => tr.classList.contains('sel')))""")


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
    assert len(weights_b) == 9
    for i in range(1, 9):
        row = weights_b[i]
        assert row.index(max(row)) == i - 1, f"row {TOKENS[i]}: {row}"
        assert max(row) >= 0.75  # a clear peak, not a near tie
    peaks = root.locator('[data-bind^="peak_b_tokens."]').all_inner_texts()
    assert peaks[1:] == TOKENS[:-1]
    # head A is the semantic head of chapter 4: the row of 它 as the chapter states it
    row_a = root.locator('[data-bind^="row_a."]').all_inner_texts()
    assert (row_a[0], row_a[3], row_a[1]) == ("0.2101", "0.1397", "0.0929")


def test_clicking_a_token_highlights_its_row_in_both_heads(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    assert selected_rows(root) == [5, 5]
    before = updates(root)
    root.locator('[data-token="累"]').click()
    assert updates(root) == before + 1
    assert root.locator('[data-token="累"]').get_attribute("aria-pressed") == "true"
    assert root.locator('[data-token="它"]').get_attribute("aria-pressed") == "false"
    assert selected_rows(root) == [7, 7]
    assert_shows(root, pycore_view("multi-head", query="累"), min_count=N_WEIGHTS)
    root.locator('[data-token="过"]').focus()
    root.page.keyboard.press("Enter")
    assert selected_rows(root) == [2, 2]
    view = pycore_view("multi-head", query="过")
    assert_shows(root, view)
    assert root.locator('[data-bind="row_b.1"]').inner_text() == f"{view['row_b'][1]:.4f}"


def shape_text(root):
    return [root.locator(f'[data-bind="{p}"]').inner_text()
            for p in ("shape_head", "shape_concat", "shape_w_o", "shape_output")]


def test_switching_heads_changes_concat_and_w_o(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    assert shape_text(root) == ["9 × 6", "9 × 12", "12 × 6", "9 × 6"]
    assert len(table(root, "concat")[0]) == 12 and len(table(root, "w_o")) == 12
    for heads in ("A", "B"):
        before = updates(root)
        root.locator(f'button[data-heads="{heads}"]').click()
        assert updates(root) == before + 1
        assert root.locator(f'button[data-heads="{heads}"]').get_attribute("aria-pressed") == "true"
        view = pycore_view("multi-head", heads=heads)
        assert_shows(root, view, min_count=N_WEIGHTS + 54 + 36 + 54)
        assert shape_text(root) == ["9 × 6", "9 × 6", "6 × 6", "9 × 6"]
        assert len(table(root, "concat")[0]) == 6 and len(table(root, "w_o")) == 6
        # with one head, W_O is the identity and the output is that head's output
        head = view["head_a"] if heads == "A" else view["head_b"]
        shown = table(root, "output")
        assert all(abs(a - b) <= 0.005 for ra, rb in zip(shown, head) for a, b in zip(ra, rb))
    root.locator('button[data-heads="A+B"]').focus()
    root.page.keyboard.press("Space")
    assert shape_text(root) == ["9 × 6", "9 × 12", "12 × 6", "9 × 6"]
    assert_shows(root, pycore_view("multi-head", heads="A+B"))


def test_reset_restores_the_block(book_pages):
    root = book_pages("multi-head").widget("multi-head")
    params = params_of(root)
    root.locator('[data-token="小猫"]').click()
    root.locator('button[data-heads="B"]').click()
    assert_shows(root, pycore_view("multi-head", query="小猫", heads="B"))
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("multi-head", **params))
    assert selected_rows(root) == [5, 5]
    assert root.locator('button[data-heads="A+B"]').get_attribute("aria-pressed") == "true"
    assert len(table(root, "concat")[0]) == 12
