"""Browser tests of the softmax widget (pycore/widgets/softmax/: view, widget.js)."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates


def test_softmax_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "02-softmax.html")
    root = page.locator('[data-widget="softmax"]').first
    params = params_of(root)
    assert_shows(root, pycore_view("softmax", **params), min_count=len(params["logits"]) + 3)
    page.close()


def test_temperature_slider_drives_pycore(book_pages):
    root = book_pages("softmax").widget("softmax")
    logits = params_of(root)["logits"]
    slider = root.locator("[data-control=temperature]")
    before = updates(root)
    slider.fill("-1")  # T = 0.1: nearly one-hot
    assert updates(root) > before
    view = pycore_view("softmax", logits=logits, temperature=0.1)
    assert_shows(root, view)
    assert view["probs"][0] > 0.99
    # the picture too: each bar's top and height are the view's (a 0-1 axis)
    assert_drawn(root, view, min_count=3 * len(logits))
    heights = root.locator(".bar-chart .mark").evaluate_all("els => els.map(e => Number(e.getAttribute('height')))")
    assert heights == [b["h"] for b in view["bars"]["bars"]] and heights[0] > 10 * max(heights[1:])
    slider.fill("0.69")  # T = 10^0.69 ≈ 4.9: nearly uniform
    assert_shows(root, pycore_view("softmax", logits=logits, temperature=10 ** 0.69))
    slider.focus()
    root.page.keyboard.press("ArrowLeft")
    assert_shows(root, pycore_view("softmax", logits=logits, temperature=10 ** 0.68))


def test_editing_a_logit_recomputes(book_pages):
    root = book_pages("softmax").widget("softmax")
    logits = params_of(root)["logits"]
    box = root.locator("[data-control=logits]").nth(len(logits) - 1)
    box.fill("5")
    changed = logits[:-1] + [5.0]
    assert_shows(root, pycore_view("softmax", logits=changed))
    assert_drawn(root, pycore_view("softmax", logits=changed))
    root.locator("[data-action=reset]").click()
    assert box.input_value() == str(logits[-1]).rstrip("0").rstrip(".") or box.input_value()
    assert_shows(root, pycore_view("softmax", logits=logits))
