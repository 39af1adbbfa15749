"""Browser tests of the moe-router widget (pycore/widgets/moe_router/:
view, template.html): the steppers (experts, k, seed) and the temperature slider
recompute the router, and the page's numbers and picture are pycore's: E columns shown, k
cells framed in every row, each expert's bar as tall as its load."""
import math

from pycore.widgets.moe_router import BAR_H, CELL_W, LABEL_W
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

PAGE = "10b-llms-2026.html"


def step(root, name, d):
    root.locator(f'[data-control={name}] [data-step="{d}"]').click()


def picture(root):
    """What the figure shows: the visible expert labels, per row how many cells are framed,
    the bars' heights of the visible experts and the balanced line's y."""
    return root.evaluate("""root => {
        const svg = root.querySelector('svg.moe');
        const shown = e => !e.hasAttribute('data-hidden');
        const cells = [...svg.querySelectorAll('.moe-cell')];
        const rows = [];
        cells.forEach((c, n) => { const i = Math.floor(n / 8);
            rows[i] = (rows[i] || 0) + (shown(c) && c.hasAttribute('data-chosen') ? 1 : 0); });
        return {
            cols: [...svg.querySelectorAll('.col-label')].map(t => t.textContent).filter(Boolean),
            chosen: rows,
            heights: [...svg.querySelectorAll('.moe-load')].filter(shown)
                       .map(g => Number(g.querySelector('rect').getAttribute('height'))),
            balanced: Number(svg.querySelector('.balanced').getAttribute('y1')),
            base: Number(svg.querySelector('.baseline').getAttribute('y1')),
            width: Number(svg.getAttribute('width')),
        };
    }""")


def check_picture(root, view):
    shown = picture(root)
    e, k = view["experts"], view["k_used"]
    assert shown["cols"] == [f"E{j + 1}" for j in range(e)]
    assert shown["chosen"] == [k] * 9
    # a bar's height is its load over the nine tokens of the bar area
    assert shown["heights"] == [round(BAR_H * n / 9, 2) for n in view["loads"][:e]]
    assert math.isclose(shown["base"] - shown["balanced"], BAR_H * (9 * k / e) / 9, abs_tol=0.01)
    assert shown["width"] == LABEL_W + CELL_W * e
    # the sizes chart: the total's bar is as many times the active one's as the counts are
    total, active = root.locator(".moe-size rect.mark").evaluate_all(
        "els => els.slice(1).map(e => Number(e.getAttribute('width')))")
    assert math.isclose(total / active, view["total"] / view["active"], rel_tol=0.01)


def test_moe_router_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="moe-router"]').first
    view = pycore_view("moe-router", **params_of(root))
    assert_shows(root, view, min_count=9 + 3 * 8 + 5)
    assert_drawn(root, view, min_count=9 * 8 * 5 + 8 * 5)
    check_picture(root, view)
    assert root.locator('[data-bind="loss"]').text_content() == "1.205"
    # the number of experts is chapter 10b's n_专家 (E is the embedding matrix: pycore/notation.py)
    assert "专家数 n_专家" in root.locator(".ctl-name").all_inner_texts()
    assert root.locator(".key-figure").first.inner_text().startswith("负载均衡损失 n_专家·Σ f·P = 1.205")
    page.close()


def test_experts_k_and_temperature_reroute(book_pages):
    root = book_pages("moe-router").widget("moe-router")
    before = updates(root)
    step(root, "experts", -1)
    step(root, "experts", -1)
    assert updates(root) > before
    view = pycore_view("moe-router", experts=6)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    assert root.locator('[data-bind="total_text"]').text_content() == view["total_text"]
    # k up to 3: three framed cells a row, the active parameters grow, the total does not
    step(root, "k", 1)
    view = pycore_view("moe-router", experts=6, k=3)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    assert view["total"] == pycore_view("moe-router", experts=6)["total"]
    # the temperature slider (log-scaled: 10^0.60206 = 4): the same experts, flatter gates
    root.locator("[data-control=temperature]").fill("0.60206")
    t = 10 ** float(root.locator("[data-control=temperature]").input_value())  # as stepped
    assert abs(t - 4.0) < 0.1
    view = pycore_view("moe-router", experts=6, k=3, temperature=t)
    assert view["loads"] == pycore_view("moe-router", experts=6, k=3)["loads"]
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    root.locator("[data-action=reset]").click()
    view = pycore_view("moe-router", **params_of(root))
    assert_shows(root, view)
    check_picture(root, view)


def test_the_seed_by_keyboard_and_k_beyond_e(book_pages):
    root = book_pages("moe-router").widget("moe-router")
    root.locator("[data-control=seed]").focus()
    root.page.keyboard.press("ArrowRight")
    view = pycore_view("moe-router", seed=1)
    assert_shows(root, view)
    assert_drawn(root, view)
    check_picture(root, view)
    # two experts and k = 4: the widget routes with k = 2 and says so
    for _ in range(6):
        step(root, "experts", -1)
    step(root, "k", 1)
    step(root, "k", 1)
    view = pycore_view("moe-router", seed=1, experts=2, k=4)
    assert view["k_used"] == 2 and view["loss"] == 1.0
    assert_shows(root, view)
    check_picture(root, view)
    assert "k = 2" in root.locator('[data-bind="k_note"]').text_content()
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("moe-router"))
