"""Browser tests of the dot-product widget (pycore/widgets/dot_product.py,
assets/widgets/dot-product.js)."""
from tests.browser.harness import assert_shows, params_of, pycore_view


def shown_vectors(root):
    read = lambda p: float(root.locator(f'[data-bind="{p}"]').inner_text())
    return [read("a.0"), read("a.1")], [read("b.0"), read("b.1")]


def test_dot_product_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "01-dot-product.html")
    root = page.locator('[data-widget="dot-product"]').first
    assert_shows(root, pycore_view("dot-product", **params_of(root)), min_count=10)
    page.close()


def test_dragging_a_tip_updates_every_number(book_pages):
    root = book_pages("dot-product").widget("dot-product")
    tip = root.locator('[data-tip="b"]')
    box = tip.bounding_box()
    page = root.page
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # drag b to the upper left: one grid unit is 30 SVG px; the SVG may be scaled
    page.mouse.move(box["x"] - 80, box["y"] - 20, steps=8)
    page.mouse.up()
    a, b = shown_vectors(root)
    assert b != params_of(root)["b"], "the drag did not move b"
    assert_shows(root, pycore_view("dot-product", a=a, b=b))


def test_perpendicular_and_opposite_with_the_keyboard(book_pages):
    root = book_pages("dot-product").widget("dot-product")
    a, b = shown_vectors(root)
    tip = root.locator('[data-tip="b"]')
    tip.focus()
    # from the block's b, move with arrow keys (0.1 per press, 0.5 with Shift)
    for key in ["Shift+ArrowLeft"] * 2:
        root.page.keyboard.press(key)
    a2, b2 = shown_vectors(root)
    assert b2 == [round(b[0] - 1.0, 1), b[1]]
    view = pycore_view("dot-product", a=a2, b=b2)
    assert_shows(root, view)
    assert abs(view["dot"] - view["product"]) < 1e-12
