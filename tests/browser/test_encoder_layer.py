"""The encoder-layer widget (pycore/widgets/encoder_layer.py, assets/widgets/encoder-layer.js):
its view against loop arithmetic, then in Chromium: step with buttons, clicks and arrow keys,
switch Post-LN / Pre-LN, read the row means and standard deviations after every LayerNorm."""
import math

import numpy as np
import pytest

from pycore import encoder, example
from pycore.widgets.encoder_layer import view as encoder_view
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

NAME = "encoder-layer"
# 9 x (6 values + mean + std), the FFN's 9 x 24 hidden layer, step counters and stats
SHOWN = 9 * 8 + 9 * 24 + 5
POST = ["输入", "多头注意力", "残差相加", "LayerNorm", "前馈网络 FFN", "残差相加",
        "LayerNorm（本层输出）"]


# --- the view, without a browser -------------------------------------------------------------

def test_view_rows_carry_their_mean_and_std():
    v = encoder_view(step=3, layout="post")  # x + MHA(x)
    assert (v["key"], v["n_steps"], v["shape"]) == ("add1", 7, "9 × 6")
    for row in v["grid"]:
        vals = list(row[:6])
        mu = sum(vals) / 6
        sd = math.sqrt(sum((a - mu) ** 2 for a in vals) / 6)
        assert row[6] == pytest.approx(mu, abs=5e-4) and row[7] == pytest.approx(sd)
    # the input row of 小猫 is (1, 1, 0, 0, 0, 0): mean 1/3, std sqrt(2)/3
    x = encoder_view(step=1, layout="pre")["grid"][0]
    assert x == pytest.approx([1, 1, 0, 0, 0, 0, 1 / 3, math.sqrt(2) / 3])


def test_view_after_layer_norm_and_the_chapter_row():
    v = encoder_view(step=2, layout="pre")  # LN(x)
    assert v["is_norm"] and v["mean_abs_max"] == 0.0
    # the chapter's hand value for 小猫: sqrt(2) and -1/sqrt(2), eps = 1e-5 shrinks it a hair
    s = math.sqrt(2 / 9 + 1e-5)
    assert v["grid"][0][:6] == pytest.approx([2 / 3 / s] * 2 + [-1 / 3 / s] * 4)
    assert f"{v['grid'][0][0]:.3f}" == "1.414" and f"{v['grid'][0][2]:.3f}" == "-0.707"
    assert 0.9999 < v["std_min"] <= v["std_max"] < 1.0


def test_view_clamps_the_step_and_lists_the_layout():
    post, pre = encoder_view(step=8, layout="post"), encoder_view(step=8, layout="pre")
    assert (post["step"], post["key"], pre["step"], pre["key"]) == (7, "ln2", 8, "ln_final")
    assert [s["name"] for s in post["steps"]] == POST
    assert [s["key"] for s in pre["steps"]] == ["x", "ln1", "mha", "add1", "ln2", "ffn",
                                                 "add2", "ln_final"]


def test_view_colours_and_the_hidden_layer():
    v = encoder_view(step=4, layout="post")
    # the heatmap's diverging classes on one scale for every step, [-2.5, 2.5]: 4 + round(4 x / 2.5)
    for row, classes in zip(v["grid"], v["fig"]["heat"]["c"]):
        for x, c in zip(row[:6], classes):
            assert c == 4 + round(max(-1, min(1, x / 2.5)) * 4)
    # hidden layer of the FFN: relu(h W1) with h = LN(x + MHA(x)), by explicit loops
    h, w1 = np.array(v["grid"])[:, :6], encoder.ffn_weights()["w1"]
    hid = [[max(0.0, sum(h[i, k] * w1[k, j] for k in range(6))) for j in range(24)]
           for i in range(9)]
    assert np.allclose(v["hidden"], hid, atol=2e-3)  # h was cleaned to 0 below 5e-4
    assert v["hidden_shape"] == "9 × 24" and v["d_ff"] == 4 * 6


# --- the page --------------------------------------------------------------------------------

def step_names(root):
    return root.locator(".enc-steps li:not([hidden]) .enc-step-name").all_inner_texts()


def stats_columns(root):
    """The page's mean and std of every row, read from the table's last two columns (in the
    数值 fold)."""
    rows = root.locator('table[data-matrix="grid"] tbody tr')
    cells = [rows.nth(i).locator("td").all_text_contents() for i in range(rows.count())]
    return [c[6] for c in cells], [c[7] for c in cells]


