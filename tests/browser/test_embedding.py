"""Browser tests of the embedding widget (pycore/widgets/embedding/:
view, widget.js)."""
import json
import math

from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

# 6 + 6 vector entries, dot, two lengths, cos, two names, the table (12 slots x 6: 9 rows
# used), the two similarity tables (12 x 12 slots: 9 x 9 used)
S = 12  # the sentence's slots (pycore.example.MAX_TOKENS)
SHOWN = 12 + 4 + 2 + 9 * 6 + 81 + 81


def readout(root):
    read = lambda p: root.locator(f'[data-bind="{p}"]').inner_text()
    return read("dot"), read("cos")


def button(root, key, token):
    """Token `token` in the picker of word `key` ("a" or "b")."""
    return root.locator(f"""[data-control={key}] [data-value='"{token}"']""")


def pick(root, key, token):
    button(root, key, token).click()


def frames(root, figure):
    """(x, y) of every frame over heatmap `figure` (table, dot_heat, cos_heat)."""
    return [tuple(xy) for xy in root.evaluate(f"""root => [...root.querySelectorAll('rect.frame')]
        .filter(r => r.dataset.attr.includes('{figure}.frames.'))
        .map(r => [Number(r.getAttribute("x")), Number(r.getAttribute("y"))])""")]


