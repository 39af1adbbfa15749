"""Browser tests of the kernel-regression widget (pycore/widgets/kernel_regression/__init__.py): the
query and width sliders drive pycore, and the picture follows (the points' sizes are the
query's weights, the marked point the prediction)."""
import numpy as np

from pycore import kernel_regression as kr
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="kernel-regression"]').first
    assert_shows(root, pycore_view("kernel-regression", **params_of(root)), min_count=30)
    page.close()


def test_sliders_drive_pycore(book_pages):
    root = book_pages("kernel-regression").widget("kernel-regression")
    block = params_of(root)
    root.locator("[data-control=query]").fill("4")
    view = pycore_view("kernel-regression", query=4.0, width=block["width"])
    assert_shows(root, view)
    assert_drawn(root, view)
    # the prediction is the weighted mean of the training ys, computed here without the view
    x, y = kr.training_points()
    d = np.exp(-(4.0 - x) ** 2 / (2 * block["width"] ** 2))
    assert abs(float(root.locator(".key-figure .big").inner_text()) - (d @ y) / d.sum()) < 5e-4
    # the biggest dot is the training point nearest the query
    radii = root.locator("circle.training").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('r')))")
    assert int(np.argmax(radii)) == int(np.argmin(abs(x - 4.0)))
    root.locator("[data-control=width]").fill("0.3")  # log-scaled: w ≈ 10^0.3 ≈ 2
    width = 10 ** float(root.locator("[data-control=width]").input_value())  # as stepped
    assert abs(width - 2.0) < 0.05
    wide = pycore_view("kernel-regression", query=4.0, width=width)
    assert_shows(root, wide)
    assert wide["top_weight"] < view["top_weight"]
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("kernel-regression", **block))
