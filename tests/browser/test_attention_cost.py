"""Browser tests of the attention-cost widget (pycore/widgets/attention_cost/:
view, widget.js)."""
import math

import pytest

from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

# n, scores, bytes (exact, decimal, binary), RNN steps, attention steps, ratio
SHOWN = 8
SLIDER = "input[type=range][data-control=n]"
BOX = "input[type=number][data-control=n]"


def preset(root, n):
    return root.locator(f'[data-control=n] [data-value="{n}"]')


def text(root, path):
    """A bound text, also one inside the closed 数值 fold (text_content)."""
    return root.locator(f'[data-bind="{path}"]').text_content()


def assert_by_hand(root, n):
    """The counts, worked out here: n^2 scores, 2 bytes each, n RNN steps."""
    assert text(root, "n_text") == f"{n:,}"
    assert text(root, "scores_text") == f"{n * n:,}"
    assert text(root, "bytes_text") == f"{2 * n * n:,}"
    assert text(root, "rnn_steps_text") == f"{n:,}"
    assert text(root, "ratio_text") == f"{n:,}"


def assert_marks(root, n):
    """The chart's markers sit at (log10 n, log10 n^2), (log10 n, log10 2n^2) and
    (log10 n, log10 n), worked out here from the plot box: x over 6 decades, y over 13."""
    plot = pycore_view("attention-cost", n=n)["chart"]["plot"]
    to_x = lambda e: plot["x"] + plot["w"] * e / 6
    to_y = lambda e: plot["y"] + plot["h"] * (1 - e / 13)
    get = lambda sel, attr: float(root.locator(sel).get_attribute(attr))
    x = to_x(math.log10(n))
    assert get(".ac-now", "x1") == pytest.approx(x, abs=0.006)
    for k, count in enumerate([n * n, 2 * n * n, n]):
        dot = f'.ac-dot[data-k="{k}"]'
        assert get(dot, "cx") == pytest.approx(x, abs=0.006)
        assert get(dot, "cy") == pytest.approx(to_y(math.log10(count)), abs=0.006)


def test_attention_cost_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="attention-cost"]').first
    assert root.get_attribute("data-state") == "static"
    n = params_of(root)["n"]
    assert_shows(root, pycore_view("attention-cost", n=n), min_count=SHOWN)
    assert_by_hand(root, n)
    assert_marks(root, n)
    assert_drawn(root, pycore_view("attention-cost", n=n), min_count=7)
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
    slider = root.locator(SLIDER)
    before = updates(root)
    slider.fill("6")
    assert updates(root) == before + 1
    assert_shows(root, pycore_view("attention-cost", n=1_000_000), min_count=SHOWN)
    assert_by_hand(root, 1_000_000)
    assert text(root, "bytes_decimal") == "2.00 TB"  # the chapter's table: about 2 TB
    assert_marks(root, 1_000_000)
    assert_drawn(root, pycore_view("attention-cost", n=1_000_000))
    assert slider.get_attribute("aria-valuetext") == "n = 1,000,000"
    slider.focus()
    root.page.keyboard.press("ArrowLeft")  # one step of 0.05 decades
    n = round(10 ** 5.95)
    assert root.locator(BOX).input_value() == str(n)
    assert_shows(root, pycore_view("attention-cost", n=n), min_count=SHOWN)
    assert_by_hand(root, n)
    assert_marks(root, n)
    assert_drawn(root, pycore_view("attention-cost", n=n))
    for _ in range(3):
        root.page.keyboard.press("ArrowLeft")
    n = round(10 ** 5.8)
    assert_shows(root, pycore_view("attention-cost", n=n), min_count=SHOWN)
    assert_by_hand(root, n)


def test_presets_and_typed_length(book_pages):
    root = book_pages("attention-cost").widget("attention-cost")
    before = updates(root)
    preset(root, 1024).click()
    assert updates(root) == before + 1
    assert preset(root, 1024).get_attribute("aria-checked") == "true"
    assert_shows(root, pycore_view("attention-cost", n=1024), min_count=SHOWN)
    assert_by_hand(root, 1024)
    assert text(root, "bytes_binary") == "2.00 MiB"  # the chapter's table
    preset(root, 131072).focus()
    root.page.keyboard.press("Enter")
    assert text(root, "bytes_binary") == "32.00 GiB"  # the chapter's table
    assert_shows(root, pycore_view("attention-cost", n=131072), min_count=SHOWN)
    box = root.locator(BOX)
    box.fill("9")  # the running example: 81 scores, 162 bytes
    assert_shows(root, pycore_view("attention-cost", n=9), min_count=SHOWN)
    assert_by_hand(root, 9)
    assert text(root, "bytes_decimal") == "162 B"
    assert_marks(root, 9)
    assert root.locator(SLIDER).input_value() == "0.95"  # log10 9 on the step grid
    assert preset(root, 9).get_attribute("aria-checked") == "true"  # the running example


def test_reset_restores_the_block(book_pages):
    root = book_pages("attention-cost").widget("attention-cost")
    root.locator(SLIDER).fill("4.5")
    assert text(root, "n_text") == f"{round(10 ** 4.5):,}"
    assert root.locator("[data-control=n] [aria-checked=true]").count() == 0  # no preset
    root.locator("[data-action=reset]").click()
    assert root.locator(BOX).input_value() == "1000"
    assert root.locator(SLIDER).input_value() == "3"
    assert_shows(root, pycore_view("attention-cost", n=1000), min_count=SHOWN)
    assert_marks(root, 1000)


def test_the_chart_shows_the_square_leaving_the_line_behind(book_pages):
    """n² and 2n² climb two decades for each decade of n, the RNN's n one: at 10^6 tokens the
    marked dots are 6 decades apart; the crosshair says the counts at a point of the lines."""
    root = book_pages("attention-cost").widget("attention-cost")
    view = pycore_view("attention-cost", n=1000)
    assert_drawn(root, view, min_count=7 + 3 * 13)
    d = [p["d"] for p in view["chart"]["paths"]]
    first_last = lambda path: [tuple(map(float, p.split(","))) for p in
                               (path.split(" ")[0][1:], path.split(" ")[-1][1:])]
    (x0, y0), (x1, y1) = first_last(d[0])
    (_, r0), (_, r1) = first_last(d[2])
    assert (y0 - y1) == pytest.approx(2 * (r0 - r1), abs=0.02)  # slope 2 against slope 1
    root.locator(SLIDER).fill("6")
    dots = [float(root.locator(f'.ac-dot[data-k="{k}"]').get_attribute("cy")) for k in (0, 2)]
    decade = view["chart"]["plot"]["h"] / 13
    assert (dots[1] - dots[0]) / decade == pytest.approx(6, abs=0.01)
    root.locator(".line-chart .probe").nth(6).hover()  # n = 10^3
    assert root.locator(".ac [data-readout]").inner_text() == \
        "n ≈ 1,000：1,000,000 个分数，2.00 MB，RNN 1,000 步"


def test_a_move_brings_the_length_alone(book_pages):
    """The chart's lines are a part the page holds from its first live view: a new n brings
    its numbers and mark, never the lines again."""
    root = book_pages("attention-cost").widget("attention-cost")
    assert parts_came(root, lambda: root.locator(BOX).fill("4096")) == [["length"]]
    assert_shows(root, pycore_view("attention-cost", n=4096))
    root.locator("[data-action=reset]").click()
