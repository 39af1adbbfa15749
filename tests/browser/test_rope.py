"""Browser tests of the rope widget (pycore/widgets/rope/: view, widget.js)."""
import math

from pycore.widgets.rope import _scores
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

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


def on_plane(view, x, y):
    """A point of the plane in SVG units, worked out here: 260 units over [-E, E], y up."""
    extent = 3 * view["fig"]["grid_step"]
    return 130 + x * 130 / extent, 130 - y * 130 / extent


def check(root, params, **changes):
    view = pycore_view("rope", **{**params, **changes})
    assert_shows(root, view, min_count=20 + 6 + 11)
    assert_drawn(root, view, min_count=4 * 5 + 2 * 3 + 4)
    shifted = root.locator('table[data-matrix="shifted"] td').all_text_contents()
    assert len(set(shifted)) == 1 and shifted[0] == score(root)  # shifting m and n together
    spread = float(root.locator('[data-sci="shift_spread"]').inner_text())
    assert spread <= 1e-12
    # the current m - n on the score chart: x over [-30, 30], y over [-|q||k|, |q||k|]
    plot = view["chart"]["plot"]
    now = root.locator(".rope-chart .now")
    amp = view["norm_product"]
    x = plot["x"] + (view["offset"] + 30) / 60 * plot["w"]
    y = plot["y"] + (amp - view["score"]) / (2 * amp) * plot["h"]
    assert abs(float(now.get_attribute("cx")) - x) <= 0.006
    assert abs(float(now.get_attribute("cy")) - y) <= 0.006
    # the rotated query's arrowhead ends at q_m = R(m theta) q, worked out here
    m, theta, q = view["m"], view["theta"], view["q"]
    c, s = math.cos(m * theta), math.sin(m * theta)
    tip = root.locator(".plane .arrow.q:not(.ghost) .head").get_attribute("d").split(" ")[0]
    tx, ty = map(float, tip[1:].split(","))
    ex, ey = on_plane(view, c * q[0] - s * q[1], s * q[0] + c * q[1])
    assert abs(tx - ex) <= 0.006 and abs(ty - ey) <= 0.006
    return view


def test_rope_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + HREF)
    root = page.locator('[data-widget="rope"]').first
    assert root.get_attribute("data-state") == "static"
    check(root, params_of(root))
    # positions are chapter 06's i (query) and j (key), not m and n (pycore/notation.py)
    assert root.locator(".ctl-range .ctl-name").all_inner_texts()[:2] == ["查询位置 i", "键位置 j"]
    assert root.locator(".key-figure").inner_text().startswith("分数 qi·kj")
    assert root.locator("caption").all_text_contents()[:2] == ["把 i 和 j 同时加 δ：分数不变", "分数只取决于 i − j"]
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
    heads = root.locator('table[data-matrix="by_offset"] thead th').all_text_contents()
    offsets = [int(t) for t in heads[1:]]
    cells = root.locator('table[data-matrix="by_offset"] td')
    col = offsets.index(params["m"] - params["n"])
    assert round(float(cells.nth(col).text_content()), 3) == round(float(first), 3)
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


def test_the_arcs_turn_by_m_theta_and_n_theta_and_the_buttons_stop_at_the_ends(book_pages):
    """Each arc starts on its vector's direction and ends on its rotation's; at m = 30 the
    +1 button says it is disabled and does nothing; the group is one Tab stop."""
    root = book_pages("rope").widget("rope")
    params = params_of(root)
    root.locator("[data-control=m]").fill("30")
    view = check(root, params, m=30)
    arc = root.locator(".plane .turn.q").get_attribute("d")
    start, end = arc.split(" A")[0][1:], arc.split(" ")[-1]
    assert tuple(map(float, start.split(","))) == (round(130 + 0.34 * 130, 2), 130.0)  # q = (1, 0)
    left = (30 * 0.5) % (2 * math.pi)  # 15 rad: what is left after the whole turns
    ex, ey = 130 + 0.34 * 130 * math.cos(left), 130 - 0.34 * 130 * math.sin(left)
    ax, ay = map(float, end.split(","))
    assert abs(ax - ex) <= 0.006 and abs(ay - ey) <= 0.006
    up = root.locator('[data-action="both-up"]')
    assert up.get_attribute("aria-disabled") == "true"
    n = updates(root)
    up.click(force=True)  # aria-disabled: still clickable, and nothing happens
    assert updates(root) == n
    root.locator('[data-action="both-up"]').focus()
    root.page.keyboard.press("ArrowLeft")
    assert root.evaluate("root => document.activeElement.dataset.action") == "both-down"
    root.page.keyboard.press("Enter")
    check(root, params, m=29, n=params["n"] - 1)
    root.locator("[data-action=reset]").click()


def test_the_chart_covers_every_offset_and_the_grid_follows_the_longest_vector():
    view = pycore_view("rope", theta=1.0)
    xs = [p["x"] for p in view["chart"]["probes"]]
    assert [p["say"].split("：")[0] for p in view["chart"]["probes"]] == \
        [f"i − j = {o}" for o in range(-30, 31, 5)]
    plot = view["chart"]["plot"]
    assert xs[0] == plot["x"] and xs[-1] == plot["x"] + plot["w"]
    # theta = 1: a period of 2 pi offsets needs steps of 1/4 for 24 samples: 241 points
    assert view["chart"]["paths"][0]["d"].count("L") == 240
    assert pycore_view("rope", theta=0.05)["chart"]["paths"][0]["d"].count("L") == 60
    small, large = pycore_view("rope"), pycore_view("rope", q=[2.0, 2.0])
    assert small["fig"]["grid_step"] == 0.5 and large["fig"]["grid_step"] == 1.5  # 1.15 * 2.83
    assert small["fig"]["grid"]["lines"] == large["fig"]["grid"]["lines"]  # the same SVG grid
