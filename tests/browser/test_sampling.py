"""Browser tests of the sampling widget (pycore/widgets/sampling/: view, widget.js)."""
import math

import pytest

from pycore.sampling import sample_counts
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

V = 10
CHAPTER_T1 = [0.480, 0.216, 0.118, 0.072, 0.039, 0.029, 0.018, 0.013, 0.009, 0.006]  # chapter 9's table


def column(root, name):
    """The numbers of one column (p_temp, p_topk, p_final, cum_topk, counts) as floats (the
    数值 table, folded: read its text, not its rendering)."""
    return [float(t) for t in root.locator(f'[data-bind^="{name}."]').all_text_contents()]


def cut_flags(root, name):
    """For each token: is its row in the panel of stage `name` (p_topk, p_final) drawn as cut
    (a hatched ghost) and labelled 已截断?"""
    flags = []
    rows = root.locator(f'.panel[data-stage="{name}"] .bar')
    assert rows.count() == V
    for i in range(V):
        row = rows.nth(i)
        greyed = row.locator(".ghost[data-cut]").count() == 1
        label = row.locator(".value").text_content() == "已截断"
        assert greyed == label, f"{name}.{i}: hatched {greyed} but label {label}"
        flags.append(greyed)
    return flags


def slider(root, name):
    return root.locator(f"[data-control={name}]")


def shown_temperature(root):
    """The T the page shows beside the (log10) slider: the T pycore used (two decimals)."""
    return float(root.locator('[data-bind="temperature"]').inner_text())


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "09-sampling.html")
    root = page.locator('[data-widget="sampling"]').first
    params = params_of(root)
    assert_shows(root, pycore_view("sampling", **params), min_count=7 * V)
    assert column(root, "p_temp") == CHAPTER_T1
    assert not any(cut_flags(root, "p_final"))
    page.close()


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A draw leaves what the knobs decide and the titles; the number of draws the knobs'."""
    root = book_pages("sampling").widget("sampling")
    assert parts_came(root, root.locator("[data-action=sample]").click) == [["sample"]]
    assert parts_came(root, lambda: slider(root, "draws").fill("2")) == [["sample", "titles"]]
    assert parts_came(root, lambda: slider(root, "top_k").fill("3")) == \
        [["distribution", "sample", "titles"]]
    root.locator("[data-action=reset]").click()


def test_top_k_keeps_exactly_k(book_pages):
    root = book_pages("sampling").widget("sampling")
    before = updates(root)
    slider(root, "top_k").fill("3")
    assert updates(root) > before
    assert_shows(root, pycore_view("sampling", top_k=3))
    assert cut_flags(root, "p_topk") == [False] * 3 + [True] * 7
    assert column(root, "p_topk")[:3] == [0.590, 0.265, 0.145]  # chapter 9
    # keyboard: one step right is k = 4
    slider(root, "top_k").focus()
    root.page.keyboard.press("ArrowRight")
    assert_shows(root, pycore_view("sampling", top_k=4))
    assert cut_flags(root, "p_topk").count(False) == 4
    assert root.locator('[data-bind="top_k_text"]').inner_text() == "4"
    # back to 0 = off: nothing is cut
    root.page.keyboard.press("Home")
    assert root.locator('[data-bind="top_k_text"]').inner_text() == "关闭"
    assert not any(cut_flags(root, "p_topk"))


def smallest_nucleus(probs, p):
    """From the page's numbers: size of the smallest most-probable set with mass >= p."""
    mass = 0.0
    for size, q in enumerate(sorted(probs, reverse=True), 1):
        mass += q
        if mass >= p - 1e-9:
            return size
    return len(probs)


