"""Browser tests of the permutation widget (pycore/widgets/permutation.py,
assets/widgets/permutation.js), and the widget's seeded shuffle."""
from pycore.widgets.permutation import seeded_order
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

HREF = "06-positional-encoding.html"
TOKENS = ["小猫", "没有", "过", "马路", "因为", "它", "太", "累", "了"]


# --- the seeded shuffle (pure Python) --------------------------------------------------

def test_seeded_order_is_a_reproducible_permutation():
    assert seeded_order(0) == list(range(9))
    orders = [seeded_order(s) for s in range(1, 200)]
    assert all(sorted(o) == list(range(9)) for o in orders)
    assert all(o != list(range(9)) for o in orders)
    assert len({tuple(o) for o in orders}) == len(orders)  # different seeds, different orders
    assert seeded_order(7) == seeded_order(7)


def test_seeded_order_by_hand_for_seed_1():
    # the generator written out: warm up 4 steps, then Fisher-Yates from the end
    state, order = 1, list(range(9))
    for _ in range(4):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
    for i in range(8, 0, -1):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
        j = (state // 65536) % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert seeded_order(1) == order


# --- the widget ------------------------------------------------------------------------

def shown_max_diff(root):
    return float(root.locator('[data-sci="max_abs_diff"]').inner_text())


def shown_order(root):
    return root.locator(".perm-chip").all_inner_texts()


def picture_shows_the_move(root, view):
    """Each token's line ends at the row of its new slot (row s at y = 40 + 22 s + 11); without
    positions every new row has the colours of the token's old row, the same vector moved,
    and no line is dashed; with them the dashed lines are the rows whose output changed."""
    before, after, ends, dashed = root.evaluate("""root => {
        const classes = (sel) =>
            [...root.querySelectorAll(sel)].map(c => c.getAttribute('data-div'));
        const links = [...root.querySelectorAll('.perm-heat .link')];
        return [classes('.perm-heat > rect.cell'), classes('.perm-heat > g rect.cell'),
                links.map(l => l.getAttribute('d').split(' ').pop()),
                links.map(l => l.hasAttribute('data-changed'))];
    }""")
    rows = lambda cls, r: cls[6 * r:6 * r + 6]  # noqa: E731
    for slot, token in enumerate(view["perm"]):
        assert float(ends[token].split(",")[1]) == 40 + 22 * slot + 11  # TOP + CELL s + CELL / 2
        if not view["positions"]:
            assert rows(after, slot) == rows(before, token)
    changed = [d > 1e-9 for d in view["diff_per_slot"]]
    assert [dashed[token] for token in view["perm"]] == changed
    assert any(changed) == view["positions"]


def check(root, **params):
    """Every number equals pycore's; the e-notation difference is ~0 without positions and
    clearly positive with them; the picture is pycore's and shows the move. Returns the view."""
    view = pycore_view("permutation", **params)
    assert_shows(root, view, min_count=3 * 54 + 9 + 9)
    assert_drawn(root, view, min_count=108 * 3 + 9 * 3)
    picture_shows_the_move(root, view)
    assert shown_order(root) == view["tokens"]
    diff = shown_max_diff(root)
    if view["positions"]:
        assert diff > 0.01 and abs(diff - view["max_abs_diff"]) <= 0.006 * view["max_abs_diff"]
    else:
        assert diff <= 1e-12 and view["max_abs_diff"] <= 1e-12
    return view


def test_permutation_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + HREF)
    root = page.locator('[data-widget="permutation"]').first
    assert root.get_attribute("data-state") == "static"
    check(root, **params_of(root))
    page.close()


def test_shuffle_button_adds_one_to_the_seed(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    check(root, seed=seed)
    for n in (1, 2, 3):
        before = updates(root)
        root.locator("[data-action=shuffle]").click()
        assert updates(root) == before + 1
        view = check(root, seed=seed + n)
        assert root.locator('[data-bind="seed"]').inner_text() == str(seed + n)
        assert view["perm"] == seeded_order(seed + n)


def test_positions_switch_makes_the_order_matter(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    switch = root.locator("[data-control=positions]")
    switch.click()
    assert switch.get_attribute("aria-checked") == "true"
    view = check(root, seed=seed, positions=True)
    assert view["max_abs_diff"] > 0.01
    root.locator("[data-action=shuffle]").click()
    check(root, seed=seed + 1, positions=True)
    switch.focus()
    root.page.keyboard.press("Space")  # off again, by keyboard
    assert switch.get_attribute("aria-checked") == "false"
    check(root, seed=seed + 1, positions=False)


def test_reverse_and_rotate_buttons(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    start = seeded_order(seed)
    root.locator("[data-action=reverse]").click()
    check(root, seed=seed, perm=start[::-1])
    root.locator("[data-control=positions]").click()
    root.locator("[data-action=rotate]").click()
    rotated = start[::-1][1:] + start[::-1][:1]
    view = check(root, seed=seed, perm=rotated, positions=True)
    assert shown_order(root) == [TOKENS[i] for i in rotated] == view["tokens"]


def test_arrow_keys_move_the_focused_word(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    order = seeded_order(seed)
    first = root.locator('.perm-chip[data-slot="0"]')
    first.focus()
    root.page.keyboard.press("ArrowRight")
    root.page.keyboard.press("ArrowRight")
    moved = order[1:3] + order[:1] + order[3:]
    check(root, seed=seed, perm=moved)
    # the focus followed the word to slot 2
    assert root.evaluate("root => document.activeElement.dataset.slot") == "2"
    root.page.keyboard.press("ArrowLeft")
    check(root, seed=seed, perm=order[1:2] + order[:1] + order[2:])


def test_dragging_a_word_onto_another_slot(book_pages):
    root = book_pages("permutation").widget("permutation")
    seed = params_of(root)["seed"]
    order = seeded_order(seed)
    src = root.locator('.perm-chip[data-slot="0"]').bounding_box()
    dst = root.locator('.perm-chip[data-slot="4"]').bounding_box()
    page = root.page
    before = updates(root)
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=6)
    page.mouse.up()
    assert updates(root) == before + 1
    check(root, seed=seed, perm=order[1:5] + order[:1] + order[5:])


def test_reset_restores_the_block(book_pages):
    root = book_pages("permutation").widget("permutation")
    params = params_of(root)
    root.locator("[data-action=shuffle]").click()
    root.locator("[data-control=positions]").click()
    root.locator("[data-action=reverse]").click()
    root.locator("[data-action=reset]").click()
    check(root, **params)
    assert root.locator("[data-control=positions]").get_attribute("aria-checked") == \
        str(params["positions"]).lower()


def test_pointing_at_a_word_lights_its_rows_on_both_sides(book_pages):
    root = book_pages("permutation").widget("permutation")
    view = check(root, **params_of(root))
    slot = view["tokens"].index("马路")
    root.locator(f'.perm-chip[data-slot="{slot}"]').hover()
    lit = root.locator(".perm-heat .linked").evaluate_all(
        "els => els.map(e => e.classList.contains('row-label') ? e.textContent : e.tagName)")
    assert lit.count("马路") == 2 and lit.count("path") == 1  # both row labels, its line
    assert lit.count("rect") == 12  # its six cells on each side
    cell = root.locator(".perm-heat > g rect.cell").nth(6 * slot + 1)
    cell.hover()
    assert root.locator(".perm-fig [data-readout]").inner_text() == \
        f"马路 → 有生命：{view['shuffled'][slot][1]:.4f}"
