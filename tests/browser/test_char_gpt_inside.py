"""Browser tests of the char-gpt-inside widget (pycore/widgets/char_gpt_inside/:
view, widget.js): text typed into its box and a layer and head picked reach
the poem model in Pyodide, and the page's attention cells and logit-lens rows are those
pycore computes in this CPython; a character picked by a click or an arrow key moves the lens
and every head's attention row to its position; junk gets a note and never breaks the page."""
import numpy as np
import pytest

from pycore.gpt import poem_inside
from tests.browser.harness import (after_update, assert_drawn, assert_heat, assert_shows,
                                   params_of, parts_came, pycore_view)

NAME = "char-gpt-inside"


def typed(root, text):
    after_update(root, lambda: root.locator(".cgi-text").fill(text))


def pick(root, name, value):
    """Click the button of `value` in the choice `name` (a button already chosen asks nothing)."""
    button = root.locator(f"[data-control={name}] [data-value='{value}']")
    if params_of(root)[name] == value:
        button.click()
    else:
        after_update(root, button.click)


def page_cells(root):
    """The heatmap's used cells as the page shows them: (row, col) -> value, read from each
    cell's readout ("字 → 字：0.1234")."""
    says = root.locator("svg.heat-slots rect.cell").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-say'))")
    return [float(s.rsplit("：", 1)[1]) for s in says if s]


def lens_rows(root):
    """The lens's rows as the page shows them: [[(char, p), ...] per stage]."""
    chars = root.locator(".cgi-lens-grid .cgi-char").all_text_contents()
    ps = [float(p) for p in root.locator(".cgi-lens-grid .cgi-p").all_text_contents()]
    k = 5
    return [list(zip(chars[i:i + k], ps[i:i + k])) for i in range(0, len(chars), k)]


def position_rows(root, n):
    """Every head's attention row at the picked character as the page's cells say it:
    {(row, column of the heatmap): weight} over the n columns that hold a character (the
    others say they have none)."""
    cells = root.locator(".cgi-rows svg.heat rect.cell.hit").evaluate_all(
        "cells => cells.map(c => [c.dataset.tokens, c.getAttribute('data-say')])")
    out = {}
    for where, say in cells:
        head, j = where.split()  # "head<row> <column>": a row is a head, not a character
        i, j = int(head.removeprefix("head")), int(j)
        if j < n:
            out[(i, j)] = float(say.rsplit("：", 1)[1])
        else:
            assert say.endswith("（没有字）"), say
    return out


def assert_position_is_pycores(root, text, at, position):
    """The page's lens and heads' rows at the picked character (the heatmap's `at`, the
    text's `position`) are pycore's: poem_inside.inside at that position, computed here."""
    view = pycore_view(NAME, text=text, at=at)  # the default layer and head
    assert view["at"] == at
    assert_shows(root, view, min_count=40)
    assert_drawn(root, view, min_count=40)
    assert_heat(root, view["rows"], svg=".cgi-rows svg.heat")
    checked = root.locator("[data-control=at] [aria-checked=true]")
    assert checked.count() == 1 and checked.text_content() == text[position]
    out = poem_inside.inside(text, position=position)
    for shown, probs in zip(lens_rows(root), out["lens"]):
        np.testing.assert_allclose([p for _, p in shown], np.sort(probs)[::-1][:5], atol=5e-4)
    # the lens's last row is the model's own output after the text up to that character
    top = pycore_view("char-gpt", text=text[:position + 1])["top"]
    same_label = {"（未知）": "未知"}  # the unknown token, shorter in the lens's cells
    assert [c for c, _ in lens_rows(root)[-1]] == [same_label.get(t["char"], t["char"])
                                                    for t in top[:5]]
    w = out["weights"][:, :, position]  # (L, H, T): the picked query's row, every head
    L, H, T = w.shape
    first = T - min(T, 16)  # the heatmap's first character
    rows = position_rows(root, T - first)
    expected = {(layer * H + head, key - first): w[layer, head, key] for layer in range(L)
                for head in range(H) for key in range(first, T)}
    assert rows.keys() == expected.keys()
    np.testing.assert_allclose([rows[k] for k in expected], list(expected.values()), atol=5e-5)
    # the keys after the picked character get nothing: the mask
    assert all(v == 0 for (_, j), v in rows.items() if j > position - first)
    return view


def assert_is_pycores(root, text, layer, head, at=15):
    """Every number, cell and lens row of the page equals pycore's, computed here: the view
    and, under it, poem_inside.inside."""
    assert at == 15  # the lens below is the last character's
    view = pycore_view(NAME, text=text, layer=layer, head=head)
    assert_shows(root, view, min_count=40)
    assert_drawn(root, view, min_count=40)
    w = poem_inside.inside(text)["weights"][layer, head]  # (T, T)
    n = min(len(w), 16)
    expected = [w[i, j] for i in range(len(w) - n, len(w)) for j in range(len(w) - n, len(w))]
    np.testing.assert_allclose(page_cells(root), expected, atol=5e-5)
    lens = poem_inside.inside(text)["lens"]  # (4, V): after the embedding, after each block
    for shown, probs in zip(lens_rows(root), lens):
        top = np.sort(probs)[::-1][:5]
        np.testing.assert_allclose([p for _, p in shown], top, atol=5e-4)
    return view


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "13b-trained-model.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    assert_shows(root, pycore_view(NAME, **params_of(root)), min_count=40)
    assert_drawn(root, pycore_view(NAME, **params_of(root)), min_count=40)
    page.close()


