"""Browser tests of the chinchilla widget (pycore/widgets/chinchilla.py,
assets/widgets/chinchilla.js): N, D and C in, compute-optimal numbers out, against pycore."""
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

PAGE = "13-training.html"


def shows_view(root, view):
    n = assert_shows(root, view, min_count=17)
    assert abs(float(root.locator('[data-part="dot"]').get_attribute("cx")) - view["ratio_x"]) < 1e-6
    pressed = root.locator('[data-preset][aria-pressed="true"]').all_inner_texts()
    assert [t.split()[0] for t in pressed] == ([view["preset"]] if view["preset"] else [])
    return n


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.inner_text()


def count(root, path):
    return f'{text(root, path + ".value")} {text(root, path + ".unit")}'


def sci(root, path):
    return f'{text(root, path + ".m")}e{text(root, path + ".e")}'


def test_chinchilla_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="chinchilla"]').first
    params = params_of(root)
    shows_view(root, pycore_view("chinchilla", **params))
    # the chapter's first check: 7B -> 140B tokens and about 5.88e21 FLOPs
    assert count(root, "d") == "140.00 B" and sci(root, "c") == "5.88e21"
    page.close()


def test_presets_show_how_far_from_twenty(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    before = updates(root)
    root.locator("[data-preset]", has_text="GPT-3").click()
    assert updates(root) == before + 1
    view = pycore_view("chinchilla", params=175e9, tokens=300e9, flops=0.0)
    shows_view(root, view)
    assert text(root, "ratio") == "1.7" and text(root, "times") == "0.09"
    assert text(root, "verdict").startswith("数据偏少")
    # chapter 13: the same budget is better spent on about 51B parameters and 1.0T tokens
    assert count(root, "best_n") == "51.23 B" and count(root, "best_d") == "1.02 T"
    root.locator("[data-preset]", has_text="LLaMA-7B").click()
    shows_view(root, pycore_view("chinchilla", params=7e9, tokens=1e12, flops=0.0))
    assert text(root, "ratio") == "142.9"
    root.locator("[data-action=optimal]").click()  # same N, D = 20 N
    shows_view(root, pycore_view("chinchilla", params=7e9, tokens=0.0, flops=0.0))


def test_parameter_slider_box_and_keyboard(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    slider = root.locator("[data-control=log_params]")
    slider.fill("11")
    shows_view(root, pycore_view("chinchilla", params=1e11, tokens=0.0, flops=0.0))
    slider.focus()
    root.page.keyboard.press("ArrowRight")  # one step: 10^0.01 times more parameters
    shows_view(root, pycore_view("chinchilla", params=10 ** 11.01, tokens=0.0, flops=0.0))
    root.locator("[data-control=params_b]").fill("70")  # the chapter's second check
    view = pycore_view("chinchilla", params=70e9, tokens=0.0, flops=0.0)
    shows_view(root, view)
    assert count(root, "d") == "1.40 T" and sci(root, "c") == "5.88e23"
    assert view["preset"] == "Chinchilla"  # the Chinchilla row of the table


def test_budget_then_tokens(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    root.locator("[data-control=flops]").fill("3.15e23")  # a budget: N and D split at 20 to 1
    view = pycore_view("chinchilla", params=7e9, tokens=0.0, flops=3.15e23)
    shows_view(root, view)
    assert count(root, "n") == "51.23 B" and text(root, "ratio") == "20.0"
    assert root.locator("[data-control=log_params]").input_value() == f"{view['log']['params']:.2f}"
    root.locator("[data-control=tokens_b]").fill("300")  # now fix D: N stays
    shows_view(root, pycore_view("chinchilla", params=view["params"], tokens=300e9, flops=0.0))
    root.locator("[data-control=log_flops]").fill("24")  # the budget slider
    shows_view(root, pycore_view("chinchilla", params=view["params"], tokens=0.0, flops=1e24))


def test_reset_restores_the_block(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    params = params_of(root)
    root.locator("[data-preset]", has_text="Gopher").click()
    root.locator("[data-control=log_tokens]").fill("13")
    root.locator("[data-action=reset]").click()
    shows_view(root, pycore_view("chinchilla", **params))
    assert root.locator("[data-control=params_b]").input_value() == "7"
    assert root.locator("[data-control=tokens_b]").input_value() == "140"
