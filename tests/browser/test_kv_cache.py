"""Browser tests of the kv-cache widget (pycore/widgets/kv_cache/: view, widget.js)."""
import json

import pytest

from pycore import example as book
from tests.browser import test_example_editor as editor
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

D = 6  # the running example's width: one K row and one V row cost 2 d^2 multiply-adds
# (layers, kv heads, d_head) of the presets, from the models' published configurations
SHAPES = {"GPT-2 small": (12, 12, 64), "LLaMA-7B": (32, 32, 128),
          "LLaMA-2-70B (GQA)": (80, 8, 128), "GPT-3 175B": (96, 96, 128)}
BYTES = {"fp32": 4, "fp16": 2, "int8": 1}


def text(root, path):
    """The text of the first element bound to path (some sit in the folded 数值)."""
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def number(root, path):
    return int(text(root, path).replace(",", ""))


def rows(root, kind):
    """(rows drawn as there, 1-based numbers of the rows computed at this step) of one K | V
    grid of the picture."""
    return root.evaluate("""(root, kind) => {
        const rows = [...root.querySelectorAll(`.kv-grid[data-kind="${kind}"] .kv-row`)];
        const there = rows.filter(r => r.dataset.row !== "future");
        const state = kind === "cache" ? "new" : "recomputed";
        const computed = rows.map((r, i) => r.dataset.row === state ? i + 1 : 0);
        return [there.length, computed.filter(Boolean)];
    }""", kind)


def step_button(root, d):
    """The stepper's − (d = -1) or + (d = 1) button."""
    return root.locator(f'[data-control=step] [data-step="{d}"]')


def choose(root, control, value):
    root.locator(f"""[data-control={control}] [data-value='"{value}"']""").click()


def chosen(root, control):
    button = root.locator(f"[data-control={control}] [aria-checked=true]")
    return button.get_attribute("data-value")[1:-1]


def check_step(root, step, params):
    """Every number equals pycore, and the counts equal the closed forms for a 1-token prompt."""
    assert_shows(root, pycore_view("kv-cache", **{**params, "step": step}))
    assert number(root, "step") == step
    assert rows(root, "nocache") == [step, list(range(1, step + 1))]  # the whole prefix again
    assert rows(root, "cache") == [step, [step]]                       # one new row
    per_row = 2 * D * D
    assert number(root, "step_nocache") == step * per_row
    assert number(root, "total_nocache") == per_row * step * (step + 1) // 2  # 1 + 2 + ... + step
    assert number(root, "total_cache") == per_row * step


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "09-sampling.html")
    root = page.locator('[data-widget="kv-cache"]').first
    params = params_of(root)
    view = pycore_view("kv-cache", **params)
    assert_shows(root, view, min_count=8 * 12 + 8 * 4)
    # both grids print every K | V number of the 8 tokens read (once: they never change), in
    # 11 rows of which 3 are spare
    digits = root.locator(".kv-grid .n").all_text_contents()
    assert digits == 2 * (["".join(f"{x:.0f}" for x in row) for row in view["kv"][:8]]
                          + [""] * 3)
    assert params["step"] == 3 and rows(root, "cache") == [3, [3]]
    page.close()


def test_buttons_step_through_generation(book_pages):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    check_step(root, 3, params)
    before = updates(root)
    step_button(root, 1).click()
    assert updates(root) == before + 1
    check_step(root, 4, params)
    assert text(root, "prefix") == "小猫 没有 过 马路" and text(root, "produced") == "因为"
    step_button(root, -1).click()
    step_button(root, -1).click()
    check_step(root, 2, params)


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A step leaves the sentence and the real model's cache as they are; another model leaves
    the toy's generation."""
    root = book_pages("kv-cache").widget("kv-cache")
    assert parts_came(root, lambda: step_button(root, 1).click()) == [["generation"]]
    assert parts_came(root, lambda: choose(root, "preset", "LLaMA-7B")) == [["model"]]
    root.locator("[data-action=reset]").click()


