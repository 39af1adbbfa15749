"""▶ 播放 beside every stepper (templates/widgets/_controls.html play_button, controls.js wirePlay):
it steps the widget to its last step one view at a time, a second press pauses it, and any
other input to the widget (a step button's press) pauses it too."""
import pytest

from tests.browser.harness import assert_shows, params_of, pycore_view, updates

PLAY_MS = 800  # controls.js PLAY_MS: the pace of one step

# widget -> (its stepped parameter, how many steps before the end play starts from; None:
# from its block's step). BPE's 500 merges start 3 from the end: the whole run takes minutes.
STEPPERS = {"cross-attention": ("step", None), "kv-cache": ("step", None),
            "encoder-layer": ("step", None), "online-softmax": ("step", None), "bpe": ("k", 3)}

# widget -> a slider moved to its smallest value before the tests: online-softmax's tiles of
# one key give 9 steps. Its 3 tiles of three end a play two views after it starts, which on a
# loaded machine can come before a press meant to pause it.
SMALLEST_FIRST = {"online-softmax": "tile"}
# The pause tests start a widget stepped back from its end (BPE) this many steps from the end:
# a press meant to pause must land while it still plays, several play intervals later on a
# loaded machine.
PAUSE_BACK = 12

PLAYING = "(b) => 'playing' in b.dataset"
STOPPED = "(b) => !('playing' in b.dataset)"
# the widget's counter of drawn views, once more than n views were drawn
DRAWN_MORE = "([root, n]) => Number(root.dataset.updates) > n"
# waits, frame after frame, for `ms` to pass in the page (the play timer's own clock)
FRAMES_FOR = """(ms) => new Promise((done) => {
    const end = performance.now() + ms;
    const tick = () => (performance.now() >= end ? done() : requestAnimationFrame(tick));
    requestAnimationFrame(tick); })"""


def shown_step(root, key):
    return int(root.locator(f'[data-bind="{key}"]').first.text_content())


def play_of(root):
    return root.locator(".ctl-play")


def wait(root, condition, arg, timeout=60_000):
    root.page.wait_for_function(condition, arg=arg, timeout=timeout)


def still_after_intervals(root, key):
    """The step shown and the views drawn do not change across a few play intervals."""
    step, drawn = shown_step(root, key), updates(root)
    root.page.evaluate(FRAMES_FOR, 3 * PLAY_MS)
    assert (shown_step(root, key), updates(root)) == (step, drawn)
    return step


def params_now(root, name):
    """The block's parameters, with the slider moved first at the value it shows."""
    params = params_of(root)
    if name in SMALLEST_FIRST:
        control = SMALLEST_FIRST[name]
        params[control] = int(root.locator(f"[data-control={control}][data-kind=range]").input_value())
    return params


def start(book_pages, name, back=None):
    """The widget, reset, at the step its play test starts from (`back` steps from the end,
    for a widget stepped back from its end)."""
    root = book_pages(name).widget(name)
    key, from_end = STEPPERS[name]
    back = from_end and (back or from_end)
    if name in SMALLEST_FIRST:
        before = updates(root)
        root.locator(f"[data-control={SMALLEST_FIRST[name]}][data-kind=range]").focus()
        root.page.keyboard.press("Home")
        wait(root, DRAWN_MORE, [root.element_handle(), before])
    if back:
        root.locator(f"[data-control={key}][data-kind=stepper]").focus()
        root.page.keyboard.press("End")
        for _ in range(back):
            root.page.keyboard.press("ArrowLeft")
    return root, key


@pytest.mark.parametrize("name", STEPPERS)
def test_play_steps_to_the_last_step_one_view_each(book_pages, name):
    root, key = start(book_pages, name)
    play = play_of(root)
    first, last = shown_step(root, key), int(play.get_attribute("data-max"))
    assert play.inner_text() == "▶ 播放" and first < last
    before = updates(root)
    play.click()
    wait(root, STOPPED, play.element_handle())  # it stops by itself at the end
    assert shown_step(root, key) == last and play.inner_text() == "▶ 播放"
    assert updates(root) - before == last - first  # one view per step: none skipped or queued
    assert_shows(root, pycore_view(name, **{**params_now(root, name), key: last}))
    # a play at the last step starts again from the first, one view per step: however many
    # steps it made before the pause landed (a loaded machine lets it make several), the step
    # shown is the first plus the views drawn since, less one
    at_end = before + last - first
    play.click()
    wait(root, DRAWN_MORE, [root.element_handle(), at_end])
    play.click()  # pause
    step = still_after_intervals(root, key)
    assert step == int(play.get_attribute("data-min")) + updates(root) - at_end - 1 < last


@pytest.mark.parametrize("name", STEPPERS)
def test_a_step_press_and_pause_stop_the_advance(book_pages, name):
    root, key = start(book_pages, name, back=PAUSE_BACK)
    play = play_of(root)
    # a press on the step back button while it plays pauses it, and steps back
    before = updates(root)
    play.click()
    assert play.inner_text() == "❚❚ 暂停"
    wait(root, DRAWN_MORE, [root.element_handle(), before])
    root.locator('.ctl-stepper [data-step="-1"], .ctl-stepper [data-action=prev]').click()
    assert play.get_attribute("data-playing") is None and play.inner_text() == "▶ 播放"
    step = still_after_intervals(root, key)
    assert_shows(root, pycore_view(name, **{**params_now(root, name), key: step}))
    # ❚❚ 暂停 stops it
    before = updates(root)
    play.click()
    wait(root, DRAWN_MORE, [root.element_handle(), before])
    play.click()
    assert play.inner_text() == "▶ 播放"
    step = still_after_intervals(root, key)
    assert_shows(root, pycore_view(name, **{**params_now(root, name), key: step}))


def test_reduced_motion_plays_without_easing(book_pages):
    page = book_pages("cross-attention")
    try:
        root, key = start(book_pages, "cross-attention")
        play = play_of(root)
        durations = """(root) => [...root.querySelectorAll('.fig .mark, .fig .cell')]
            .map((e) => getComputedStyle(e).transitionDuration)"""
        page.page.emulate_media(reduced_motion="no-preference")
        assert set(root.evaluate(durations)) == {"0.16s"}  # the easing a reader sees by default
        page.page.emulate_media(reduced_motion="reduce")
        durations = root.evaluate(durations)
        assert durations and set(durations) == {"0s"}
        before = updates(root)
        play.click()
        wait(root, DRAWN_MORE, [root.element_handle(), before + 1])  # it steps all the same
        play.click()
        assert shown_step(root, key) >= 3
    finally:
        page.page.emulate_media(reduced_motion="reduce")  # as the tests' contexts prefer
