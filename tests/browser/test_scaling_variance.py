"""Browser tests of the scaling-variance widget (pycore/widgets/scaling_variance/:
view, widget.js). The samples come from NumPy's default_rng (PCG64) in
Pyodide's NumPy 2.0.2 (chi-square and normal draws); the tests check they equal CPython's NumPy
for the same seed."""
import json
import math

import pytest

from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

# d_k, seed, n, sqrt, 2 variances, 2 stds, 4x3 first draws (|q|^2, z, q.k, scaled),
# 65 + 33 edges, 64 + 32 counts, 2 outside counts (d_k is shown twice)
SHOWN = 4 + 1 + 4 + 12 + 98 + 96 + 2


D_KS = [4, 8, 16, 32, 64, 128, 256, 512, 1024]  # the slider's positions 0 .. 8


def position(d_k):
    return str(D_KS.index(d_k))


def bar_heights(root, key):
    return root.evaluate(f"""root => [...root.querySelectorAll('.histogram .bin')]
        .filter(r => r.dataset.attr.startsWith('y=hist_{key}.'))
        .map(r => Number(r.getAttribute('height')))""")


def assert_bars(root, view):
    """Each bar is as tall as its count, on the count axis both histograms share."""
    for key in ("raw", "scaled"):
        hist = view[f"hist_{key}"]
        expected = [hist["plot"]["h"] * c / hist["top"] for c in view[f"counts_{key}"]]
        assert bar_heights(root, key) == pytest.approx(expected, abs=0.006)  # 2 decimals
    assert view["hist_raw"]["top"] == view["hist_scaled"]["top"]


def test_scaling_variance_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="scaling-variance"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("scaling-variance", **params_of(root))
    assert_shows(root, view, min_count=SHOWN)
    assert_bars(root, view)
    # the widget says how it draws q.k, and the first draws it shows obey q.k = |q| z
    assert "卡方分布" in root.locator(".sv-how").text_content()
    for s in range(3):
        assert view["first_raw"][s] == pytest.approx(
            math.sqrt(view["first_sq_norm"][s]) * view["first_z"][s])
    page.close()


