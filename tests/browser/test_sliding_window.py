"""Browser tests of the sliding-window widget (pycore/widgets/sliding_window/:
view, template.html): the window and layer steppers and the query picker
recompute the masked weights and the receptive field, and the page shows pycore's: the
heatmap's masked cells are those more than w tokens back, and each layer's lit cells are the
tokens within (L - l) w of the query."""
from pycore.example import TOKENS
from tests.browser.harness import (assert_drawn, assert_heat, assert_shows, params_of,
                                   pycore_view, updates)

PAGE = "10b-llms-2026.html"


def step(root, name, d):
    root.locator(f'[data-control={name}] [data-step="{d}"]').click()


def lit_rows(root):
    """Per shown row of the reach grid, the indices of its lit cells."""
    return root.evaluate("""root => [...root.querySelectorAll('svg.swa .swa-row')]
        .filter(g => !g.hasAttribute('data-hidden'))
        .map(g => [...g.querySelectorAll('rect.reach')].flatMap((r, j) =>
            r.hasAttribute('data-on') ? [j] : []))""")


def check_picture(root, view):
    assert_heat(root, view["heat"])
    q, w, layers = TOKENS.index(view["query"]), view["w"], view["layers"]
    # the masked cells of the query's row: exactly the keys outside i - w .. i
    masked = [c["masked"] for c in view["heat"]["cells"] if c["i"] == q]
    assert masked == [not (q - w <= j <= q) for j in range(len(TOKENS))]
    # by hand: at layer l the query hears back to q - (layers - l) w
    assert lit_rows(root) == [list(range(max(0, q - (layers - l) * w), q + 1))
                              for l in range(layers + 1)]


def test_sliding_window_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="sliding-window"]').first
    view = pycore_view("sliding-window", **params_of(root))
    assert_shows(root, view, min_count=9 + 2)
    assert_drawn(root, view, min_count=5 * 9 * 2)
    check_picture(root, view)
    page.close()


def test_window_layers_and_query(book_pages):
    root = book_pages("sliding-window").widget("sliding-window")
    before = updates(root)
    step(root, "layers", 1)                      # three layers: 小猫 comes within reach
    assert updates(root) > before
    view = pycore_view("sliding-window", layers=3)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    assert root.locator('[data-bind="first"]').text_content() == "小猫"
    for _ in range(3):
        step(root, "w", 1)                       # w = 5
    view = pycore_view("sliding-window", layers=3, w=5)
    assert_shows(root, view)
    check_picture(root, view)
    assert view["weights"][0] > 0
    root.locator('[data-control=query] button', has_text="了").click()
    view = pycore_view("sliding-window", layers=3, w=5, query="了")
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    root.locator("[data-control=layers]").focus()
    root.page.keyboard.press("ArrowLeft")
    view = pycore_view("sliding-window", layers=2, w=5, query="了")
    assert_shows(root, view)
    check_picture(root, view)
    root.locator("[data-action=reset]").click()
    view = pycore_view("sliding-window")
    assert_shows(root, view)
    check_picture(root, view)
