"""Browser tests of the kv-cache widget (pycore/widgets/kv_cache.py, assets/widgets/kv-cache.js)."""
import pytest

from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

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
    # both grids print every K | V number of the sentence (once: they never change)
    digits = root.locator(".kv-grid .n").all_text_contents()
    assert digits == 2 * ["".join(f"{x:.0f}" for x in row) for row in view["kv"]]
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
    states = root.locator('.kv-grid[data-kind="cache"] .kv-row').evaluate_all(
        "els => els.map(e => e.dataset.row)")
    assert states == ["cached"] * 4 + ["new"] + ["future"] * 3
    bars = root.locator(".kv-panels .hbar-chart").nth(1).locator(".mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    assert abs(bars[0] / bars[1] - 15 / 5) < 0.01  # 1 + 2 + ... + 5 rows against 5
    caches = root.locator(".part .hbar-chart .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    assert caches[2] < caches[1] and abs(caches[2] / caches[1] - 640 / 1024) < 0.01  # chapter 9
    assert root.locator(".on-band[data-on]").count() == 1
    assert root.locator(".key-figure .big").nth(1).inner_text() == "1.0 GiB"
