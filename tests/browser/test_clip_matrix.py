"""Browser tests of the clip-matrix widget (pycore/widgets/clip_matrix/:
view, template.html): the temperature and the captions' choice recompute the
three images × captions matrices and the loss, and the picture's cells are the view's."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates


def cell_classes(root, k):
    """The colour classes of the k-th heatmap's 25 cells, in the page's order."""
    return root.locator("svg.clip").nth(k).locator("rect.cell").evaluate_all(
        "els => els.map(e => Number(e.dataset.seq))")


def test_clip_matrix_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "12-matching-multimodal.html")
    root = page.locator('[data-widget="clip-matrix"]').first
    view = pycore_view("clip-matrix", **params_of(root))
    assert_shows(root, view, min_count=3 + 3 * 25)
    assert_drawn(root, view, min_count=3 * 25 * 2)
    page.close()


def test_temperature_and_captions_move_the_loss(book_pages):
    root = book_pages("clip-matrix").widget("clip-matrix")
    right = pycore_view("clip-matrix", **params_of(root))
    before = updates(root)
    # a wrong pair: swap the two grass captions
    root.locator("[data-control=captions] button", has_text="交换").click()
    assert updates(root) > before
    swap = pycore_view("clip-matrix", tau=0.2, captions="swap")
    assert_shows(root, swap)
    assert_drawn(root, swap, min_count=3 * 25 * 2)
    assert float(root.locator('[data-bind="loss"]').text_content()) > 3 * right["loss"]
    assert root.locator('[data-bind="texts.0"]').text_content() == right["texts"][4]
    # the row softmax's first cell (image 1 with its, now wrong, caption) fades
    i2t = cell_classes(root, 1)
    assert i2t == [c["c"] for c in swap["heat_i2t"]["cells"]] and i2t[0] < i2t[4]
    # the temperature: log-scaled slider, -2 = tau 0.01 (every softmax nearly one-hot)
    root.locator("[data-control=tau]").fill("-2")
    sharp = pycore_view("clip-matrix", tau=0.01, captions="swap")
    assert_shows(root, sharp)
    assert_drawn(root, sharp)
    root.locator("[data-control=captions] button", has_text="说明都对").click()
    sharp_right = pycore_view("clip-matrix", tau=0.01, captions="right")
    assert_shows(root, sharp_right)
    assert sharp_right["loss"] < 1e-3
    assert cell_classes(root, 2)[::6] == [8] * 5  # the column softmax's diagonal: all strong
    root.locator("[data-action=reset]").click()
    assert_shows(root, right)
    assert_drawn(root, right)
