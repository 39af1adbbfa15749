"""Browser tests of the rope-scaling widget (pycore/widgets/rope_scaling/:
view, template.html): the two sliders recompute the four lines and the counts,
and the page shows pycore's: PI's line lies log10(s) above the original everywhere, NTK's and
YaRN's start on it (the fastest pair kept) and end on PI's (the slowest divided by s)."""
import math

from pycore.widgets.rope_scaling import PARAMS
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

PAGE = "10b-llms-2026.html"


def ends(root):
    """Each line's first and last point, read from its drawn path: (y0, y_end) in SVG units."""
    return root.evaluate("""root => [...root.querySelectorAll('.line-chart path.series')]
        .map(p => { const pts = p.getAttribute('d').slice(1).split('L').map(s => s.split(',').map(Number));
                    return [pts[0][1], pts[pts.length - 1][1]]; })""")


def check_picture(root, view):
    (o0, o1), (p0, p1), (n0, n1), (y0, y1) = ends(root)
    plot = view["chart"]["plot"]
    per_decade = plot["h"] / 7                          # the y axis spans 10^0 .. 10^7
    up = math.log10(view["s"]) * per_decade
    assert abs((o0 - p0) - up) < 0.02 and abs((o1 - p1) - up) < 0.02
    assert n0 == o0 == y0 and n1 == p1 == y1


def test_rope_scaling_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="rope-scaling"]').first
    view = pycore_view("rope-scaling", **params_of(root))
    assert_shows(root, view, min_count=8)
    assert_drawn(root, view, min_count=4 + 2)
    check_picture(root, view)
    # chapter 10b's κ and n_训 (s is a score, L the layers: pycore/notation.py)
    assert root.locator(".ctl-name").all_inner_texts()[:2] == ["拉长倍数 κ", "训练上下文 n_训"]
    assert root.locator(".rs-key.level").inner_text() == "n_训 与 κ·n_训"
    page.close()


def test_stretch_and_training_length(book_pages):
    root = book_pages("rope-scaling").widget("rope-scaling")
    before = updates(root)
    root.locator("[data-control=s]").fill(str(PARAMS["s"]["choices"].index(32)))
    assert updates(root) > before
    view = pycore_view("rope-scaling", s=32)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    root.locator("[data-control=train_len]").focus()
    root.page.keyboard.press("ArrowLeft")
    view = pycore_view("rope-scaling", s=32, train_len=2048)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    assert root.locator('[data-bind="stretched_text"]').text_content() == "65,536"
    root.locator("[data-action=reset]").click()
    view = pycore_view("rope-scaling")
    assert_shows(root, view)
    check_picture(root, view)
