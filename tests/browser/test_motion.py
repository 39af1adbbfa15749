"""Motion only where it explains: a figure's marks ease into a new view (160 ms), but inputs
that come faster than that (a drag, quick clicks) are followed directly, so the page does not
render frames of an easing the reader has already moved past while the next answer waits."""
from tests.browser.harness import assert_drawn, pycore_view

STILL = "(root) => !('moving' in root.dataset)"
EASING = """(root) => getComputedStyle(root.querySelector('.fig .cell, .fig .mark'))
                        .transitionProperty"""


def test_quick_inputs_are_followed_without_easing_and_a_pause_brings_it_back(book_pages):
    page = book_pages("attention")
    page.page.emulate_media(reduced_motion="no-preference")  # the tests' contexts prefer less
    try:
        quick_inputs_and_a_pause(page)
    finally:
        page.page.emulate_media(reduced_motion="reduce")


def quick_inputs_and_a_pause(page):
    root = page.widget("attention")
    slider = root.locator("[data-control=scale]")
    page.page.wait_for_function(STILL, arg=root.element_handle(), timeout=5_000)  # earlier tests
    assert root.evaluate(EASING) == "all" and root.get_attribute("data-moving") is None
    # two inputs in a row, as a drag sends them; read at once (the state lasts 160 ms)
    moving, easing = root.evaluate("""(root) => {
        const s = root.querySelector('[data-control=scale]');
        const move = (v) => { s.value = v; s.dispatchEvent(new Event('input', {bubbles: true})); };
        const mark = root.querySelector('.fig .cell, .fig .mark');
        move('2');
        move('3');
        return [root.dataset.moving, getComputedStyle(mark).transitionProperty]; }""")
    assert (moving, easing) == ("", "none")
    page.page.wait_for_function(STILL, arg=root.element_handle(), timeout=5_000)
    assert root.evaluate(EASING) == "all"
    slider.dispatch_event("input")  # settles: the page shows pycore's view of the last value
    assert_drawn(root, pycore_view("attention", scale=float(slider.input_value())))
    # one input after a pause (longer than the easing) eases as before
    page.page.wait_for_timeout(300)
    assert root.evaluate("""(root) => {
        const s = root.querySelector('[data-control=scale]');
        s.value = '1.5';
        s.dispatchEvent(new Event('input', {bubbles: true}));
        return 'moving' in root.dataset; }""") is False
