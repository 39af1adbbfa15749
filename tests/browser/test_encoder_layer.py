"""The encoder-layer widget (pycore/widgets/encoder_layer/: view, widget.js):
its view against loop arithmetic, then in Chromium: step with buttons, clicks and arrow keys,
switch Post-LN / Pre-LN, read the row means and standard deviations after every LayerNorm,
and follow the reader's sentence (4 to 12 tokens, in MAX_TOKENS row slots)."""
import json
import math

import numpy as np
import pytest

from pycore import encoder, example
from pycore.widgets import compute
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)
from tests.browser.test_example_editor import Page, add, chip
from tests.page_state import asked, held_after
from tests.test_pycore_encoder import ln_rows, mha_loops

NAME = "encoder-layer"


def encoder_view(**params):
    return compute(NAME, params)

# 12 slots x (6 values + mean + std), the FFN's 12 x 24 hidden layer (both tables padded to
# the 12 slots), step counters and stats
SHOWN = 12 * 8 + 12 * 24 + 5
POST = ["输入", "多头注意力", "残差相加", "LayerNorm", "前馈网络 FFN", "残差相加",
        "LayerNorm（本层输出）"]


# --- the view, without a browser -------------------------------------------------------------

def test_view_rows_carry_their_mean_and_std():
    v = encoder_view(step=3, layout="post")  # x + MHA(x)
    assert (v["key"], v["n_steps"], v["shape"], v["n"]) == ("add1", 7, "9 × 6", 9)
    assert v["grid"][9:] == [[0.0] * 8] * 3  # the spare slots of the table
    for row in v["grid"][:9]:
        vals = list(row[:6])
        mu = sum(vals) / 6
        sd = math.sqrt(sum((a - mu) ** 2 for a in vals) / 6)
        assert row[6] == pytest.approx(mu, abs=5e-4) and row[7] == pytest.approx(sd)
    # the input row of 小猫 is (1, 1, 0, 0, 0, 0): mean 1/3, std sqrt(2)/3
    x = encoder_view(step=1, layout="pre")["grid"][0]
    assert x == pytest.approx([1, 1, 0, 0, 0, 0, 1 / 3, math.sqrt(2) / 3])


def test_view_after_layer_norm_and_the_chapter_row():
    v = encoder_view(step=2, layout="pre")  # LN(x)
    assert v["is_norm"] and v["mean_abs_max"] == 0.0
    # the chapter's hand value for 小猫: sqrt(2) and -1/sqrt(2), eps = 1e-5 shrinks it a hair
    s = math.sqrt(2 / 9 + 1e-5)
    assert v["grid"][0][:6] == pytest.approx([2 / 3 / s] * 2 + [-1 / 3 / s] * 4)
    assert f"{v['grid'][0][0]:.3f}" == "1.414" and f"{v['grid'][0][2]:.3f}" == "-0.707"
    assert 0.9999 < v["std_min"] <= v["std_max"] < 1.0


def test_view_clamps_the_step_and_lists_the_layout():
    post, pre = encoder_view(step=8, layout="post"), encoder_view(step=8, layout="pre")
    assert (post["step"], post["key"], pre["step"], pre["key"]) == (7, "ln2", 8, "ln_final")
    assert [s["name"] for s in post["steps"]] == POST
    assert [s["key"] for s in pre["steps"]] == ["x", "ln1", "mha", "add1", "ln2", "ffn",
                                                 "add2", "ln_final"]


def test_view_colours_and_the_hidden_layer():
    v = encoder_view(step=4, layout="post")
    # the heatmap's diverging classes on one scale for every step, [-2.5, 2.5]: 4 + round(4 x / 2.5)
    for row, classes in zip(v["grid"], v["fig"]["heat"]["c"]):
        for x, c in zip(row[:6], classes):
            assert c == 4 + round(max(-1, min(1, x / 2.5)) * 4)
    # hidden layer of the FFN: relu(h W1) with h = LN(x + MHA(x)), by explicit loops
    h, w1 = np.array(v["grid"])[:9, :6], encoder.ffn_weights()["w1"]
    hid = [[max(0.0, sum(h[i, k] * w1[k, j] for k in range(6))) for j in range(24)]
           for i in range(9)]
    assert np.allclose(v["hidden"][:9], hid, atol=2e-3)  # h was cleaned to 0 below 5e-4
    assert v["hidden"][9:] == [[0.0] * 24] * 3
    assert v["hidden_shape"] == "9 × 24" and v["d_ff"] == 4 * 6


