"""Browser tests of the lr-schedule widget (pycore/widgets/lr_schedule.py,
assets/widgets/lr-schedule.js): the curve, its readout and its controls against pycore."""
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

PAGE = "13-training.html"
VIEWBOX = (-64, -16, 676, 266)  # templates/widgets/lr-schedule.html
PLOT_W, PLOT_H = 560, 200


def shows_view(root, view):
    """Every bound number, the polyline, the ticks and the slider semantics equal the view."""
    n = assert_shows(root, view, min_count=14)
    svg = root.locator("svg.lr-plot")
    assert root.locator('[data-part="curve"]').get_attribute("points") == view["plot"]["points"]
    marker = root.locator('[data-part="marker"]')
    for attr, expected in zip(("cx", "cy"), view["plot"]["marker"]):
        assert abs(float(marker.get_attribute(attr)) - expected) < 1e-6
    labels = root.locator("[data-tick-label]").all_text_contents()
    assert labels == [t["label"] for t in view["ticks"]]
    assert svg.get_attribute("aria-valuenow") == str(view["step"])
    assert svg.get_attribute("aria-valuemax") == str(view["total"])
    assert svg.get_attribute("aria-valuetext").startswith(f"第 {view['step']} 步：{view['lr']['m']:.3f}")
    return n


def at_step(root, step, total):
    """Page coordinates of the point of the plot at `step`, half-way up."""
    box = root.locator("svg.lr-plot").bounding_box()
    x0, y0, w, h = VIEWBOX
    px = box["x"] + (step / total * PLOT_W - x0) * box["width"] / w
    py = box["y"] + (PLOT_H / 2 - y0) * box["height"] / h
    return px, py


def shown(root, path):
    return root.locator(f'[data-bind="{path}"]').first.inner_text()


def test_lr_schedule_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="lr-schedule"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert params == {"warmup": 2000, "peak": 3e-4, "total": 100000, "decay": "cosine",
                      "min_ratio": 0.1, "step": 51000}
    view = pycore_view("lr-schedule", **params)
    shows_view(root, view)
    # the chapter's check: halfway through the cosine decay, 1.65e-4
    assert (shown(root, "lr.m"), shown(root, "lr.e")) == ("1.650", "-4")
    page.close()


def test_decay_and_warmup_controls_recompute(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    before = updates(root)
    root.get_by_label("线性").check()
    assert updates(root) == before + 1
    shows_view(root, pycore_view("lr-schedule", **{**params, "decay": "linear"}))
    root.locator("[data-control=warmup_range]").fill("5000")  # slider
    shows_view(root, pycore_view("lr-schedule", **{**params, "decay": "linear", "warmup": 5000}))
    root.locator("[data-control=warmup_range]").focus()
    root.page.keyboard.press("ArrowRight")  # one slider step: 100 more warmup steps
    shows_view(root, pycore_view("lr-schedule", **{**params, "decay": "linear", "warmup": 5100}))
    root.get_by_label("平方根倒数").check()
    box = root.locator("[data-control=warmup]")
    box.fill("0")  # typed: no warmup, the first step is already the peak
    view = pycore_view("lr-schedule", **{**params, "decay": "inverse_sqrt", "warmup": 0})
    shows_view(root, view)
    assert root.locator("[data-control=warmup_range]").input_value() == "0"
    assert root.locator('[data-part="curve"]').get_attribute("points").startswith("0.0,0.0 ")
    assert updates(root) > before + 3


def test_hovering_the_curve_reads_a_step(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    page = root.page
    before = updates(root)
    page.mouse.move(*at_step(root, 1000, params["total"]))  # the chapter's first check
    assert updates(root) > before
    assert shown(root, "step") == "1000"
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 1000}))
    assert (shown(root, "lr.m"), shown(root, "lr.e")) == ("1.500", "-4")
    page.mouse.move(*at_step(root, 75000, params["total"]), steps=5)
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 75000}))
    assert root.locator("[data-control=step]").input_value() == "75000"


def test_keyboard_on_the_curve_and_the_step_box(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    svg = root.locator("svg.lr-plot")
    svg.focus()
    keys = root.page.keyboard
    keys.press("Home")
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 0}))
    assert shown(root, "lr.m") == "0.000"
    keys.press("ArrowRight")
    keys.press("ArrowRight")  # two grid steps of 100000 / 200 = 500
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 1000}))
    keys.press("Shift+ArrowRight")  # ten grid steps
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 6000}))
    keys.press("End")
    view = pycore_view("lr-schedule", **{**params, "step": 100000})
    shows_view(root, view)
    assert (shown(root, "lr.m"), shown(root, "lr.e")) == ("3.000", "-5")  # the cosine floor
    root.locator("[data-control=step]").fill("12345")  # any step, typed
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 12345}))


def test_paper_schedule_and_peak_controls(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    root.locator("[data-control=peak_log]").fill("-3")  # log slider: peak 1e-3
    shows_view(root, pycore_view("lr-schedule", **{**params, "peak": 10 ** -3}))
    # chapter 13: d_model 512, 4000 warmup steps, step 16000 -> half the peak, about 3.49e-4
    root.locator("[data-control=peak]").fill("6.99e-4")
    root.get_by_label("平方根倒数").check()
    root.locator("[data-control=warmup]").fill("4000")
    root.locator("[data-control=step]").fill("16000")
    changed = {**params, "peak": 6.99e-4, "decay": "inverse_sqrt", "warmup": 4000, "step": 16000}
    shows_view(root, pycore_view("lr-schedule", **changed))
    assert shown(root, "lr.m") == "3.495" and shown(root, "peak.m") == "6.990"
    root.locator("[data-control=total]").fill("10000")  # below the chosen step: clipped
    view = pycore_view("lr-schedule", **{**changed, "total": 10000})
    assert view["step"] == 10000
    shows_view(root, view)


def test_reset_restores_the_block(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    root.get_by_label("线性").check()
    root.locator("[data-control=min_ratio]").fill("0.5")
    root.locator("[data-control=total_range]").fill("200000")
    root.locator("[data-action=reset]").click()
    shows_view(root, pycore_view("lr-schedule", **params))
    assert root.get_by_label("余弦", exact=True).is_checked()
    assert root.locator("[data-control=total]").input_value() == "100000"
    assert root.locator("[data-control=min_ratio]").input_value() == "0.1"


def test_a_tap_picks_a_step_on_a_touch_screen(browser, server):
    page = browser.new_page(has_touch=True, viewport={"width": 390, "height": 800})
    page.goto(server + PAGE)
    root = page.locator('[data-widget="lr-schedule"][data-state="live"]').first
    root.wait_for(timeout=60_000)
    params = params_of(root)
    root.locator("svg.lr-plot").scroll_into_view_if_needed()
    page.touchscreen.tap(*at_step(root, 25000, params["total"]))
    assert shown(root, "step") == "25000"
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 25000}))
    page.close()
