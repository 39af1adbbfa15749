"""Browser tests of the embedding widget (pycore/widgets/embedding.py,
assets/widgets/embedding.js)."""
import math

from tests.browser.harness import assert_shows, params_of, pycore_view, updates

# 6 + 6 vector entries, dot, two lengths, cos, two names, 9x6 table, two 9x9 tables
SHOWN = 12 + 4 + 2 + 54 + 81 + 81


def readout(root):
    read = lambda p: root.locator(f'[data-bind="{p}"]').inner_text()
    return read("dot"), read("cos")


def pick(root, key, token):
    root.locator(f'[data-pick="{key}"][data-token="{token}"]').click()


def test_embedding_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "03-embeddings.html")
    root = page.locator('[data-widget="embedding"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert_shows(root, pycore_view("embedding", **params), min_count=SHOWN)
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
    assert_shows(root, pycore_view("embedding", a="没有", b="因为"), min_count=SHOWN)
    assert root.locator('[data-pick="a"][data-token="没有"]').get_attribute("aria-pressed") == "true"
    assert root.locator('[data-pick="a"][data-token="小猫"]').get_attribute("aria-pressed") == "false"
    # the four function words form a block of ones in the cosine table
    rows = root.locator('table[data-matrix="cosines"] tbody tr')
    words = [1, 4, 6, 8]
    for i in words:
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert [cells[j] for j in words] == ["1.00"] * 4


def test_the_pronoun_and_the_cat_by_keyboard(book_pages):
    root = book_pages("embedding").widget("embedding")
    before = updates(root)
    root.locator('[data-pick="a"][data-token="它"]').focus()
    root.page.keyboard.press("Enter")
    root.locator('[data-pick="b"][data-token="小猫"]').focus()
    root.page.keyboard.press("Space")
    assert updates(root) == before + 2
    assert readout(root) == ("0", "0.0000")
    assert_shows(root, pycore_view("embedding", a="它", b="小猫"), min_count=SHOWN)
    # the pair is marked in both 9x9 tables, at (它, 小猫) and (小猫, 它)
    for path in ("dots", "cosines"):
        marked = root.locator(f'table[data-matrix="{path}"] td.pair')
        assert marked.count() == 2
    rows = root.locator('table[data-matrix="embeddings"] tbody tr')
    assert "pick-a" in rows.nth(5).get_attribute("class")
    assert "pick-b" in rows.nth(0).get_attribute("class")


def test_dot_table_is_the_hand_gram_matrix(book_pages):
    root = book_pages("embedding").widget("embedding")
    table = [[1, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0],
             [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0],
             [0, 0, 0, 1, 0, 0]]  # the chapter's table, typed in again
    rows = root.locator('table[data-matrix="dots"] tbody tr')
    for i, x in enumerate(table):
        shown = rows.nth(i).locator("td").all_inner_texts()
        assert shown == [str(sum(p * q for p, q in zip(x, y))) for y in table]


def test_reset_restores_the_block_pair(book_pages):
    root = book_pages("embedding").widget("embedding")
    pick(root, "a", "累")
    pick(root, "b", "过")
    assert_shows(root, pycore_view("embedding", a="累", b="过"))
    before = updates(root)
    root.locator("[data-action=reset]").click()
    assert updates(root) == before + 1
    assert readout(root) == ("1", "0.7071")
    assert_shows(root, pycore_view("embedding", a="小猫", b="马路"), min_count=SHOWN)
    assert root.locator('[data-pick="b"][data-token="马路"]').get_attribute("aria-pressed") == "true"
