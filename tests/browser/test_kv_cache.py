"""Browser tests of the kv-cache widget (pycore/widgets/kv_cache.py, assets/widgets/kv-cache.js)."""
import pytest

from tests.browser.harness import assert_shows, params_of, pycore_view, updates

D = 6  # the running example's width: one K row and one V row cost 2 d^2 multiply-adds
# (layers, kv heads, d_head) of the presets, from the models' published configurations
SHAPES = {"GPT-2 small": (12, 12, 64), "LLaMA-7B": (32, 32, 128),
          "LLaMA-2-70B (GQA)": (80, 8, 128), "GPT-3 175B": (96, 96, 128)}
BYTES = {"fp32": 4, "fp16": 2, "int8": 1}


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.inner_text()


def number(root, path):
    return int(text(root, path).replace(",", ""))


def rows(root, kind):
    """(visible row count, 1-based numbers of the highlighted rows) of one K | V table."""
    return root.evaluate("""(root, kind) => {
        const trs = [...root.querySelectorAll(`table[data-kind="${kind}"] tbody tr`)].filter(tr => !tr.hidden);
        const cls = kind === "cache" ? "new" : "recomputed";
        return [trs.length, trs.filter(tr => tr.classList.contains(cls)).map(tr => Number(tr.dataset.row))];
    }""", kind)


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
    assert_shows(root, pycore_view("kv-cache", **params), min_count=2 * 8 * 12 + 8 * 4)
    assert params["step"] == 3 and rows(root, "cache") == [3, [3]]
    page.close()


def test_buttons_step_through_generation(book_pages):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    check_step(root, 3, params)
    before = updates(root)
    root.locator("[data-action=next]").click()
    assert updates(root) == before + 1
    check_step(root, 4, params)
    assert text(root, "prefix") == "小猫 没有 过 马路" and text(root, "produced") == "因为"
    root.locator("[data-action=prev]").click()
    root.locator("[data-action=prev]").click()
    check_step(root, 2, params)


def test_keyboard_moves_the_step(book_pages):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    counter = root.locator(".kv-step")
    counter.focus()
    root.page.keyboard.press("ArrowRight")
    check_step(root, 4, params)
    assert counter.get_attribute("aria-valuenow") == "4"
    root.page.keyboard.press("End")
    check_step(root, 8, params)
    assert text(root, "produced") == "了"
    assert root.locator("[data-action=next]").is_disabled()
    root.page.keyboard.press("Home")
    check_step(root, 1, params)
    assert root.locator("[data-action=prev]").is_disabled()
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
    root.locator("[data-control=preset]").select_option(preset)
    root.locator("[data-control=dtype]").select_option(dtype)
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
    root.locator("[data-control=preset]").select_option("LLaMA-7B")
    root.locator("[data-control=context]").fill("2048")
    assert number(root, "per_token_text") == 512 * 1024 and text(root, "cache_human") == "1.0 GiB"


def test_reset_restores_the_block(book_pages):
    root = book_pages("kv-cache").widget("kv-cache")
    params = params_of(root)
    root.locator("[data-action=next]").click()
    root.locator("[data-control=preset]").select_option("GPT-3 175B")
    root.locator("[data-control=dtype]").select_option("fp32")
    root.locator("[data-control=context]").fill("77")
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("kv-cache", **params))
    assert root.locator("[data-control=preset]").input_value() == params["preset"]
    assert root.locator("[data-control=dtype]").input_value() == params["dtype"]
    assert root.locator("[data-control=context]").input_value() == str(params["context"])
    check_step(root, params["step"], params)
