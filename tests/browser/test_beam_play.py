"""▶ 播放 beside beam-search's 最多生成 slider (pycore/widgets/beam_search/template.html, the
common play_button and controls.js wirePlay): from the block's end it starts again at the fewest
words and lengthens the generation one word per view up to the most, each view pycore's."""
from tests.browser.harness import assert_shows, params_of, pycore_view, updates

STOPPED = "(b) => !('playing' in b.dataset)"


def test_play_lengthens_the_beam_one_word_per_view(book_pages):
    root = book_pages("beam-search").widget("beam-search")
    params = params_of(root)
    play = root.locator(".ctl-play[data-play=max_new]")
    lo, hi = int(play.get_attribute("data-min")), int(play.get_attribute("data-max"))
    assert params["max_new"] == hi and lo < hi and play.inner_text() == "▶ 播放"
    before = updates(root)
    play.click()  # at the end: it starts again from the fewest words
    root.page.wait_for_function(STOPPED, arg=play.element_handle(), timeout=60_000)
    assert updates(root) - before == hi - lo + 1  # the first step back to lo, then one per word
    shown = int(root.locator('[data-bind="max_new"]').text_content())
    assert shown == hi and play.inner_text() == "▶ 播放"
    assert_shows(root, pycore_view("beam-search", **{**params, "max_new": hi}))
    # a slider move while it plays pauses it
    play.click()
    root.page.wait_for_function("([r, n]) => Number(r.dataset.updates) > n",
                                arg=[root.element_handle(), updates(root)], timeout=60_000)
    root.locator("[data-control=width]").fill("2")
    assert play.get_attribute("data-playing") is None
    step = int(root.locator('[data-bind="max_new"]').text_content())
    assert_shows(root, pycore_view("beam-search", **{**params, "width": 2, "max_new": step}))
    root.locator("[data-action=reset]").click()
