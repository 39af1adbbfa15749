"""Browser tests of the attention-cost widget (pycore/widgets/attention_cost.py,
assets/widgets/attention-cost.js)."""
import math

import pytest

from tests.browser.harness import assert_shows, params_of, pycore_view, updates

# n, scores, bytes (exact, decimal, binary), RNN steps, attention steps, ratio
SHOWN = 8


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').inner_text()


def assert_by_hand(root, n):
    """The counts, worked out here: n^2 scores, 2 bytes each, n RNN steps."""
    assert text(root, "n_text") == f"{n:,}"
    assert text(root, "scores_text") == f"{n * n:,}"
    assert text(root, "bytes_text") == f"{2 * n * n:,}"
    assert text(root, "rnn_steps_text") == f"{n:,}"
    assert text(root, "ratio_text") == f"{n:,}"


def assert_marks(root, n):
    """The chart's markers sit at (log10 n, log10 n^2) and (log10 n, log10 n): 80 / 20 px a decade."""
    get = lambda name, attr: float(root.locator(f'[data-mark="{name}"]').get_attribute(attr))
    x = 80 * math.log10(n)
    assert get("now", "x1") == pytest.approx(x)
    assert get("scores", "cx") == pytest.approx(x) and get("rnn", "cx") == pytest.approx(x)
    assert get("scores", "cy") == pytest.approx(-20 * 2 * math.log10(n))
    assert get("rnn", "cy") == pytest.approx(-20 * math.log10(n))


def test_attention_cost_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="attention-cost"]').first
    assert root.get_attribute("data-state") == "static"
    n = params_of(root)["n"]
    assert_shows(root, pycore_view("attention-cost", n=n), min_count=SHOWN)
    assert_by_hand(root, n)
    assert_marks(root, n)
    page.close()


def test_one_thousand_tokens(book_pages):
    root = book_pages("attention-cost").widget("attention-cost")
    assert params_of(root) == {"n": 1000}
    assert_shows(root, pycore_view("attention-cost", n=1000), min_count=SHOWN)
    assert text(root, "scores_text") == "1,000,000"
    assert text(root, "bytes_text") == "2,000,000"
    assert text(root, "bytes_decimal") == "2.00 MB"


def test_slider_and_arrow_keys(book_pages):
    root = book_pages("attention-cost").widget("attention-cost")
    slider = root.locator("[data-control=log10_n]")
    before = updates(root)
    slider.fill("6")
    assert updates(root) == before + 1
    assert_shows(root, pycore_view("attention-cost", n=1_000_000), min_count=SHOWN)
    assert_by_hand(root, 1_000_000)
    assert text(root, "bytes_decimal") == "2.00 TB"  # the chapter's table: about 2 TB
    assert_marks(root, 1_000_000)
    assert slider.get_attribute("aria-valuetext") == "n = 1,000,000"
    slider.focus()
    root.page.keyboard.press("ArrowLeft")  # one step of 0.05 decades
    n = round(10 ** 5.95)
    assert root.locator("[data-control=n]").input_value() == str(n)
    assert_shows(root, pycore_view("attention-cost", n=n), min_count=SHOWN)
    assert_by_hand(root, n)
    assert_marks(root, n)
    for _ in range(3):
        root.page.keyboard.press("ArrowLeft")
    n = round(10 ** 5.8)
    assert_shows(root, pycore_view("attention-cost", n=n), min_count=SHOWN)
    assert_by_hand(root, n)


def test_presets_and_typed_length(book_pages):
    root = book_pages("attention-cost").widget("attention-cost")
    before = updates(root)
    root.locator('[data-n="1024"]').click()
    assert updates(root) == before + 1
    assert root.locator('[data-n="1024"]').get_attribute("aria-pressed") == "true"
    assert_shows(root, pycore_view("attention-cost", n=1024), min_count=SHOWN)
    assert_by_hand(root, 1024)
    assert text(root, "bytes_binary") == "2.00 MiB"  # the chapter's table
    root.locator('[data-n="131072"]').focus()
    root.page.keyboard.press("Enter")
    assert text(root, "bytes_binary") == "32.00 GiB"  # the chapter's table
    assert_shows(root, pycore_view("attention-cost", n=131072), min_count=SHOWN)
    box = root.locator("[data-control=n]")
    box.fill("9")  # the running example: 81 scores, 162 bytes
    assert_shows(root, pycore_view("attention-cost", n=9), min_count=SHOWN)
    assert_by_hand(root, 9)
    assert text(root, "bytes_decimal") == "162 B"
    assert_marks(root, 9)
    assert root.locator("[data-control=log10_n]").input_value() == "0.95"  # log10 9 on the step grid


def test_reset_restores_the_block(book_pages):
    root = book_pages("attention-cost").widget("attention-cost")
    root.locator("[data-control=log10_n]").fill("4.5")
    assert text(root, "n_text") == f"{round(10 ** 4.5):,}"
    root.locator("[data-action=reset]").click()
    assert root.locator("[data-control=n]").input_value() == "1000"
    assert root.locator("[data-control=log10_n]").input_value() == "3"
    assert_shows(root, pycore_view("attention-cost", n=1000), min_count=SHOWN)
    assert_marks(root, 1000)