@pytest.mark.parametrize("text,layer,head", [("春风又绿江南岸，明月何时照我还", 1, 0),
                                             ("床前明月光，疑是地上霜。\n举头望明月，", 2, 3)])
def test_typed_text_and_a_picked_head_give_pycores_numbers(book_pages, text, layer, head):
    root = book_pages(NAME).widget(NAME)
    typed(root, text)
    pick(root, "layer", layer)
    pick(root, "head", head)
    view = assert_is_pycores(root, text, layer, head)
    assert root.locator(".cgi-lens-grid .cgi-char").all_text_contents() == \
        [c["char"] for c in view["lens"]["cells"]]
    # the lens's last row is the model's output: char-gpt's distribution of the same text
    top = pycore_view("char-gpt", text=text)["top"]
    same_label = {"（未知）": "未知"}  # the unknown token, shorter in the lens's cells
    assert [c for c, _ in lens_rows(root)[-1]] == [same_label.get(t["char"], t["char"])
                                                    for t in top[:5]]


def test_the_line_end_head_looks_at_punctuation(book_pages):
    """Layer 2 head 3, the chapter's head that watches the line ends: on a poem its rows put
    most of their weight on the commas, full stops and line breaks."""
    root = book_pages(NAME).widget(NAME)
    text = "白日依山尽，黄河入海流。"
    typed(root, text)
    pick(root, "layer", 2)
    pick(root, "head", 3)
    cells = np.array(page_cells(root)).reshape(len(text), len(text))
    ends = [j for j, c in enumerate(text) if c in poem_inside.LINE_ENDS]
    assert cells[6:, ends].sum(axis=1).min() > 0.5  # every query after the comma


@pytest.mark.parametrize("text,note", [
    ("", "文本是空的"),
    ("<img src=x onerror=alert(1)>😀", "不在词表里"),
    ("月" * 10_000, "前面 9936 个字它看不到"),
])
def test_junk_gets_a_note_and_the_page_keeps_working(book_pages, text, note):
    root = book_pages(NAME).widget(NAME)
    typed(root, text)
    assert note in root.locator(".cgi-note").text_content()
    assert root.get_attribute("data-state") == "live"
    assert root.locator("svg.heat-slots image, svg.heat-slots img, .cgi-lens img").count() == 0
    assert_shows(root, pycore_view(NAME, text=text, **params_of(root)), min_count=40)
    typed(root, "白日依山尽，")  # and it still answers
    assert_is_pycores(root, "白日依山尽，", **params_of(root))


def test_reset_brings_back_the_first_text_and_head(book_pages):
    root = book_pages(NAME).widget(NAME)
    first = root.locator(".cgi-text").input_value()
    typed(root, "白日依山尽，")
    pick(root, "layer", 0)
    after_update(root, lambda: root.locator("[data-action=reset]").click())
    assert root.locator(".cgi-text").input_value() == first != "白日依山尽，"
    assert params_of(root) == {"layer": 2, "head": 3, "at": 15}
    assert_is_pycores(root, first, 2, 3)


@pytest.mark.parametrize("text,at,position", [
    ("白日依山尽，黄河入海流。", 3, 3),  # shorter than the heatmap: at is the position
    ("床前明月光，疑是地上霜。\n举头望明月，", 0, 3),  # 19: the heatmap shows the last 16
])
def test_a_character_picked_by_click_and_by_key_moves_the_lens_there(book_pages, text, at,
                                                                     position):
    root = book_pages(NAME).widget(NAME)
    typed(root, text)
    button = root.locator(f"[data-control=at] [data-value='{at}']")
    came = parts_came(root, lambda: after_update(root, button.click))
    assert came == [["picked_position"]]  # the model does not run again
    assert_position_is_pycores(root, text, at, position)
    after_update(root, lambda: root.page.keyboard.press("ArrowRight"))
    assert_position_is_pycores(root, text, at + 1, position + 1)
    after_update(root, lambda: root.page.keyboard.press("End"))
    last = min(len(text), 16) - 1
    assert_position_is_pycores(root, text, last, len(text) - 1)
    # a shorter text: the pick past its end is its last character
    typed(root, "白日")
    view = pycore_view(NAME, text="白日", at=last)
    assert view["at"] == 1
    assert_shows(root, view, min_count=20)
    assert root.locator("[data-control=at] [aria-checked=true]").text_content() == "日"
