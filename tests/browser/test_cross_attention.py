"""Browser tests of the cross-attention widget (pycore/widgets/cross_attention/:
view, widget.js)."""
from tests.browser.harness import (assert_drawn, assert_heat, assert_shows, heat_cells, params_of,
                                   parts_came, pycore_view, updates)

SCALE = "input[type=range][data-control=scale]"


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def plus(root):
    return root.locator("[data-control=step] [data-step='1']")


def coloured_rows(root):
    """The heatmap's rows that have at least one cell drawn (not masked), top to bottom."""
    rows = {tokens.split(" ")[0] for tokens, cls in heat_cells(root) if cls != "masked"}
    return sorted(rows, key=lambda t: int(t[1:]))


def thickest_curve(root):
    """data-tokens of the widest curve: 't<decoder word> s<source word>'."""
    return root.evaluate("""root => [...root.querySelectorAll('.curves path.curve')]
        .reduce((a, p) => Number(p.getAttribute('stroke-width')) >
                          Number(a.getAttribute('stroke-width')) ? p : a).dataset.tokens""")


def test_cross_attention_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "08-decoder.html")
    root = page.locator('[data-widget="cross-attention"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("cross-attention", **params_of(root))
    assert_shows(root, view, min_count=13 * 9 + 9 * 2 + 10)
    assert_drawn(root, view, min_count=13 * 9 * 2 + 10 + 9 * 5)
    assert_heat(root, view["heat"])
    assert text(root, "attended_weight") == "0.765" and coloured_rows(root) == ["t0"]
    page.close()


def test_stepping_fills_the_alignment_row_by_row(book_pages):
    root = book_pages("cross-attention").widget("cross-attention")
    before = updates(root)
    plus(root).click()
    assert updates(root) > before
    view = pycore_view("cross-attention", step=2)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert (text(root, "writes"), text(root, "attended"), text(root, "attended_weight"),
            text(root, "second_weight")) == ("cat", "小猫", "0.765", "0.115")
    assert coloured_rows(root) == ["t0", "t1"] and thickest_curve(root) == "t1 s0"
    stepper = root.locator("[data-control=step][role=spinbutton]")
    stepper.focus()
    root.page.keyboard.press("ArrowRight")
    root.page.keyboard.press("ArrowRight")  # step 4: not
    view = pycore_view("cross-attention", step=4)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert (text(root, "writes"), text(root, "attended"), text(root, "attended_weight")) == \
        ("not", "没有", "0.640")
    assert text(root, "self_keys") == "<bos> the cat did" and thickest_curve(root) == "t3 s1"
    band = root.locator("svg.heat rect.band")
    assert float(band.get_attribute("y")) == view["heat"]["row_band"]["y"]


def test_the_last_step_and_its_alignment(book_pages):
    root = book_pages("cross-attention").widget("cross-attention")
    stepper = root.locator("[data-control=step][role=spinbutton]")
    stepper.focus()
    root.page.keyboard.press("End")
    assert stepper.get_attribute("aria-valuenow") == "13"
    view = pycore_view("cross-attention", step=13)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert text(root, "writes") == "<eos>" and text(root, "attended") == "了"
    assert len(coloured_rows(root)) == 13
    # every row's darkest cell is the aligned source word (the colour class of the largest)
    rows = {}
    for tokens, k in assert_heat(root, view["heat"]):
        t, s = tokens.split(" ")
        if t not in rows or k > rows[t][0]:
            rows[t] = (k, s)
    darkest = [rows[t][1] for t in sorted(rows, key=lambda t: int(t[1:]))]
    source = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]
    assert [source[int(s[1:])] for s in darkest] == view["aligned"]
    assert plus(root).is_disabled()


def test_the_scale_flattens_the_row(book_pages):
    root = book_pages("cross-attention").widget("cross-attention")
    plus(root).click()
    root.locator(SCALE).fill("1")
    view = pycore_view("cross-attention", step=2, scale=1.0)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert text(root, "attended_weight") == "0.184" and text(root, "scale") == "1.0"
    widths = root.evaluate("""root => [...root.querySelectorAll('.curves path.curve')]
        .map(p => Number(p.getAttribute('stroke-width')))""")
    assert widths == [c["sw"] for c in view["curves"]["curves"]]
    assert min(widths) > 4  # flat: every curve at least half as wide as the widest


def test_reset_restores_the_block(book_pages):
    root = book_pages("cross-attention").widget("cross-attention")
    params = params_of(root)
    plus(root).click()
    root.locator(SCALE).fill("3")
    root.locator("[data-action=reset]").click()
    view = pycore_view("cross-attention", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert_heat(root, view["heat"])
    assert coloured_rows(root) == ["t0"]


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A step brings the step's part, not the scale's matrix; the scale brings both."""
    root = book_pages("cross-attention").widget("cross-attention")
    assert parts_came(root, lambda: plus(root).click()) == [["writing"]]
    assert parts_came(root, lambda: root.locator(SCALE).fill("3")) == [["matrix", "writing"]]
    assert_shows(root, pycore_view("cross-attention", step=2, scale=3.0))
    root.locator("[data-action=reset]").click()