def layout_button(root, layout):
    return root.locator(f"""[data-control=layout] [data-value='"{layout}"']""")


def bars_at_their_reference(root, view):
    """The picture: every bound attribute is pycore's; the bars of a row's mean run from the
    zero line of [-1, 1] (80 units) and those of its std from the left of [0, 2], so after a
    LayerNorm every std bar ends on the line at 1."""
    assert_drawn(root, view, min_count=54 * 3 + 18 * 4 + 8 * 2 + 2)
    sd = root.locator(".enc-bars.sd .bar").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('x')) + Number(e.getAttribute('width')))")
    ref = float(root.locator(".enc-bars.sd .ref").get_attribute("x1"))
    left = float(root.locator(".enc-bars.sd .axis").get_attribute("x1"))
    for end, std in zip(sd, view["row_std"]):
        assert abs(end - (left + min(std, 2) / 2 * 80)) <= 0.011
    if view["is_norm"]:
        assert all(abs(end - ref) < 0.011 for end in sd)


def test_encoder_layer_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "07-encoder-layer.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    assert root.get_attribute("data-state") == "static"
    params = params_of(root)
    assert params == {"step": 1, "layout": "post"}
    assert_shows(root, pycore_view(NAME, **params), min_count=SHOWN)
    assert step_names(root) == POST
    page.close()


def test_buttons_step_forward_and_back(book_pages):
    root = book_pages(NAME).widget(NAME)
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    before = updates(root)
    for _ in range(3):
        root.locator("[data-action=next]").click()
    assert updates(root) == before + 3
    view = pycore_view(NAME, step=4)
    assert_shows(root, view, min_count=SHOWN)
    bars_at_their_reference(root, view)
    assert root.locator('[data-bind="name"]').inner_text() == "LayerNorm"
    assert root.locator('li[aria-selected="true"] .enc-step-name').inner_text() == "LayerNorm"
    root.locator("[data-action=prev]").click()
    assert_shows(root, pycore_view(NAME, step=3), min_count=SHOWN)
    bars_at_their_reference(root, pycore_view(NAME, step=3))
    # keyboard on the buttons themselves
    root.locator("[data-action=next]").focus()
    root.page.keyboard.press("Enter")
    root.page.keyboard.press("Space")
    assert_shows(root, pycore_view(NAME, step=5), min_count=SHOWN)
    assert updates(root) == before + 6


def test_arrow_keys_on_the_step_list_and_the_ends(book_pages):
    root = book_pages(NAME).widget(NAME)
    before = updates(root)
    root.locator(".enc-steps").focus()
    for key in ("ArrowRight", "ArrowDown", "ArrowRight"):
        root.page.keyboard.press(key)
    assert_shows(root, pycore_view(NAME, step=4), min_count=SHOWN)
    root.page.keyboard.press("ArrowLeft")
    assert_shows(root, pycore_view(NAME, step=3), min_count=SHOWN)
    root.page.keyboard.press("End")
    assert_shows(root, pycore_view(NAME, step=7), min_count=SHOWN)
    assert root.locator("[data-action=next]").get_attribute("aria-disabled") == "true"
    n = updates(root)
    root.page.keyboard.press("ArrowRight")  # past the end: nothing to do
    root.locator("[data-action=next]").click(force=True)  # aria-disabled, still clickable
    assert updates(root) == n
    root.locator(".enc-steps").focus()
    root.page.keyboard.press("Home")
    assert_shows(root, pycore_view(NAME, step=1), min_count=SHOWN)
    assert root.locator("[data-action=prev]").get_attribute("aria-disabled") == "true"
    assert updates(root) > before
    # a click on a step in the list jumps there
    root.locator('.enc-steps li[data-step="6"]').click()
    assert_shows(root, pycore_view(NAME, step=6), min_count=SHOWN)