# --- the reader's sentence, without a browser ----------------------------------------------

SHORT = ["小狗", "它", "很", "饿"]  # n = 4, palette tokens around 它
LONG = ["小猫", "没有", "过", "马路", "和", "小狗", "因为", "它", "太", "饿", "了", "它们"]
# the picture's rows: slot i at TOP + i * CELL (26 units), the viewBox ending 20 units under
# the sentence's last row; 400 units wide (labels, six cells, two bar columns)
TOP, CELL = 36, 26


def test_view_over_a_four_token_sentence():
    ex = {"tokens": SHORT}
    x = np.array([[1, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0],
                  [0, 0, 0, 0, 1, 0]], dtype=float)  # the four tokens' features, by hand
    v = encoder_view(step=1, layout="post", example=ex)
    assert (v["tokens"], v["n"], v["shape"]) == (SHORT, 4, "4 × 6")
    assert v["formula"] == "X：4 行 × 6 列，句子里每个词一行嵌入"
    # a one-hot row: mean 1/6, std sqrt(5)/6; 小狗: mean 1/3, std sqrt(2)/3
    stats = [[1 / 3, math.sqrt(2) / 3]] + [[1 / 6, math.sqrt(5) / 6]] * 3
    assert np.allclose(v["grid"][:4], np.column_stack([x, stats]), atol=5e-4)
    assert v["row_std"] == pytest.approx([s for _, s in stats])
    assert v["grid"][4:] == [[0.0] * 8] * 8
    # x + MHA(x), by loops
    v = encoder_view(step=3, layout="post", example=ex)
    assert "两个 4 × 6 矩阵" in v["formula"]
    assert np.allclose(np.array(v["grid"][:4])[:, :6], x + mha_loops(x), atol=5e-4)
    # LN(x + MHA(x)): the FFN's input, its 4 x 24 hidden layer, padded to the 12 slots
    v = encoder_view(step=4, layout="post", example=ex)
    h = ln_rows(x + mha_loops(x))
    assert np.allclose(np.array(v["grid"][:4])[:, :6], h, atol=5e-4)
    hid = np.maximum(h @ encoder.ffn_weights()["w1"], 0)
    assert np.allclose(v["hidden"][:4], hid) and v["hidden"][4:] == [[0.0] * 24] * 8
    assert v["hidden_shape"] == "4 × 24" and len(v["hidden_fig"]["rows"]) == 4
    # the picture: 12 row slots, 4 used; the viewBox ends under the fourth row
    fig = v["fig"]
    assert [r["label"] for r in fig["rows"]] == SHORT + [""] * 8
    assert [r["hidden"] for r in fig["rows"]] == [False] * 4 + [True] * 8
    assert [r["y"] for r in fig["rows"]] == [TOP + i * CELL + CELL / 2 for i in range(12)]
    assert fig["viewbox"] == f"0 0 400 {TOP + 4 * CELL + 20}" == "0 0 400 160"
    assert (fig["bottom"], fig["axis_y"]) == (TOP + 4 * CELL, TOP + 4 * CELL + 14)
    assert fig["heat"]["say"][0][0] == f"小狗 → 维 1：{h[0][0]:.4f}"
    assert fig["heat"]["say"][4:] == [[""] * 6] * 8
    for bars in (fig["mu"]["bars"], fig["sd"]["bars"]):
        assert [b["hidden"] for b in bars] == [False] * 4 + [True] * 8
        assert all(b["say"] == "" for b in bars[4:]) and bars[1]["say"].startswith("它 ")
    assert [t["label"] for t in v["token_slots"]] == SHORT + [""] * 8