@pytest.mark.parametrize("top_k, top_p", [(0, 0.9), (0, 0.5), (3, 0.8), (6, 0.95)])
def test_top_p_keeps_the_smallest_set_reaching_p(book_pages, top_k, top_p):
    root = book_pages("sampling").widget("sampling")
    slider(root, "top_k").fill(str(top_k))
    slider(root, "top_p").fill(str(top_p))
    assert_shows(root, pycore_view("sampling", top_k=top_k, top_p=top_p))
    after_k = column(root, "p_topk")
    kept = [not c for c in cut_flags(root, "p_final")]
    size = smallest_nucleus(after_k, top_p)
    assert sum(kept) == size
    assert kept == [True] * size + [False] * (V - size)  # the logits are sorted
    mass = sum(after_k[:size])
    assert mass >= top_p - 0.01 and sum(after_k[:size - 1]) < top_p
    final = column(root, "p_final")
    assert abs(sum(final) - 1) < 0.01
    for i in range(size):  # renormalised: p_final = p_topk / (kept mass)
        assert abs(final[i] - after_k[i] / mass) < 0.005


def test_top_p_chapter_example_and_keyboard(book_pages):
    root = book_pages("sampling").widget("sampling")
    slider(root, "top_p").fill("0.9")
    assert column(root, "cum_topk")[:5] == [0.480, 0.696, 0.814, 0.886, 0.925]  # chapter 9
    assert column(root, "p_final")[:5] == [0.519, 0.233, 0.128, 0.078, 0.043]
    assert root.locator('[data-bind="n_final"]').inner_text() == "5"
    slider(root, "top_p").focus()
    for _ in range(5):
        root.page.keyboard.press("ArrowLeft")  # 0.85: "害怕" (0.886) is enough
    assert_shows(root, pycore_view("sampling", top_p=0.85))
    assert root.locator('[data-bind="n_final"]').inner_text() == "4"
    assert root.locator('[data-bind="top_p_text"]').inner_text() == "0.85"


def test_temperature_slider_and_keys(book_pages):
    root = book_pages("sampling").widget("sampling")
    before = updates(root)
    slider(root, "temperature").fill("-0.3")  # 10^-0.3 = 0.501 -> T = 0.50
    assert updates(root) > before
    assert shown_temperature(root) == 0.5
    assert root.locator('[data-bind="temperature"]').inner_text() == "0.50"
    assert_shows(root, pycore_view("sampling", temperature=0.5))
    assert column(root, "p_temp")[:3] == [0.770, 0.156, 0.047]  # chapter 9
    slider(root, "temperature").fill("0.3")  # T = 2.00
    assert_shows(root, pycore_view("sampling", temperature=2.0))
    p = column(root, "p_temp")
    assert p[:3] + p[-1:] == [0.271, 0.182, 0.135, 0.030]  # chapter 9
    slider(root, "temperature").focus()
    root.page.keyboard.press("ArrowRight")  # log10 T = 0.31: T = 2.04
    assert shown_temperature(root) == 2.04
    assert_shows(root, pycore_view("sampling", temperature=2.04))
    root.page.keyboard.press("Home")  # the lowest T = 0.1: nearly always 累
    assert_shows(root, pycore_view("sampling", temperature=0.1))
    assert column(root, "p_final")[0] == 1.000


def test_sample_button_counts_equal_pycore(book_pages):
    root = book_pages("sampling").widget("sampling")
    slider(root, "top_k").fill("5")
    assert column(root, "counts") == [0] * V
    button = root.locator("[data-action=sample]")
    for seed in (1, 2):
        button.click()
        view = pycore_view("sampling", top_k=5, seed=seed)
        assert_shows(root, view)
        counts = [int(c) for c in column(root, "counts")]
        expected = sample_counts(view["p_final"], 1000, seed).tolist()  # computed here, in CPython
        assert counts == expected
        assert sum(counts) == 1000 and counts[5:] == [0] * 5  # cut tokens are never drawn
        # the counts follow the shown probabilities (4 standard deviations)
        for c, p in zip(counts, column(root, "p_final")):
            assert abs(c - 1000 * p) <= 4 * math.sqrt(1000 * p * (1 - p)) + 1
    button.focus()
    root.page.keyboard.press("Enter")
    assert root.locator('[data-bind="seed"]').inner_text() == "3"
    assert_shows(root, pycore_view("sampling", top_k=5, seed=3))