def test_keyboard_moves_the_step(book_pages):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    counter = root.locator("[data-control=step]")
    counter.focus()
    root.page.keyboard.press("ArrowRight")
    check_step(root, 4, params)
    assert counter.get_attribute("aria-valuenow") == "4"
    root.page.keyboard.press("End")
    check_step(root, 8, params)
    assert text(root, "produced") == "了"
    assert step_button(root, 1).is_disabled()
    root.page.keyboard.press("Home")
    check_step(root, 1, params)
    assert step_button(root, -1).is_disabled()
    before = updates(root)
    root.page.keyboard.press("ArrowLeft")  # already at the first step: nothing to do
    assert updates(root) == before
    check_step(root, 1, params)


def hand_bytes(preset, context, dtype):
    layers, kv_heads, d_head = SHAPES[preset]
    return 2 * layers * kv_heads * d_head * context * BYTES[dtype]


@pytest.mark.parametrize("preset, context, dtype", [
    ("LLaMA-7B", 4096, "fp16"), ("LLaMA-2-70B (GQA)", 4096, "fp16"),
    ("GPT-3 175B", 2048, "fp32"), ("GPT-2 small", 1, "int8")])
def test_cache_bytes_equal_the_formula(book_pages, preset, context, dtype):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    choose(root, "preset", preset)
    choose(root, "dtype", dtype)
    root.locator("[data-control=context]").fill(str(context))
    assert_shows(root, pycore_view("kv-cache", **{**params, "preset": preset, "context": context,
                                                  "dtype": dtype}))
    expected = hand_bytes(preset, context, dtype)
    assert number(root, "cache_bytes_text") == expected
    layers, kv_heads, d_head = SHAPES[preset]
    shown = [number(root, k) for k in ("layers", "kv_heads", "d_head", "context", "bytes_per_value")]
    assert shown == [layers, kv_heads, d_head, context, BYTES[dtype]]


def test_chapter_table_values(book_pages):
    """Chapter 9's table: 36,864 bytes per token and 36 MiB for GPT-2 small at 1024 tokens;
    512 KiB per token and 1 GiB for LLaMA-7B at its 2048 tokens (fp16)."""
    root = book_pages("kv-cache").widget("kv-cache")
    assert number(root, "per_token_text") == 36_864 and text(root, "cache_human") == "36.0 MiB"
    choose(root, "preset", "LLaMA-7B")
    root.locator("[data-control=context]").fill("2048")
    assert number(root, "per_token_text") == 512 * 1024 and text(root, "cache_human") == "1.0 GiB"


def test_reset_restores_the_block(book_pages):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    step_button(root, 1).click()
    choose(root, "preset", "GPT-3 175B")
    choose(root, "dtype", "fp32")
    root.locator("[data-control=context]").fill("77")
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("kv-cache", **params))
    assert chosen(root, "preset") == params["preset"]
    assert chosen(root, "dtype") == params["dtype"]
    assert root.locator("[data-control=context]").input_value() == str(params["context"])
    check_step(root, params["step"], params)