def test_view_over_twelve_tokens_keeps_sentences_apart():
    v = encoder_view(step=1, layout="pre", example={"tokens": LONG})
    assert v["n"] == 12 and v["shape"] == "12 × 6" and v["fig"]["viewbox"] == "0 0 400 368"
    assert not any(r["hidden"] for r in v["fig"]["rows"])
    assert [r["label"] for r in v["fig"]["rows"]] == LONG
    # the same tokens in another order (cached apart: the key holds the sentence): X's rows
    # move with them, but the attention's do not only move, head B reads positions
    turned = LONG[::-1]
    w = encoder_view(step=1, layout="pre", example={"tokens": turned})
    assert w["grid"] == v["grid"][::-1]
    a = np.array(encoder_view(step=3, layout="pre", example={"tokens": LONG})["grid"])
    b = np.array(encoder_view(step=3, layout="pre", example={"tokens": turned})["grid"])
    assert not np.allclose(a[::-1], b, atol=1e-3)
    x = example.sentence_embeddings(example.checked_example({"tokens": turned}))
    assert np.allclose(b[:, :6], mha_loops(ln_rows(x)), atol=5e-4)


def test_the_hidden_layer_follows_the_sentence():
    """A page that holds the hidden layer of the same layout but another example (or
    sentence) gets the whole view."""
    ex = {"tokens": SHORT}
    same, _ = asked(NAME, {"step": 5, "layout": "post", "example": ex},
                    held_after(NAME, {"step": 2, "layout": "post", "example": ex}))
    assert "hidden" not in same and same["n"] == 4
    other, _ = asked(NAME, {"step": 5, "layout": "post", "example": ex},
                     held_after(NAME, {"step": 5, "layout": "post"}))
    assert other == encoder_view(step=5, layout="post", example=ex)
    assert other["hidden_shape"] == "4 × 24"


# --- the page --------------------------------------------------------------------------------

def step_names(root):
    return root.locator(".enc-steps li:not([hidden]) .enc-step-name").all_inner_texts()


def stats_columns(root):
    """The page's mean and std of every row of the sentence (the table says how many it
    shows), read from the table's last two columns (in the 数值 fold)."""
    table = root.locator('table[data-matrix="grid"]')
    rows = table.locator("tbody tr")
    n = int(table.get_attribute("data-rows"))
    cells = [rows.nth(i).locator("td").all_text_contents() for i in range(n)]
    return [c[6] for c in cells], [c[7] for c in cells]


def layout_button(root, layout):
    return root.locator(f"""[data-control=layout] [data-value='"{layout}"']""")


def bars_at_their_reference(root, view):
    """The picture: every bound attribute is pycore's; the bars of a row's mean run from the
    zero line of [-1, 1] (80 units) and those of its std from the left of [0, 2], so after a
    LayerNorm every std bar ends on the line at 1."""
    assert_drawn(root, view, min_count=72 * 4 + 24 * 5 + 12 * 2 + 8 * 2 + 2)
    sd = root.locator(".enc-bars.sd .bar:not([data-hidden])").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('x')) + Number(e.getAttribute('width')))")
    ref = float(root.locator(".enc-bars.sd .ref").get_attribute("x1"))
    left = float(root.locator(".enc-bars.sd .axis").get_attribute("x1"))
    assert len(sd) == view["n"] == len(view["row_std"])
    for end, std in zip(sd, view["row_std"]):
        assert abs(end - (left + min(std, 2) / 2 * 80)) <= 0.011
    if view["is_norm"]:
        assert all(abs(end - ref) < 0.011 for end in sd)


def test_encoder_layer_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "07-encoder-layer.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert params == {"step": 1, "layout": "post"}
    assert_shows(root, pycore_view(NAME, **params), min_count=SHOWN)
    assert step_names(root) == POST
    page.close()


def test_buttons_step_forward_and_back(book_pages):
    root = book_pages(NAME).widget(NAME)
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    before = updates(root)
    for _ in range(3):
        root.locator("[data-action=next]").click()
    assert updates(root) == before + 3
    view = pycore_view(NAME, step=4)
    assert_shows(root, view, min_count=SHOWN)
    bars_at_their_reference(root, view)
    assert root.locator('[data-bind="name"]').inner_text() == "LayerNorm"
    assert root.locator('li[aria-selected="true"] .enc-step-name').inner_text() == "LayerNorm"
    root.locator("[data-action=prev]").click()
    assert_shows(root, pycore_view(NAME, step=3), min_count=SHOWN)
    bars_at_their_reference(root, pycore_view(NAME, step=3))
    # keyboard on the buttons themselves
    root.locator("[data-action=next]").focus()
    root.page.keyboard.press("Enter")
    root.page.keyboard.press("Space")
    assert_shows(root, pycore_view(NAME, step=5), min_count=SHOWN)
    assert updates(root) == before + 6


