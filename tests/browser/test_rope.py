"""Browser tests of the rope widget (pycore/widgets/rope.py, assets/widgets/rope.js)."""
import math

from pycore.widgets.rope import _scores
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

HREF = "06-positional-encoding.html"


def test_scores_follow_the_closed_form():
    # rope(q, o) . rope(k, 0) = |q||k| cos(angle(q) + o theta - angle(k))
    q, k, theta = [1.0, 0.0], [0.6, 0.8], 0.5
    offsets = [-3.0, -0.5, 0.0, 2.0, 7.25]
    expected = [math.cos(o * theta - math.atan2(0.8, 0.6)) for o in offsets]
    assert max(abs(a - b) for a, b in zip(_scores(q, k, offsets, theta), expected)) < 1e-12
    q2, k2 = [0.0, 2.0], [-1.0, 0.0]  # 90 and 180 degrees, lengths 2 and 1
    got = _scores(q2, k2, [1.0], 0.25)[0]
    assert abs(got - 2 * math.cos(math.pi / 2 + 0.25 - math.pi)) < 1e-12


def score(root):
    return root.locator('[data-bind="score"]').inner_text()


def check(root, params, **changes):
    view = pycore_view("rope", **{**params, **changes})
    assert_shows(root, view, min_count=20 + 6 + 11)
    shifted = root.locator('table[data-matrix="shifted"] td').all_inner_texts()
    assert len(set(shifted)) == 1 and shifted[0] == score(root)  # shifting m and n together
    spread = float(root.locator('[data-sci="shift_spread"]').inner_text())
    assert spread <= 1e-12
    now = root.locator("[data-now]")
    assert float(now.get_attribute("cx")) == 12 * view["offset"]
    assert abs(float(now.get_attribute("cy")) + 40 * view["score"] / view["norm_product"]) <= 0.006
    tip = root.locator('[data-tip="q"]')
    assert abs(float(tip.get_attribute("cx")) - 60 * view["q_rot"][0]) <= 0.006
    assert abs(float(tip.get_attribute("cy")) + 60 * view["q_rot"][1]) <= 0.006
    return view


def test_rope_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + HREF)
    root = page.locator('[data-widget="rope"]').first
    assert root.get_attribute("data-state") == "static"
    check(root, params_of(root))
    page.close()


def test_moving_m_and_n_together_keeps_the_score(book_pages):
    root = book_pages("rope").widget("rope")
    params = params_of(root)
    first = score(root)
    angle = root.locator('[data-bind="angle_q"]').inner_text()
    for step in (1, 2, 3):
        before = updates(root)
        root.locator('[data-action="both-up"]').click()
        assert updates(root) == before + 1
        check(root, params, m=params["m"] + step, n=params["n"] + step)
        assert score(root) == first
    assert root.locator('[data-bind="angle_q"]').inner_text() != angle  # the arrows did turn
    root.locator('[data-action="both-down"]').click()
    check(root, params, m=params["m"] + 2, n=params["n"] + 2)
    assert score(root) == first


def test_sliders_with_keyboard_only_the_offset_matters(book_pages):
    root = book_pages("rope").widget("rope")
    params = params_of(root)
    first = score(root)
    root.locator("[data-control=m]").focus()
    root.page.keyboard.press("ArrowRight")
    view = check(root, params, m=params["m"] + 1)
    assert score(root) != first and view["offset"] == params["m"] + 1 - params["n"]
    root.locator("[data-control=n]").focus()
    root.page.keyboard.press("ArrowRight")
    check(root, params, m=params["m"] + 1, n=params["n"] + 1)
    assert score(root) == first
    # the score for this m - n is the one listed in the offset table
    offsets = [int(t) for t in root.locator('table[data-matrix="by_offset"] thead th').all_inner_texts()[1:]]
    cells = root.locator('table[data-matrix="by_offset"] td')
    col = offsets.index(params["m"] - params["n"])
    assert round(float(cells.nth(col).inner_text()), 3) == round(float(first), 3)
    assert "cur" in cells.nth(col).get_attribute("class")


def test_slider_fill_and_frequency(book_pages):
    root = book_pages("rope").widget("rope")
    params = params_of(root)
    root.locator("[data-control=m]").fill("20")
    root.locator("[data-control=n]").fill("11")
    check(root, params, m=20, n=11)
    root.locator("[data-control=theta]").fill("0.8")
    view = check(root, params, m=20, n=11, theta=0.8)
    assert root.locator('[data-bind="theta_deg"]').inner_text() == f"{math.degrees(0.8):.1f}"
    shown = score(root)
    root.locator("[data-control=m]").fill("29")
    root.locator("[data-control=n]").fill("20")
    assert abs(check(root, params, m=29, n=20, theta=0.8)["score"] - view["score"]) < 1e-12
    assert score(root) == shown


def test_reset_restores_the_block(book_pages):
    root = book_pages("rope").widget("rope")
    params = params_of(root)
    root.locator("[data-control=theta]").fill("0.1")
    root.locator('[data-action="both-up"]').click()
    root.locator("[data-action=reset]").click()
    check(root, params)
    assert root.locator("[data-control=m]").input_value() == str(params["m"])
