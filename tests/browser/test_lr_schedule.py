"""Browser tests of the lr-schedule widget (pycore/widgets/lr_schedule/:
view, widget.js): the curve, its readout and its controls against pycore."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

PAGE = "13-training.html"


def shows_view(root, view):
    """Every bound number, the curve, its marks, the ticks and the slider semantics equal the
    view."""
    n = assert_shows(root, view, min_count=14)
    plot = root.locator(".lr-plot")
    curve = root.locator(".line-chart .series").get_attribute("d")
    assert curve == view["chart"]["paths"][0]["d"]
    marker = root.locator(".lr-dot")
    for attr, key in (("cx", "x"), ("cy", "y")):
        assert abs(float(marker.get_attribute(attr)) - view["marker"][key]) < 1e-6
    shown = ".line-chart .tick:not([data-hidden]) [data-bind$='.label']"
    labels = root.locator(shown).all_text_contents()
    ticks = view["chart"]["y_ticks"] + view["chart"]["x_ticks"]
    assert labels == [t["label"] for t in ticks if not t["hidden"]]
    assert plot.get_attribute("aria-valuenow") == str(view["step"])
    assert plot.get_attribute("aria-valuemax") == str(view["total"])
    said = plot.get_attribute("aria-valuetext")
    assert said.startswith(f"第 {view['step']} 步：{view['lr']['m']:.3f}")
    return n


def at_step(root, step, total):
    """Page coordinates of the point of the plot at `step`, half-way up (the chart's geometry:
    pycore's view)."""
    chart = pycore_view("lr-schedule", **{**params_of(root), "total": total})["chart"]
    root.locator(".lr-plot").scroll_into_view_if_needed()
    box = root.locator(".lr-plot svg").bounding_box()
    scale = box["width"] / chart["width"]
    plot = chart["plot"]
    px = box["x"] + (plot["x"] + step / total * plot["w"]) * scale
    py = box["y"] + (plot["y"] + plot["h"] / 2) * scale
    return px, py


def decay(root, value):
    return root.locator(f"""[data-control=decay] [data-value='"{value}"']""")


def box(root, name):
    """The number box of a parameter (its slider has the same data-control)."""
    return root.locator(f"input[type=number][data-control={name}]")


def slider(root, name):
    return root.locator(f"input[type=range][data-control={name}]")


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
    # the sliders name the steps as chapter 13's formula does (pycore/notation.py)
    names = root.locator(".ctl-range .ctl-name").all_inner_texts()
    assert names[0] == "预热步数 t_warm" and names[2] == "总步数 t_total"
    page.close()


def test_decay_and_warmup_controls_recompute(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    before = updates(root)
    decay(root, "linear").click()
    assert updates(root) == before + 1
    shows_view(root, pycore_view("lr-schedule", **{**params, "decay": "linear"}))
    slider(root, "warmup").fill("5000")  # slider
    shows_view(root, pycore_view("lr-schedule", **{**params, "decay": "linear", "warmup": 5000}))
    slider(root, "warmup").focus()
    root.page.keyboard.press("ArrowRight")  # one slider step: 100 more warmup steps
    shows_view(root, pycore_view("lr-schedule", **{**params, "decay": "linear", "warmup": 5100}))
    decay(root, "inverse_sqrt").click()
    box(root, "warmup").fill("0")  # typed: no warmup, the first step is already the peak
    view = pycore_view("lr-schedule", **{**params, "decay": "inverse_sqrt", "warmup": 0})
    shows_view(root, view)
    assert slider(root, "warmup").input_value() == "0"
    plot = view["chart"]["plot"]
    assert root.locator(".line-chart .series").get_attribute("d").startswith(
        f"M{plot['x']:.1f},{plot['y']:.1f} ")  # step 0 at the top: the peak
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
    assert box(root, "step").input_value() == "75000"


def test_keyboard_on_the_curve_and_the_step_box(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    svg = root.locator(".lr-plot")
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
    box(root, "step").fill("12345")  # any step, typed
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 12345}))


