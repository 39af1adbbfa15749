"""Browser tests of the dot-product widget (pycore/widgets/dot_product/:
view, widget.js)."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, parts_came, pycore_view


def shown_vectors(root):
    """a and b as the 数值 fold shows them (read with text_content: the fold is closed)."""
    read = lambda p: float(root.locator(f'[data-bind="{p}"]').text_content())
    return [read("a.0"), read("a.1")], [read("b.0"), read("b.1")]


def test_dot_product_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "01-dot-product.html")
    root = page.locator('[data-widget="dot-product"]').first
    view = pycore_view("dot-product", **params_of(root))
    assert_shows(root, view, min_count=10)
    assert_drawn(root, view, min_count=20)  # the picture is there before any script runs
    page.close()


def test_dragging_a_tip_updates_every_number(book_pages):
    root = book_pages("dot-product").widget("dot-product")
    tip = root.locator('[data-tip="b"]')
    box = tip.bounding_box()
    page = root.page
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # drag b to the upper left (the SVG may be scaled)
    page.mouse.move(box["x"] - 80, box["y"] - 20, steps=8)
    page.mouse.up()
    a, b = shown_vectors(root)
    assert b != params_of(root)["b"], "the drag did not move b"
    view = pycore_view("dot-product", a=a, b=b)
    assert_shows(root, view)
    assert_drawn(root, view)
    # the tip went where the pointer went: b's handle is centred under the pointer's last spot
    dot = root.locator('[data-tip="b"] .dot').bounding_box()
    assert abs(dot["x"] + dot["width"] / 2 - (box["x"] - 80)) < 6
    assert abs(dot["y"] + dot["height"] / 2 - (box["y"] - 20)) < 6


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
    assert_drawn(root, view)


def test_the_picture_shows_the_angle_and_the_projection(book_pages):
    """The chapter's three positions: a right angle (a·b = 0, b's shadow on a shrinks to the
    origin), opposite arrows (a half-turn arc, a shadow as long as b behind the origin), and
    the block's arrows (θ = 36.9° on the arc)."""
    root = book_pages("dot-product").widget("dot-product")
    assert root.locator(".arc-label").text_content() == "θ = 36.9°"
    assert root.locator(".key-figure .big").inner_text() == "4.000"
    assert root.locator('[data-tip="a"]').get_attribute("aria-valuetext") == "(2.0, 1.0)"
    tip = root.locator('[data-tip="b"]')
    tip.focus()
    root.page.keyboard.press("Shift+ArrowLeft")
    root.page.keyboard.press("Shift+ArrowLeft")  # b = (0.0, 2.0)
    for _ in range(10):
        root.page.keyboard.press("ArrowLeft")     # b = (-1.0, 2.0): perpendicular to a
    view = pycore_view("dot-product", a=[2.0, 1.0], b=[-1.0, 2.0])
    assert_drawn(root, view)
    assert root.locator(".key-figure .big").inner_text() == "0.000"
    assert root.locator(".arc-label").text_content() == "θ = 90.0°"
    shadow = root.locator("line.shadow")
    assert float(shadow.get_attribute("x2")) == float(shadow.get_attribute("x1"))
    assert float(shadow.get_attribute("y2")) == float(shadow.get_attribute("y1"))
    for _ in range(2):
        root.page.keyboard.press("Shift+ArrowLeft")  # b = (-2.0, 2.0)
    for _ in range(6):
        root.page.keyboard.press("Shift+ArrowDown")  # b = (-2.0, -1.0): opposite a
    view = pycore_view("dot-product", a=[2.0, 1.0], b=[-2.0, -1.0])
    assert_drawn(root, view)
    assert root.locator(".key-figure .big").inner_text() == "-5.000"
    assert root.locator(".arc-label").text_content() == "θ = 180.0°"
    # the shadow runs from the origin to b's tip (b lies on a's line), the way b points
    x1, y1, x2, y2 = (float(shadow.get_attribute(k)) for k in ("x1", "y1", "x2", "y2"))
    handle = root.locator('[data-tip="b"] .dot')
    tip_x, tip_y = (float(handle.get_attribute(k)) for k in ("cx", "cy"))
    assert (x2, y2) == (tip_x, tip_y) and x2 < x1 and y2 > y1
    root.locator("[data-action=reset]").click()
    assert_drawn(root, pycore_view("dot-product", **params_of(root)))


def test_a_move_brings_the_arrows_alone(book_pages):
    """The grid is a part the page holds from its first live view: a tip's move brings the
    arrows' part, never the grid again."""
    root = book_pages("dot-product").widget("dot-product")
    root.locator('[data-tip="a"]').focus()
    assert parts_came(root, lambda: root.page.keyboard.press("ArrowUp")) == [["arrows"]]
    root.locator("[data-action=reset]").click()