def test_arrow_keys_on_the_step_list_and_the_ends(book_pages):
    root = book_pages(NAME).widget(NAME)
    before = updates(root)
    root.locator(".enc-steps").focus()
    for key in ("ArrowRight", "ArrowDown", "ArrowRight"):
        root.page.keyboard.press(key)
    assert_shows(root, pycore_view(NAME, step=4), min_count=SHOWN)
    root.page.keyboard.press("ArrowLeft")
    assert_shows(root, pycore_view(NAME, step=3), min_count=SHOWN)
    root.page.keyboard.press("End")
    assert_shows(root, pycore_view(NAME, step=7), min_count=SHOWN)
    assert root.locator("[data-action=next]").get_attribute("aria-disabled") == "true"
    n = updates(root)
    root.page.keyboard.press("ArrowRight")  # past the end: nothing to do
    root.locator("[data-action=next]").click(force=True)  # aria-disabled, still clickable
    assert updates(root) == n
    root.locator(".enc-steps").focus()
    root.page.keyboard.press("Home")
    assert_shows(root, pycore_view(NAME, step=1), min_count=SHOWN)
    assert root.locator("[data-action=prev]").get_attribute("aria-disabled") == "true"
    assert updates(root) > before
    # a click on a step in the list jumps there
    root.locator('.enc-steps li[data-step="6"]').click()
    assert_shows(root, pycore_view(NAME, step=6), min_count=SHOWN)


def test_switch_to_pre_ln_changes_the_step_list(book_pages):
    root = book_pages(NAME).widget(NAME)
    root.locator('.enc-steps li[data-step="3"]').click()
    before = updates(root)
    layout_button(root, "pre").click()
    assert updates(root) == before + 1
    view = pycore_view(NAME, step=3, layout="pre")
    assert_shows(root, view, min_count=SHOWN)
    assert step_names(root) == [s["name"] for s in view["steps"]] and len(step_names(root)) == 8
    assert root.locator('[data-bind="label"]').inner_text() == "MHA(LN(x))"
    root.locator("[data-action=next]").click()
    assert root.locator('[data-bind="label"]').inner_text() == "r = x + MHA(LN(x))"
    # the layer's own output under Pre-LN is not normalised: std differs from 1
    root.locator('.enc-steps li[data-step="7"]').click()
    assert_shows(root, pycore_view(NAME, step=7, layout="pre"), min_count=SHOWN)
    _, stds = stats_columns(root)
    assert max(abs(float(s) - 1) for s in stds) > 0.1
    # back to Post-LN from step 8: the shorter list shows its last step
    root.locator('.enc-steps li[data-step="8"]').click()
    layout_button(root, "post").click()
    assert_shows(root, pycore_view(NAME, step=8, layout="post"), min_count=SHOWN)
    assert step_names(root) == POST
    assert root.locator('li[aria-selected="true"] .enc-step-name').inner_text() == POST[-1]


@pytest.mark.parametrize("layout", ["post", "pre"])
def test_every_layer_norm_gives_mean_zero_std_one(book_pages, layout):
    root = book_pages(NAME).widget(NAME)
    layout_button(root, layout).click()
    norms = [i + 1 for i, s in enumerate(encoder.encoder_steps(layout)) if s["kind"] == "norm"]
    assert len(norms) == (2 if layout == "post" else 3)
    for step in norms:
        root.locator(f'.enc-steps li[data-step="{step}"]').click()
        view = pycore_view(NAME, step=step, layout=layout)
        assert_shows(root, view, min_count=SHOWN)
        bars_at_their_reference(root, view)
        means, stds = stats_columns(root)
        assert means == ["0.000"] * len(example.TOKENS)
        assert all(abs(float(s) - 1) < 1e-3 for s in stds)
        assert root.locator('[data-bind="mean_abs_max"]').inner_text() == "0.000"
        for path in ("std_min", "std_max"):
            assert 0.9999 < float(root.locator(f'[data-bind="{path}"]').inner_text()) <= 1.0
        assert root.locator(".enc-norm-only").is_visible()