def test_slider_and_keyboard_change_d_k(book_pages):
    root = book_pages("scaling-variance").widget("scaling-variance")
    seed = params_of(root)["seed"]
    slider = root.locator("[data-control=d_k]")
    before = updates(root)
    slider.fill(position(1024))
    assert updates(root) == before + 1
    view = pycore_view("scaling-variance", d_k=1024, seed=seed)
    assert_shows(root, view, min_count=SHOWN)
    assert_bars(root, view)
    assert_drawn(root, view, min_count=4 * (64 + 32))
    # Var(q.k) = d_k and Var(q.k / sqrt(d_k)) = 1, up to sampling noise of 2000 samples
    assert abs(view["var_raw"] / 1024 - 1) < 0.1 and abs(view["var_scaled"] - 1) < 0.1
    assert float(root.locator('[data-bind="var_scaled"]').inner_text()) == \
        pytest.approx(1, abs=0.1)
    slider.focus()
    root.page.keyboard.press("ArrowLeft")
    root.page.keyboard.press("ArrowLeft")
    assert slider.get_attribute("aria-valuetext") == "d_k = 256"
    view = pycore_view("scaling-variance", d_k=256, seed=seed)
    assert_shows(root, view, min_count=SHOWN)
    assert_bars(root, view)
    assert_drawn(root, view)
    slider.fill(position(4))
    view = pycore_view("scaling-variance", d_k=4, seed=seed)
    assert_shows(root, view, min_count=SHOWN)
    assert abs(view["var_scaled"] - 1) < 0.1


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A draw brings its numbers and bars, never again the bins and axes."""
    root = book_pages("scaling-variance").widget("scaling-variance")
    assert parts_came(root, root.locator("[data-action=resample]").click) == [["draw"]]
    root.locator("[data-action=reset]").click()


def test_new_sample_adds_one_to_the_seed(book_pages):
    root = book_pages("scaling-variance").widget("scaling-variance")
    p = params_of(root)
    button = root.locator("[data-action=resample]")
    before = updates(root)
    button.click()
    assert updates(root) == before + 1
    assert root.locator('[data-bind="seed"]').inner_text() == str(p["seed"] + 1)
    view = pycore_view("scaling-variance", d_k=p["d_k"], seed=p["seed"] + 1)
    assert_shows(root, view, min_count=SHOWN)
    assert_bars(root, view)
    root.locator("[data-control=d_k]").fill(position(8))
    button.focus()
    root.page.keyboard.press("Enter")
    view = pycore_view("scaling-variance", d_k=8, seed=p["seed"] + 2)
    assert_shows(root, view, min_count=SHOWN)
    assert view["first_raw"] != pycore_view("scaling-variance", d_k=8, seed=p["seed"] + 1)["first_raw"]


@pytest.mark.parametrize("d_k,seed", [(4, 0), (64, 0), (64, 7), (1024, 3)])
def test_pyodide_numpy_draws_the_same_stream_as_cpython(book_pages, d_k, seed):
    """default_rng(seed).standard_normal in Pyodide's NumPy 2.0.2 gives CPython's numbers:
    every count (all 2000 samples) and every variance, compared to the last bit."""
    page = book_pages("scaling-variance").page
    in_browser = page.evaluate("""async (params) => {
        const { bootRuntime } = await import(new URL('assets/runtime.js', document.baseURI).href);
        const runtime = await bootRuntime();
        return JSON.stringify(await runtime.compute('scaling-variance', params));
    }""", {"d_k": d_k, "seed": seed})
    here = pycore_view("scaling-variance", d_k=d_k, seed=seed)
    in_browser = json.loads(in_browser)
    del in_browser["$parts"]  # the keys of its parts (pycore/view_parts.py)
    assert in_browser == here


def test_reset_restores_the_block(book_pages):
    root = book_pages("scaling-variance").widget("scaling-variance")
    p = params_of(root)
    root.locator("[data-control=d_k]").fill(position(512))
    root.locator("[data-action=resample]").click()
    root.locator("[data-action=reset]").click()
    slider = root.locator("[data-control=d_k]")
    assert slider.input_value() == position(p["d_k"])
    view = pycore_view("scaling-variance", **p)
    assert_shows(root, view, min_count=SHOWN)
    assert_bars(root, view)


def test_the_raw_histogram_widens_and_flattens_the_scaled_one_stays(book_pages):
    """The chapter's claim, on the picture: from d_k = 4 to 1024 the raw bars spread over
    more bins and get lower (the same 2000 samples on one count axis), the ± std lines move
    apart; the scaled bars keep their height and width, the lines stay near ±1."""
    root = book_pages("scaling-variance").widget("scaling-variance")
    slider = root.locator("[data-control=d_k]")
    pictures = {}
    for d_k in (4, 1024):
        slider.fill(position(d_k))
        view = pycore_view("scaling-variance", d_k=d_k, seed=0)
        assert_drawn(root, view)
        pictures[d_k] = {key: bar_heights(root, key) for key in ("raw", "scaled")}
        pictures[d_k]["rules"] = root.evaluate("""root => [...root.querySelectorAll('.rule')]
            .map(l => Number(l.getAttribute('x1')))""")
    wide = lambda hs: sum(h > 0 for h in hs)  # bins holding a sample
    assert wide(pictures[1024]["raw"]) > 4 * wide(pictures[4]["raw"])
    assert max(pictures[1024]["raw"]) < max(pictures[4]["raw"]) / 5
    assert max(pictures[1024]["scaled"]) == pytest.approx(max(pictures[4]["scaled"]), rel=0.25)
    raw4, raw1024 = pictures[4]["rules"][:2], pictures[1024]["rules"][:2]
    assert raw1024[1] - raw1024[0] > 10 * (raw4[1] - raw4[0])  # ± sqrt(d_k): 16 times apart
    scaled4, scaled1024 = pictures[4]["rules"][2:], pictures[1024]["rules"][2:]
    assert scaled1024[1] - scaled1024[0] == pytest.approx(scaled4[1] - scaled4[0], rel=0.1)
    # a bar says its bin and its count
    root.locator(".histogram .bin").nth(32).hover()
    count = pycore_view("scaling-variance", d_k=1024, seed=0)["counts_raw"][32]
    assert root.locator(".sv-panel [data-readout]").first.inner_text() == f"[0, 4)：{count} 个"