def test_the_picture_is_pycores(book_pages):
    """The grids, the bars and the presets' caches: every drawn attribute is the view's. At
    step 5 the grid without a cache draws five rows all computed again, the one with a cache
    four rows read from it and one new; the running total without a cache is 15 rows' worth
    against 5, and LLaMA-2-70B's cache (GQA) is shorter than LLaMA-7B's."""
    root = book_pages("kv-cache").widget("kv-cache")
    view = pycore_view("kv-cache")
    assert_drawn(root, view, min_count=2 * 8 * 3 + 3 * 2)
    root.locator("[data-control=step]").focus()
    root.page.keyboard.press("ArrowRight")
    root.page.keyboard.press("ArrowRight")
    choose(root, "preset", "LLaMA-7B")
    root.locator("[data-control=context]").fill("2048")
    view = pycore_view("kv-cache", step=5, preset="LLaMA-7B", context=2048)
    assert_drawn(root, view)
    states = root.locator('.kv-grid[data-kind="cache"] .kv-row:not([data-hidden])').evaluate_all(
        "els => els.map(e => e.dataset.row)")
    assert states == ["cached"] * 4 + ["new"] + ["future"] * 3
    bars = root.locator(".kv-panels .hbar-chart").nth(1).locator(".mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    assert abs(bars[0] / bars[1] - 15 / 5) < 0.01  # 1 + 2 + ... + 5 rows against 5
    caches = root.locator(".kv-real .hbar-chart .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    assert caches[2] < caches[1] and abs(caches[2] / caches[1] - 640 / 1024) < 0.01  # chapter 9
    assert root.locator(".on-band[data-on]").count() == 1
    assert root.locator(".key-figure .big").nth(1).inner_text() == "1.0 GiB"


# --- the reader's sentence ----------------------------------------------------------------

SHORT = ["马路", "因为", "它", "累"]
TWELVE = ["小猫", "马路", "小狗", "因为", "它", "累", "汽车", "跑", "很", "饿", "它们", "了"]
PITCH, HEAD_H = 16, 16  # a grid's row pitch and head, in SVG units


def drawn_rows(root, kind):
    """(token, state, K | V digits) of each row a grid shows (its spare rows are hidden)."""
    return [tuple(r) for r in root.evaluate("""(root, kind) => [...root.querySelectorAll(
        `.kv-grid[data-kind="${kind}"] .kv-row`)].filter(r => r.getClientRects().length)
        .map(r => [r.querySelector(".label").textContent, r.dataset.row,
                   r.querySelector(".n").textContent])""", kind)]


def shown_table_rows(root, matrix):
    """The row labels a 数值 table shows (its spare rows are hidden by data-rows)."""
    root.locator("details.numbers > summary").click()
    labels = root.locator(f'table[data-matrix="{matrix}"] tbody th').evaluate_all(
        "els => els.filter(e => e.getClientRects().length).map(e => e.textContent)")
    root.locator("details.numbers > summary").click()
    return labels


def check_sentence(root, tokens, step, prompt=1, asked=None):
    """The page shows pycore's view of `tokens` at `step` and, worked out here, the sentence's
    generation: a row per token read (all but the last), the rows computed without and with
    the cache, the running totals, the grids' height and the stepper's end. asked: the prompt
    the widget's state holds (default `prompt`: the one shown)."""
    view = pycore_view("kv-cache", **{**params_of(root), "step": step,
                                      "prompt": asked or prompt}, example={"tokens": tokens})
    assert_shows(root, view, min_count=20)
    assert_drawn(root, view, min_count=2 * 11 * 4)
    n, c = len(tokens), prompt + step - 1
    per_row = 2 * D * D
    read = tokens[:-1]
    for kind in ("nocache", "cache"):
        rows = drawn_rows(root, kind)
        assert [t for t, _, _ in rows] == read
        # K = V = X (W_K = W_V = I): the token's six features twice
        assert [d for _, _, d in rows] == [
            "".join(str(f) for f in book.features_of(book.checked_example(
                {"tokens": tokens}), t)) * 2 for t in read]
        height = HEAD_H + (n - 1) * PITCH
        svg = root.locator(f'.kv-grid[data-kind="{kind}"]')
        assert svg.get_attribute("viewBox") == f"0 0 248 {height}"
        box = svg.bounding_box()
        assert abs(box["height"] / box["width"] - height / 248) < 0.01
    new = list(range(c - prompt + 1, c + 1)) if step == 1 else [c]
    assert rows_by_state(root, "nocache") == [c, list(range(1, c + 1))]
    assert rows_by_state(root, "cache") == [c, new]
    contexts = [prompt + s - 1 for s in range(1, step + 1)]
    assert number(root, "total_nocache") == per_row * sum(contexts)
    assert number(root, "total_cache") == per_row * (prompt + step - 1)
    assert text(root, "prefix") == " ".join(tokens[:c]) and text(root, "produced") == tokens[c]
    stepper = root.locator("[data-control=step]")
    assert stepper.get_attribute("aria-valuemax") == str(n - prompt)
    assert stepper.get_attribute("aria-valuenow") == str(step)
    assert step_button(root, 1).is_disabled() == (step == n - prompt)
    assert shown_table_rows(root, "kv") == read
    assert shown_table_rows(root, "macs") == [f"第 {s} 步" for s in range(1, n - prompt + 1)]
    return view


rows_by_state = rows  # (rows there, the 1-based rows computed at this step) of one grid


def press(root, key):
    """A key on the stepper (check_sentence leaves the focus on the 数值 summary)."""
    root.locator("[data-control=step]").focus()
    root.page.keyboard.press(key)


def open_chapter(context, server, query):
    """Chapter 9 in the session's reader context (its storage emptied for each test)."""
    page = editor.Page(None, server, "09-sampling.html" + query, context=context)
    return page, page.page.locator('[data-widget="kv-cache"]').first


def test_the_readers_sentence_is_drawn(reader_pages, server):
    """A 4-token and a 12-token sentence in the link: one row per token read, the steps of
    that sentence (the stepper ends at n - 1), pycore's numbers and geometry at every step."""
    page, root = open_chapter(reader_pages, server, "?example=" + json.dumps({"tokens": SHORT}))
    assert not root.locator(".sentence-note").count()
    assert not root.locator(".kv-note").is_visible()  # the block's step 3 is this one's last
    check_sentence(root, SHORT, 3)
    press(root, "Home")
    check_sentence(root, SHORT, 1)
    step_button(root, 1).click()
    check_sentence(root, SHORT, 2)
    press(root, "End")
    check_sentence(root, SHORT, 3)
    page.goto("09-sampling.html?example=" + json.dumps({"tokens": TWELVE}))
    root = page.page.locator('[data-widget="kv-cache"]').first
    check_sentence(root, TWELVE, 3)
    press(root, "End")
    view = check_sentence(root, TWELVE, 11)
    assert (view["total_nocache"], view["total_cache"]) == (66 * 72, 11 * 72)
    assert text(root, "produced") == "了"
    press(root, "ArrowLeft")
    check_sentence(root, TWELVE, 10)
    assert page.errors == []
    page.close()


def test_a_link_made_for_a_longer_sentence_is_shown_clamped(reader_pages, server):
    """A prompt of 8 tokens and step 6 in the link of a 4-token sentence: the prompt is its 3
    first tokens, the one step left is shown, and the widget says so."""
    state = json.dumps({"prompt": 8, "step": 6})
    page, root = open_chapter(reader_pages, server, "?example=" + json.dumps({"tokens": SHORT})
                              + "&kv-cache-09-sampling=" + state)
    view = check_sentence(root, SHORT, 1, prompt=3, asked=8)
    assert (view["prompt_asked"], view["prompt"]) == (8, 3)
    note = root.locator(".kv-note")
    assert note.is_visible() and "只有 4 个词" in note.inner_text()
    assert note.inner_text() == view["clamp_note"]
    # step 1 with a prompt of 3 is the prefill: all three rows computed, with or without cache
    assert [s for _, s, _ in drawn_rows(root, "cache")] == ["new"] * 3
    assert page.errors == []
    page.close()


def test_the_widget_follows_the_editor_and_reset(reader_pages, server):
    """Remove tokens with the editor at the last step: the widget follows to the shorter
    sentence's last step (and − steps back from there); add a palette token; 重置 brings the
    book's nine tokens back."""
    page, root = open_chapter(reader_pages, server, "")
    check_sentence(root, book.TOKENS, 3)
    press(root, "End")
    check_sentence(root, book.TOKENS, 8)
    for token in ("没有", "过", "太"):
        editor.chip(page, token).click()
    tokens = ["小猫", "马路", "因为", "它", "累", "了"]
    assert page.sentence() == tokens
    check_sentence(root, tokens, 5)  # the state followed the view: 5 steps only
    step_button(root, -1).click()
    check_sentence(root, tokens, 4)
    editor.add(page, "小狗", after="小猫")
    tokens = ["小猫", "小狗", "马路", "因为", "它", "累", "了"]
    assert page.sentence() == tokens
    check_sentence(root, tokens, 4)
    assert [t for t, _, _ in drawn_rows(root, "cache")][1] == "小狗"
    page.editor().locator("[data-action=reset]").click()
    assert page.sentence() == book.TOKENS
    check_sentence(root, book.TOKENS, 4)
    assert page.errors == []
    page.close()
