"""Browser tests of the head-ablation widget (pycore/widgets/head_ablation/:
view, widget.js): the switches turn heads off, and the page's accuracy is the
one pycore computes in the test process with the same heads off."""
from pycore.gpt import ablation, evaluate, run
from pycore.widgets import head_ablation
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view

ALL_ON = {name: True for name in head_ablation.PARAMS}


def shown_accuracy(root):
    return float(root.locator(".key-figure .big").inner_text())


def independent_accuracy(off):
    """The sample's accuracy straight from pycore.gpt.ablation, not through the view."""
    params, cfg, _ = run.book_model()
    return 100 * ablation.accuracy(params, cfg, evaluate.heldout(head_ablation.SAMPLE), off)


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "13b-trained-model.html")
    root = page.locator('[data-widget="head-ablation"]').first
    assert_shows(root, pycore_view("head-ablation", **params_of(root)), min_count=6)
    page.close()


def test_switching_heads_off_and_on(book_pages):
    root = book_pages("head-ablation").widget("head-ablation")
    assert params_of(root) == ALL_ON and shown_accuracy(root) == 100.0
    root.locator("[data-control=l1h1]").click()
    off = dict(ALL_ON, l1h1=False)
    view = pycore_view("head-ablation", **off)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert shown_accuracy(root) == round(independent_accuracy(((1, 1),)), 1) < 90
    root.locator("[data-control=l1h3]").click()
    both = dict(off, l1h3=False)
    assert_shows(root, pycore_view("head-ablation", **both))
    assert shown_accuracy(root) == round(independent_accuracy(((1, 1), (1, 3))), 1)
    assert shown_accuracy(root) < round(independent_accuracy(((1, 1),)), 1)
    # a head switched on again gives its part back
    root.locator("[data-control=l1h1]").click()
    assert_shows(root, pycore_view("head-ablation", **dict(ALL_ON, l1h3=False)))
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("head-ablation", **ALL_ON))
    assert shown_accuracy(root) == 100.0