def test_embedding_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "03-embeddings.html")
    root = page.locator('[data-widget="embedding"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    view = pycore_view("embedding", **params)
    assert_shows(root, view, min_count=SHOWN)
    assert_drawn(root, view, min_count=2 * 6)
    page.close()


def test_the_chapter_pairs_by_click(book_pages):
    root = book_pages("embedding").widget("embedding")
    assert params_of(root) == {"a": "小猫", "b": "马路"}
    # 小猫 (1,1,0,0,0,0) and 马路 (1,0,0,0,0,0): dot 1, cos 1/sqrt(2)
    assert readout(root) == ("1", f"{1 / math.sqrt(2):.4f}") == ("1", "0.7071")
    assert_shows(root, pycore_view("embedding", a="小猫", b="马路"), min_count=SHOWN)
    before = updates(root)
    pick(root, "a", "没有")
    pick(root, "b", "因为")
    assert updates(root) == before + 2
    assert readout(root) == ("1", "1.0000")
    view = pycore_view("embedding", a="没有", b="因为")
    assert_shows(root, view, min_count=SHOWN)
    assert_drawn(root, view)
    assert button(root, "a", "没有").get_attribute("aria-checked") == "true"
    assert button(root, "a", "小猫").get_attribute("aria-checked") == "false"
    # the four function words form a block of ones in the cosine table
    rows = root.locator('table[data-matrix="cosines"] tbody tr')
    words = [1, 4, 6, 8]
    for i in words:
        cells = rows.nth(i).locator("td").all_text_contents()
        assert [cells[j] for j in words] == ["1.00"] * 4
    # ... and in the cosine heatmap: 16 cells of the darkest class
    cos = view["cos_heat"]["cells"]
    assert {cos[S * i + j]["c"] for i in words for j in words} == {8}


def test_the_pronoun_and_the_cat_by_keyboard(book_pages):
    root = book_pages("embedding").widget("embedding")
    before = updates(root)
    button(root, "a", "它").focus()
    root.page.keyboard.press("Enter")
    button(root, "b", "小猫").focus()
    root.page.keyboard.press("Space")
    assert updates(root) == before + 2
    assert readout(root) == ("0", "0.0000")
    view = pycore_view("embedding", a="它", b="小猫")
    assert_shows(root, view, min_count=SHOWN)
    assert_drawn(root, view)
    # the pair is framed in both 9x9 heatmaps, at (它, 小猫) and (小猫, 它)
    for path in ("dot_heat", "cos_heat"):
        cells = view[path]["cells"]
        assert frames(root, path) == [(cells[S * 5 + 0]["x"], cells[S * 5 + 0]["y"]),
                                      (cells[S * 0 + 5]["x"], cells[S * 0 + 5]["y"])]
    # and the picked rows in the embedding table: A (它) is row 5, B (小猫) row 0
    rows = view["table"]["rows"]
    cell = view["table"]["cell"]
    assert [y for _, y in frames(root, "table")] == [rows[5]["y"] - cell / 2,
                                                     rows[0]["y"] - cell / 2]
    # the arrow keys move the choice inside a picker: one Tab stop per picker
    root.page.keyboard.press("ArrowRight")
    assert button(root, "b", "没有").get_attribute("aria-checked") == "true"
    assert_shows(root, pycore_view("embedding", a="它", b="没有"))


def test_dot_table_is_the_hand_gram_matrix(book_pages):
    root = book_pages("embedding").widget("embedding")
    table = [[1, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0],
             [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0],
             [0, 0, 0, 1, 0, 0]]  # the chapter's table, typed in again
    rows = root.locator('table[data-matrix="dots"] tbody tr')
    for i, x in enumerate(table):
        shown = rows.nth(i).locator("td").all_text_contents()[:9]  # (3 spare slots hidden)
        assert shown == [str(sum(p * q for p, q in zip(x, y))) for y in table]
    # the heatmap of the same numbers says them when pointed at: 小猫 · 小猫 = 2
    root.locator(".emb-sim .cell").first.hover()
    assert root.locator(".emb-sim [data-readout]").first.inner_text() == "小猫 · 小猫 = 2"


def test_pointing_at_a_token_lights_its_row_in_every_heatmap(book_pages):
    root = book_pages("embedding").widget("embedding")
    button(root, "b", "累").hover()
    lit = root.locator(".emb-table .cell.linked")
    assert lit.count() == 6  # 累's row of the table, nothing else there
    assert {float(y) for y in lit.evaluate_all("els => els.map(e => e.getAttribute('y'))")} == \
        {pycore_view("embedding")["table"]["cells"][7 * 6]["y"]}
    # row and column, twice (the spare slots, hidden, left out)
    assert root.locator(".emb-sim .cell.linked:not([data-hidden])").count() == 2 * 17
    root.locator(".emb-table .cell").nth(5 * 6 + 5).hover()  # 它, 代词
    assert root.locator(".emb-table [data-readout]").inner_text() == "它 的「代词」 = 1"


def test_reset_restores_the_block_pair(book_pages):
    root = book_pages("embedding").widget("embedding")
    pick(root, "a", "累")
    pick(root, "b", "过")
    assert_shows(root, pycore_view("embedding", a="累", b="过"))
    before = updates(root)
    root.locator("[data-action=reset]").click()
    assert updates(root) == before + 1
    assert readout(root) == ("1", "0.7071")
    view = pycore_view("embedding", a="小猫", b="马路")
    assert_shows(root, view, min_count=SHOWN)
    assert_drawn(root, view)
    assert button(root, "b", "马路").get_attribute("aria-checked") == "true"


def test_the_readers_sentence_is_drawn(reader_pages, server):
    """A sentence with palette tokens and without some book ones (in the link, as the example
    editor leaves it): one picker button, table row and matrix row and column per token, the
    pickers pick the new tokens, and every number and drawn attribute is pycore's."""
    tokens = ["小猫", "马路", "小狗", "因为", "它", "累", "汽车", "跑", "很", "饿", "它们",
              "了"]
    page = reader_pages.new_page()  # the edited example stays out of other tests
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "03-embeddings.html?example=" + json.dumps({"tokens": tokens}))
    root = page.locator('[data-widget="embedding"][data-state=live]').first
    root.wait_for(state="attached", timeout=60_000)
    example = {"tokens": tokens}
    view = pycore_view("embedding", example=example)
    assert view["tokens"] == tokens
    assert_shows(root, view, min_count=12 * 6 + 2 * 12 * 12)
    assert_drawn(root, view, min_count=12 * 6)
    shown = lambda sel: root.locator(sel).evaluate_all(  # noqa: E731
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent.trim())"
        ".filter(Boolean)")
    assert shown("[data-control=a] [data-value]") == tokens
    assert shown(".emb-table .row-label") == tokens
    assert shown(".emb-sim .row-label") == tokens * 2
    assert shown(".emb-sim .col-label") == tokens * 2
    assert root.locator(".emb-table .cell:not([data-hidden])").count() == 12 * 6
    assert not root.locator(".sentence-note").count()
    # 小狗 and 小猫 have the same features: cosine 1; 汽车 is an entity like 马路
    pick(root, "a", "小狗")
    pick(root, "b", "小猫")
    view = pycore_view("embedding", a="小狗", b="小猫", example=example)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert readout(root) == ("2", "1.0000")
    pick(root, "b", "汽车")
    view = pycore_view("embedding", a="小狗", b="汽车", example=example)
    assert_drawn(root, view)
    assert readout(root) == ("1", "0.7071")
    # the picked rows are framed: A (小狗) is row 2, B (汽车) row 6
    rows, cell = view["table"]["rows"], view["table"]["cell"]
    assert [y for _, y in frames(root, "table")] == [rows[2]["y"] - cell / 2,
                                                     rows[6]["y"] - cell / 2]
    # a shorter sentence: the spare slots hide, a pick the sentence lacks falls back
    short = ["马路", "因为", "它", "累"]
    page.goto(server + "03-embeddings.html?example=" + json.dumps({"tokens": short}))
    root = page.locator('[data-widget="embedding"][data-state=live]').first
    root.wait_for(state="attached", timeout=60_000)
    view = pycore_view("embedding", example={"tokens": short})
    assert (view["a"], view["b"]) == ("马路", "马路")  # 小猫 is gone: the sentence's first
    assert_shows(root, view)
    assert_drawn(root, view)
    assert shown(".emb-table .row-label") == short
    assert root.locator(".emb-sim .cell:not([data-hidden])").count() == 2 * 4 * 4
    assert errors == []


def test_a_pick_brings_the_pair_alone(book_pages):
    """The matrices are the sentence's part, which the page holds: a pick brings the pair's."""
    root = book_pages("embedding").widget("embedding")
    assert parts_came(root, lambda: pick(root, "b", "它")) == [["pair"]]
    assert_shows(root, pycore_view("embedding", b="它"))
    root.locator("[data-action=reset]").click()
