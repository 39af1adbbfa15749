"""Browser tests of the chinchilla widget (pycore/widgets/chinchilla/:
view, widget.js): N, D and C in, compute-optimal numbers out, against pycore."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

PAGE = "13-training.html"


def shows_view(root, view):
    n = assert_shows(root, view, min_count=17)
    dot = root.locator(".ch-now .ch-dot")
    assert abs(float(dot.get_attribute("cx")) - view["chart"]["now"]["x"]) < 1e-6
    pressed = root.locator("[data-control=preset] [aria-checked=true]").evaluate_all(
        "els => els.map(e => JSON.parse(e.dataset.value))")
    assert pressed == ([view["preset"]] if view["preset"] else [])
    return n


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.inner_text()


def count(root, path):
    return f'{text(root, path + ".value")} {text(root, path + ".unit")}'


def sci(root, path):
    return f'{text(root, path + ".m")}e{text(root, path + ".e")}'


def choose(root, preset):
    root.locator(f"""[data-control=preset] [data-value='"{preset}"']""").click()


def slider(root, name):
    return root.locator(f"input[type=range][data-control={name}]")


def box(root, name):
    return root.locator(f"input[type=number][data-control={name}]")


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
    choose(root, "GPT-3")
    assert updates(root) == before + 1
    view = pycore_view("chinchilla", params=175e9, tokens=300e9, given="ND")
    shows_view(root, view)
    assert text(root, "ratio") == "1.7" and text(root, "times") == "0.09"
    assert text(root, "verdict").startswith("数据偏少")
    # chapter 13: the same budget is better spent on about 51B parameters and 1.0T tokens
    assert count(root, "best_n") == "51.23 B" and count(root, "best_d") == "1.02 T"
    choose(root, "LLaMA-7B")
    shows_view(root, pycore_view("chinchilla", params=7e9, tokens=1e12, given="ND"))
    assert text(root, "ratio") == "142.9"
    root.locator("[data-action=optimal]").click()  # same N, D = 20 N
    shows_view(root, pycore_view("chinchilla", params=7e9, given="N"))


def test_parameter_slider_box_and_keyboard(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    slider(root, "params").fill("11")
    shows_view(root, pycore_view("chinchilla", params=1e11, given="N"))
    slider(root, "params").focus()
    root.page.keyboard.press("ArrowRight")  # one step: 10^0.01 times more parameters
    shows_view(root, pycore_view("chinchilla", params=10 ** 11.01, given="N"))
    box(root, "params").fill("7e10")  # the chapter's second check
    view = pycore_view("chinchilla", params=70e9, given="N")
    shows_view(root, view)
    assert count(root, "d") == "1.40 T" and sci(root, "c") == "5.88e23"
    assert view["preset"] == "Chinchilla"  # the Chinchilla row of the table


def test_budget_then_tokens(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    box(root, "flops").fill("3.15e23")  # a budget: N and D split at 20 to 1
    view = pycore_view("chinchilla", flops=3.15e23, given="C")
    shows_view(root, view)
    assert count(root, "n") == "51.23 B" and text(root, "ratio") == "20.0"
    assert slider(root, "params").input_value() == f"{view['log']['params']:.2f}"
    box(root, "tokens").fill("3e11")  # now fix D: N stays
    shows_view(root, pycore_view("chinchilla", params=view["params"], tokens=300e9, given="ND"))
    slider(root, "flops").fill("24")  # the budget slider
    shows_view(root, pycore_view("chinchilla", flops=1e24, given="C"))


def test_reset_restores_the_block(book_pages):
    root = book_pages("chinchilla").widget("chinchilla")
    params = params_of(root)
    choose(root, "Gopher")
    slider(root, "tokens").fill("13")
    root.locator("[data-action=reset]").click()
    shows_view(root, pycore_view("chinchilla", **params))
    assert float(box(root, "params").input_value()) == 7e9
    assert float(box(root, "tokens").input_value()) == 140e9


def line_y(view, x):
    """The y of the 20:1 line at x (SVG units), from its two end points."""
    (x0, y0), (x1, y1) = [tuple(map(float, p[1:].split(",")))
                          for p in view["chart"]["paths"][0]["d"].split(" ")]
    return y0 + (x - x0) / (x1 - x0) * (y1 - y0)


def test_the_picture_is_pycores(book_pages):
    """D against N on log axes: every drawn attribute is the view's; the real models fall
    where chapter 13 says (GPT-3 and Gopher below the 20:1 line, LLaMA-7B above it, Chinchilla
    on it), and a budget's best split is where its line meets 20:1: the current model then
    sits on it."""
    root = book_pages("chinchilla").widget("chinchilla")
    view = pycore_view("chinchilla", **params_of(root))
    assert_drawn(root, view, min_count=2 + 2 * 7 * 3 + 4)
    points = {p["name"]: p for p in view["chart"]["presets"]}
    below = lambda name: points[name]["y"] > line_y(view, points[name]["x"]) + 1  # noqa: E731
    assert below("GPT-3") and below("Gopher") and not below("LLaMA-7B")
    assert abs(points["Chinchilla"]["y"] - line_y(view, points["Chinchilla"]["x"])) < 0.5
    choose(root, "GPT-3")
    view = pycore_view("chinchilla", params=175e9, tokens=300e9, given="ND")
    assert_drawn(root, view)
    now, best = view["chart"]["now"], view["chart"]["best"]
    assert now["y"] > line_y(view, now["x"]) + 1  # below the line: too few tokens
    assert abs(best["y"] - line_y(view, best["x"])) < 0.5
    assert root.locator(".ch-now").get_attribute("data-say").startswith("当前：N = 175.00 B")
    slider(root, "flops").fill("24")
    view = pycore_view("chinchilla", flops=1e24, given="C")
    assert_drawn(root, view)
    now, best = view["chart"]["now"], view["chart"]["best"]
    assert (now["x"], now["y"]) == (best["x"], best["y"])