def test_reset_restores_the_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    layout_button(root, "pre").click()
    root.locator('.enc-steps li[data-step="5"]').click()
    assert_shows(root, pycore_view(NAME, step=5, layout="pre"), min_count=SHOWN)
    root.locator("[data-action=reset]").click()
    assert layout_button(root, "post").get_attribute("aria-checked") == "true"
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    assert step_names(root) == POST
    assert root.locator('li[aria-selected="true"]').get_attribute("data-step") == "1"


def test_pointing_at_a_cell_lights_its_row_and_bars(book_pages):
    """A cell says its value and lights its token's label and its two bars; from the keyboard
    the heatmap is one Tab stop and the arrow keys move by cell and by row."""
    root = book_pages(NAME).widget(NAME)
    root.locator('.enc-steps li[data-step="4"]').click()  # h = LN(x + MHA(x))
    view = pycore_view(NAME, step=4)
    cell = root.locator(".enc-heat .cell").nth(0)
    cell.hover()
    assert root.locator(".enc-fig [data-readout]").inner_text() == \
        f"小猫 → 维 1：{view['fig']['heat']['say'][0][0].split('：')[1]}"
    assert float(root.locator(".enc-fig [data-readout]").inner_text().split("：")[1]) == \
        pytest.approx(view["grid"][0][0], abs=1e-3)
    lit = root.locator(".enc-heat .linked").evaluate_all(
        "els => els.map(e => e.classList.contains('bar') ? 'bar' : e.textContent)")
    assert lit.count("bar") == 2 and "小猫" in lit
    cell.focus()
    root.page.keyboard.press("ArrowDown")
    assert root.locator(".enc-fig [data-readout]").inner_text().startswith("没有 → 维 1：")
    root.locator("[data-action=reset]").click()


def test_the_hidden_layer_is_sent_only_when_the_layout_changes():
    """A page that holds the layout's part gets the step's alone; the page's view, updated with
    it, is the whole view."""
    old = pycore_view(NAME, step=2, layout="post")
    held = held_after(NAME, {"step": 2, "layout": "post"})
    same, sent = asked(NAME, {"step": 5, "layout": "post"}, held)
    assert "hidden" not in same and "hidden_fig" not in same and same["step"] == 5
    assert set(sent) == {"at_step"}
    assert {**old, **same} == pycore_view(NAME, step=5, layout="post")
    other, sent = asked(NAME, {"step": 5, "layout": "pre"}, held)
    assert other == pycore_view(NAME, step=5, layout="pre") and set(sent) == {"layer", "at_step"}


def test_a_step_brings_the_steps_part_alone(book_pages):
    root = book_pages(NAME).widget(NAME)
    assert parts_came(root, lambda: root.locator("[data-action=next]").click()) == [["at_step"]]
    assert_shows(root, pycore_view(NAME, step=2))
    root.locator("[data-action=reset]").click()


# --- the reader's sentence, in Chromium ------------------------------------------------------

def visible_texts(root, selector):
    """The texts of the elements the reader sees (display: none and empty ones left out)."""
    return root.locator(selector).evaluate_all(
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent.trim())"
        ".filter(Boolean)")


def assert_draws_the_sentence(root, tokens, **params):
    """Numbers, every bound attribute, and what the reader sees: one label, six cells and two
    bars per token, the picture framed to the sentence's rows."""
    view = pycore_view(NAME, **params, example={"tokens": tokens})
    n = len(tokens)
    assert view["tokens"] == tokens
    assert_shows(root, view, min_count=SHOWN)
    assert_drawn(root, view, min_count=72 * 4 + 24 * 5)
    assert visible_texts(root, ".enc-heat .row-label") == tokens
    assert root.locator(".enc-heat .cell:not([data-hidden])").count() == n * 6
    assert root.locator(".enc-heat .bar:not([data-hidden])").count() == 2 * n
    svg = root.locator(".enc-heat")
    assert svg.get_attribute("viewBox") == f"0 0 400 {TOP + n * CELL + 20}"
    box = svg.bounding_box()  # drawn to the viewBox's proportions: no empty slots below
    assert box["height"] / box["width"] == pytest.approx((TOP + n * CELL + 20) / 400, rel=0.01)
    table = root.locator('table[data-matrix="grid"]')
    assert table.get_attribute("data-rows") == str(n)
    assert [t.strip() for t in table.locator("tbody th").all_text_contents()[:n]] == tokens
    assert root.locator('[data-bind="shape"]').inner_text() == f"{n} × 6"
    assert not root.locator(".sentence-note").count()
    return view