def test_reset_restores_the_block(book_pages):
    root = book_pages("sampling").widget("sampling")
    params = params_of(root)
    slider(root, "top_k").fill("2")
    slider(root, "top_p").fill("0.5")
    slider(root, "temperature").fill("0.5")
    root.locator("[data-action=sample]").click()
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("sampling", **params))
    assert slider(root, "top_k").input_value() == "0"
    assert float(slider(root, "top_p").input_value()) == 1.0
    assert float(slider(root, "temperature").input_value()) == 0.0
    assert column(root, "counts") == [0] * V


def widths(root, selector):
    return root.locator(selector).evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")


def test_the_picture_is_pycores(book_pages):
    """Four panels of bars on one 0-1 axis: every drawn attribute is the view's; a bar is as
    long as its probability (the plot is 162 units for 0 to 1), a token a stage cuts keeps a
    hatched ghost exactly as long as its bar in the stage before, and the draws' bars end
    near the ticks at the final probabilities."""
    root = book_pages("sampling").widget("sampling")
    view = pycore_view("sampling")
    assert_drawn(root, view, min_count=4 * V * 3)
    bars = widths(root, '.panel[data-stage="p_temp"] .mark')
    plot = view["stages"][0]["plot"]["w"]
    assert bars.index(max(bars)) == 0 and abs(bars[0] - 0.480 * plot) < 0.2  # 累, chapter 9
    slider(root, "top_k").fill("3")
    slider(root, "top_p").fill("0.5")
    root.locator("[data-action=sample]").click()
    view = pycore_view("sampling", top_k=3, top_p=0.5, seed=1)
    assert_drawn(root, view)
    before = widths(root, '.panel[data-stage="p_temp"] .mark')
    ghosts = widths(root, '.panel[data-stage="p_topk"] .ghost')
    assert ghosts[:3] == [0, 0, 0] and ghosts[3:] == before[3:]  # cut by top-k: what they had
    kept = widths(root, '.panel[data-stage="p_final"] .mark')
    assert sum(w > 0 for w in kept) == 1 and kept[0] == plot  # 累 alone (0.590) reaches 0.5
    after_k = widths(root, '.panel[data-stage="p_topk"] .mark')
    assert widths(root, '.panel[data-stage="p_final"] .ghost')[1:3] == after_k[1:3]
    drawn = widths(root, '.panel[data-stage="drawn"] .mark')
    counts = [int(c) for c in column(root, "counts")]
    for w, c in zip(drawn, counts):
        assert abs(w - c / 1000 * plot) < 0.02
    assert root.locator(".key-figure .big").inner_text() == f"{max(view['p_final']):.3f}"


def test_more_draws_come_closer_to_the_probabilities(book_pages):
    """The N slider moves by tenfold; the same seed drawn 10, 100, 1000 and 10000 times: the
    largest gap between a frequency and its probability shrinks (here, by pycore)."""
    root = book_pages("sampling").widget("sampling")
    root.locator("[data-action=sample]").click()
    n = slider(root, "draws")
    gaps = []
    for log_n in (1, 2, 3, 4):
        n.fill(str(log_n))
        view = pycore_view("sampling", seed=1, draws=10 ** log_n)
        assert_shows(root, view)
        assert_drawn(root, view)
        counts = [int(c) for c in column(root, "counts")]
        assert sum(counts) == 10 ** log_n
        gaps.append(max(abs(c / 10 ** log_n - p) for c, p in zip(counts, view["p_final"])))
    assert gaps[0] > gaps[1] > gaps[2] > gaps[3] and gaps[3] < 0.01
    assert root.locator('[data-bind="titles.3"]').inner_text() == "④ 抽 10000 次：次数"
