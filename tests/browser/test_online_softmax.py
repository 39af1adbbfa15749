"""Browser tests of the online-softmax widget (pycore/widgets/online_softmax/:
view, widget.js)."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

TILE = "input[type=range][data-control=tile]"
N = "input[type=range][data-control=n]"


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def button(root, name, value):
    return root.locator(f"""[data-control={name}] [data-value='{value}']""")


def plus(root):
    return root.locator("[data-control=step] [data-step='1']")


def current_frame(root):
    """The index of the tile frame drawn as the current one."""
    return root.evaluate("""root => [...root.querySelectorAll('rect.os-frame')]
        .findIndex(f => f.hasAttribute('data-current'))""")


def bar_tops_and_ticks(root):
    return root.evaluate("""root => [...root.querySelectorAll('.os-tiles g.bar')].map(g =>
        [Number(g.querySelector('rect').getAttribute('y')),
         Number(g.querySelector('line.os-ref').getAttribute('y1'))])""")


def test_online_softmax_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "04-attention.html")
    root = page.locator('[data-widget="online-softmax"]').first
    assert root.get_attribute("data-state") == "static"
    view = pycore_view("online-softmax", **params_of(root))
    assert_shows(root, view, min_count=9 * 3 + 6 * 3 + 9 * 5)
    assert_drawn(root, view, min_count=9 * 8 * 6)
    assert float(root.locator('[data-sci="random_diff"]').text_content()) < 1e-14
    # the running maximum is chapter 04's s_max (pycore/notation.py), in every place it is named
    assert root.locator(".os-progress").inner_text().endswith("s_max = 0.816，l = 1.884")
    assert root.locator("th", has_text="s_max").count() == 1
    assert root.locator('[data-bind="eq.m"]').text_content().startswith("s_max = 块内最大")
    page.close()


def test_stepping_through_the_tiles_ends_on_the_full_softmax(book_pages):
    root = book_pages("online-softmax").widget("online-softmax")
    assert (text(root, "m"), text(root, "l")) == ("0.816", "1.884")
    assert current_frame(root) == 0
    before = updates(root)
    plus(root).click()
    assert updates(root) > before
    view = pycore_view("online-softmax", step=2)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert text(root, "l") == "3.433" and current_frame(root) == 1
    plus(root).click()
    view = pycore_view("online-softmax", step=3)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert text(root, "eq.l") == "l = 3.433 × 1.000 + 1.326 = 4.759"
    # every bar now stands on its tick (the full softmax's weight), and + stops here
    assert all(abs(top - tick) < 0.01 for top, tick in bar_tops_and_ticks(root))
    assert text(root, "bars.bars.0.text") == "0.210"
    assert plus(root).is_disabled()
    assert float(root.locator('[data-sci="max_diff"]').text_content()) < 1e-15


def test_smaller_tiles_and_a_late_maximum(book_pages):
    root = book_pages("online-softmax").widget("online-softmax")
    button(root, "query", '"累"').click()
    stepper = root.locator("[data-control=step][role=spinbutton]")
    stepper.focus()
    root.page.keyboard.press("ArrowRight")
    root.page.keyboard.press("ArrowRight")
    view = pycore_view("online-softmax", query="累", step=3)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert text(root, "eq.scale").startswith("缩放因子 e^(旧 s_max − 新 s_max) = e^(−0.408) = 0.665")
    root.locator(TILE).fill("1")  # nine tiles of one key: still at the third
    view = pycore_view("online-softmax", query="累", tile=1, step=3)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert root.locator("rect.os-frame:not([data-hidden])").count() == 9
    assert not plus(root).is_disabled()
    root.locator(TILE).fill("9")  # one tile of nine keys: the step follows it back to 1
    assert stepper.get_attribute("aria-valuenow") == "1"
    view = pycore_view("online-softmax", query="累", tile=9, step=1)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert plus(root).is_disabled() and text(root, "progress").startswith("已读 9 / 9 个键")


def test_the_memory_of_one_tile(book_pages):
    root = book_pages("online-softmax").widget("online-softmax")
    assert (text(root, "memory.full_text"), text(root, "memory.tile_text"),
            text(root, "memory.ratio_text")) == ("32.00 MiB", "32.00 KiB", "1,024")
    root.locator(N).fill("7")  # the last choice: 131072
    button(root, "block", "32").click()
    button(root, "dtype", '"fp32"').click()
    view = pycore_view("online-softmax", n=131072, block=32, dtype="fp32")
    assert_shows(root, view)
    assert_drawn(root, view)
    assert text(root, "memory.full_text") == "64.00 GiB"
    assert text(root, "memory.ratio_text") == f"{(131072 // 32) ** 2:,}"
    side = float(root.locator("rect.os-block").get_attribute("width"))
    assert side == 1.5  # 150 * 32 / 131072 is less: drawn as a visible dot


def test_reset_restores_the_block(book_pages):
    root = book_pages("online-softmax").widget("online-softmax")
    params = params_of(root)
    plus(root).click()
    button(root, "query", '"小猫"').click()
    root.locator("[data-action=reset]").click()
    view = pycore_view("online-softmax", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert current_frame(root) == 0