def test_switch_to_pre_ln_changes_the_step_list(book_pages):
    root = book_pages(NAME).widget(NAME)
    root.locator('.enc-steps li[data-step="3"]').click()
    before = updates(root)
    layout_button(root, "pre").click()
    assert updates(root) == before + 1
    view = pycore_view(NAME, step=3, layout="pre")
    assert_shows(root, view, min_count=SHOWN)
    assert step_names(root) == [s["name"] for s in view["steps"]] and len(step_names(root)) == 8
    assert root.locator('[data-bind="label"]').inner_text() == "MHA(LN(x))"
    root.locator("[data-action=next]").click()
    assert root.locator('[data-bind="label"]').inner_text() == "r = x + MHA(LN(x))"
    # the layer's own output under Pre-LN is not normalised: std differs from 1
    root.locator('.enc-steps li[data-step="7"]').click()
    assert_shows(root, pycore_view(NAME, step=7, layout="pre"), min_count=SHOWN)
    _, stds = stats_columns(root)
    assert max(abs(float(s) - 1) for s in stds) > 0.1
    # back to Post-LN from step 8: the shorter list shows its last step
    root.locator('.enc-steps li[data-step="8"]').click()
    layout_button(root, "post").click()
    assert_shows(root, pycore_view(NAME, step=8, layout="post"), min_count=SHOWN)
    assert step_names(root) == POST
    assert root.locator('li[aria-selected="true"] .enc-step-name').inner_text() == POST[-1]


@pytest.mark.parametrize("layout", ["post", "pre"])
def test_every_layer_norm_gives_mean_zero_std_one(book_pages, layout):
    root = book_pages(NAME).widget(NAME)
    layout_button(root, layout).click()
    norms = [i + 1 for i, s in enumerate(encoder.encoder_steps(layout)) if s["kind"] == "norm"]
    assert len(norms) == (2 if layout == "post" else 3)
    for step in norms:
        root.locator(f'.enc-steps li[data-step="{step}"]').click()
        view = pycore_view(NAME, step=step, layout=layout)
        assert_shows(root, view, min_count=SHOWN)
        bars_at_their_reference(root, view)
        means, stds = stats_columns(root)
        assert means == ["0.000"] * len(example.TOKENS)
        assert all(abs(float(s) - 1) < 1e-3 for s in stds)
        assert root.locator('[data-bind="mean_abs_max"]').inner_text() == "0.000"
        for path in ("std_min", "std_max"):
            assert 0.9999 < float(root.locator(f'[data-bind="{path}"]').inner_text()) <= 1.0
        assert root.locator(".enc-norm-only").is_visible()


def test_reset_restores_the_block(book_pages):
    root = book_pages(NAME).widget(NAME)
    layout_button(root, "pre").click()
    root.locator('.enc-steps li[data-step="5"]').click()
    assert_shows(root, pycore_view(NAME, step=5, layout="pre"), min_count=SHOWN)
    root.locator("[data-action=reset]").click()
    assert layout_button(root, "post").get_attribute("aria-checked") == "true"
    assert_shows(root, pycore_view(NAME), min_count=SHOWN)
    assert step_names(root) == POST
    assert root.locator('li[aria-selected="true"]').get_attribute("data-step") == "1"


def test_pointing_at_a_cell_lights_its_row_and_bars(book_pages):
    """A cell says its value and lights its token's label and its two bars; from the keyboard
    the heatmap is one Tab stop and the arrow keys move by cell and by row."""
    root = book_pages(NAME).widget(NAME)
    root.locator('.enc-steps li[data-step="4"]').click()  # h = LN(x + MHA(x))
    view = pycore_view(NAME, step=4)
    cell = root.locator(".enc-heat .cell").nth(0)
    cell.hover()
    assert root.locator(".enc-fig [data-readout]").inner_text() == \
        f"小猫 → 维 1：{view['fig']['heat']['say'][0][0].split('：')[1]}"
    assert float(root.locator(".enc-fig [data-readout]").inner_text().split("：")[1]) == \
        pytest.approx(view["grid"][0][0], abs=1e-3)
    lit = root.locator(".enc-heat .linked").evaluate_all(
        "els => els.map(e => e.classList.contains('bar') ? 'bar' : e.textContent)")
    assert lit.count("bar") == 2 and "小猫" in lit
    cell.focus()
    root.page.keyboard.press("ArrowDown")
    assert root.locator(".enc-fig [data-readout]").inner_text().startswith("没有 → 维 1：")
    root.locator("[data-action=reset]").click()


def test_the_hidden_layer_is_sent_only_when_the_layout_changes():
    """Given the layout the page shows, the view leaves out what depends on the layout alone;
    the page's view, updated with it, is the whole view."""
    old = pycore_view(NAME, step=2, layout="post")
    same = pycore_view(NAME, step=5, layout="post", shown={"layout": "post"})
    assert "hidden" not in same and "hidden_fig" not in same and same["step"] == 5
    assert {**old, **same} == pycore_view(NAME, step=5, layout="post")
    other = pycore_view(NAME, step=5, layout="pre", shown={"layout": "post"})
    assert other == pycore_view(NAME, step=5, layout="pre")