def test_paper_schedule_and_peak_controls(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    slider(root, "peak").fill("-3")  # log slider: peak 1e-3
    shows_view(root, pycore_view("lr-schedule", **{**params, "peak": 10 ** -3}))
    # chapter 13: d_model 512, 4000 warmup steps, step 16000 -> half the peak, about 3.49e-4
    box(root, "peak").fill("6.99e-4")
    decay(root, "inverse_sqrt").click()
    box(root, "warmup").fill("4000")
    box(root, "step").fill("16000")
    changed = {**params, "peak": 6.99e-4, "decay": "inverse_sqrt", "warmup": 4000, "step": 16000}
    shows_view(root, pycore_view("lr-schedule", **changed))
    assert shown(root, "lr.m") == "3.495" and shown(root, "peak.m") == "6.990"
    box(root, "total").fill("10000")  # below the chosen step: clipped
    view = pycore_view("lr-schedule", **{**changed, "total": 10000})
    assert view["step"] == 10000
    shows_view(root, view)


def test_reset_restores_the_block(book_pages):
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    decay(root, "linear").click()
    slider(root, "min_ratio").fill("0.5")
    slider(root, "total").fill("5.3")  # log slider: about 200000 steps
    root.locator("[data-action=reset]").click()
    shows_view(root, pycore_view("lr-schedule", **params))
    assert decay(root, "cosine").get_attribute("aria-checked") == "true"
    assert box(root, "total").input_value() == "100000"
    assert slider(root, "min_ratio").input_value() == "0.1"


def test_a_tap_picks_a_step_on_a_touch_screen(browser, server):
    page = browser.new_page(has_touch=True, viewport={"width": 390, "height": 800})
    page.goto(server + PAGE)
    root = page.locator('[data-widget="lr-schedule"][data-state="live"]').first
    root.wait_for(timeout=60_000)
    params = params_of(root)
    root.locator(".lr-plot").scroll_into_view_if_needed()
    page.touchscreen.tap(*at_step(root, 25000, params["total"]))
    assert shown(root, "step") == "25000"
    shows_view(root, pycore_view("lr-schedule", **{**params, "step": 25000}))
    page.close()


def test_the_picture_is_pycores(book_pages):
    """The curve, its axes and its marks: every drawn attribute is the view's; the axis counts
    in units of the peak's power of ten (0 to 3 for 3e-4), the marker sits on the curve at
    the chosen step and the warmup line where the curve peaks."""
    root = book_pages("lr-schedule").widget("lr-schedule")
    params = params_of(root)
    view = pycore_view("lr-schedule", **params)
    assert_drawn(root, view, min_count=2 * 7 * 3 + 5)
    top = [t for t in view["chart"]["y_ticks"] if not t["hidden"]][-1]
    assert top["label"] == "3" and top["at"] == view["chart"]["plot"]["y"]  # the peak, 3e-4
    assert root.locator('[data-bind="y_unit"]').text_content() == "学习率（× 10⁻⁴）"
    plot = view["chart"]["plot"]
    assert abs(view["warm"]["x"] - (plot["x"] + 2000 / 100000 * plot["w"])) < 0.01
    decay(root, "linear").click()
    slider(root, "peak").fill("-3")
    box(root, "step").fill("75000")
    view = pycore_view("lr-schedule", **{**params, "decay": "linear", "peak": 1e-3, "step": 75000})
    assert_drawn(root, view)
    # linear: three quarters of the way (73000 of 98000 decay steps) -> 1e-3 * 25000 / 98000
    dot = float(root.locator(".lr-dot").get_attribute("cy"))
    expected = plot["y"] + plot["h"] * (1 - 25000 / 98000)
    assert abs(dot - expected) < 0.01
    assert root.locator('[data-bind="y_unit"]').text_content() == "学习率（× 10⁻³）"