def open_sentence(context, server, tokens):
    return Page(None, server, context=context, href="07-encoder-layer.html?example="
                + json.dumps({"tokens": tokens}, ensure_ascii=False))


def test_a_short_and_a_long_sentence_are_drawn(reader_pages, server):
    """A link with the reader's sentence: 4 tokens, then 12; stepping and switching the
    layout keep every number and mark pycore's, and every LayerNorm still evens the rows."""
    page = open_sentence(reader_pages, server, SHORT)
    root = page.page.locator(f'[data-widget="{NAME}"]').first
    assert_draws_the_sentence(root, SHORT)
    for _ in range(3):
        root.locator("[data-action=next]").click()
    view = assert_draws_the_sentence(root, SHORT, step=4)  # h = LN(x + MHA(x))
    bars_at_their_reference(root, view)
    means, stds = stats_columns(root)
    assert means == ["0.000"] * 4 and all(abs(float(s) - 1) < 1e-3 for s in stds)
    layout_button(root, "pre").click()
    root.locator(".enc-steps").focus()
    root.page.keyboard.press("End")  # the final LayerNorm
    view = assert_draws_the_sentence(root, SHORT, step=8, layout="pre")
    bars_at_their_reference(root, view)
    root.locator("details.enc-more summary").click()  # the FFN's 4 x 24 hidden layer
    assert root.locator('[data-bind="hidden_shape"]').inner_text() == "4 × 24"
    assert page.errors == []
    page.close()

    page = open_sentence(reader_pages, server, LONG)
    root = page.page.locator(f'[data-widget="{NAME}"]').first
    assert_draws_the_sentence(root, LONG)
    root.locator('.enc-steps li[data-step="2"]').click()  # MHA(x)
    assert_draws_the_sentence(root, LONG, step=2)
    root.locator('.enc-steps li[data-step="7"]').click()
    view = assert_draws_the_sentence(root, LONG, step=7)
    bars_at_their_reference(root, view)
    cell = root.locator(".enc-heat .cell").nth(11 * 6 + 5)  # the last row's last cell
    cell.hover()
    assert root.locator(".enc-fig [data-readout]").inner_text() == \
        view["fig"]["heat"]["say"][11][5]
    assert page.errors == []
    page.close()


def test_the_widget_follows_the_editor_and_reset(reader_pages, server):
    """The example editor on the page: a removed chip and an added palette token redraw the
    widget at the step it shows; 重置 brings the book's nine tokens back."""
    page = Page(None, server, "07-encoder-layer.html", context=reader_pages)
    root = page.page.locator(f'[data-widget="{NAME}"]').first
    root.locator('.enc-steps li[data-step="4"]').click()
    assert_draws_the_sentence(root, example.TOKENS, step=4)
    chip(page, "没有").click()
    chip(page, "过").click()
    tokens = ["小猫", "马路", "因为", "它", "太", "累", "了"]
    assert page.sentence() == tokens
    assert_draws_the_sentence(root, tokens, step=4)
    add(page, "小狗", after="马路")
    tokens = ["小猫", "马路", "小狗", "因为", "它", "太", "累", "了"]
    assert page.sentence() == tokens
    view = assert_draws_the_sentence(root, tokens, step=4)
    bars_at_their_reference(root, view)
    root.locator("[data-action=next]").click()  # it still steps, over the new sentence
    assert_draws_the_sentence(root, tokens, step=5)
    page.editor().locator("[data-action=reset]").click()
    assert page.sentence() == example.TOKENS
    assert_draws_the_sentence(root, example.TOKENS, step=5)
    assert page.errors == []
    page.close()
