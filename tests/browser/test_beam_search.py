"""Browser tests of the beam-search widget (pycore/widgets/beam_search/:
view, widget.js)."""
from pycore import beam as B
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

LOOP = "累 了 ， 它 太 累 了 ， 它 太 累 了"


def slider(root, name):
    return root.locator(f"[data-control={name}]")


def shown(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def visible_nodes(root):
    """(step, rank) of every node the lattice shows, from the page alone: a node is drawn
    unless data-hidden; its place is its slot (row-major, 5 per step)."""
    hidden = root.locator(".beam-lattice .node:not(.start):not(.end)").evaluate_all(
        "els => els.map(e => e.hasAttribute('data-hidden'))")
    assert len(hidden) == 12 * 5
    return [(k // 5 + 1, k % 5) for k, h in enumerate(hidden) if not h]


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "09-sampling.html")
    root = page.locator('[data-widget="beam-search"]').first
    view = pycore_view("beam-search", **params_of(root))
    assert_shows(root, view, min_count=60)
    assert_drawn(root, view, min_count=60 * 5)
    assert shown(root, "best.sentence") == LOOP  # chapter 9
    assert shown(root, "best.score") == "-0.544"
    # the summary over 1000 samples is printed once, at build time (chapter 9's figures)
    fold = root.locator(".numbers").text_content()
    assert "14.7% 出现重复的三元组" in fold and "78.9%" in fold
    page.close()


def test_width_slider_and_keys(book_pages):
    root = book_pages("beam-search").widget("beam-search")
    before = updates(root)
    slider(root, "width").fill("1")
    assert updates(root) > before
    view = pycore_view("beam-search", width=1)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert visible_nodes(root) == [(s, 0) for s in range(1, 13)]  # greedy: one column
    assert root.locator(".beam-lattice").get_attribute("viewBox") == view["lattice"]["box"]
    assert shown(root, "best.sentence") == " ".join(B.greedy(12)["tokens"]) == LOOP
    slider(root, "width").focus()
    root.page.keyboard.press("End")  # width 5
    view = pycore_view("beam-search", width=5)
    assert_shows(root, view)
    assert_drawn(root, view)
    run = B.beam_search(5, 12, 1.0)  # the page's nodes are the beams of each step
    assert visible_nodes(root) == [(st["step"], k) for st in run["steps"]
                                   for k in range(len(st["beams"]))]
    tokens = root.locator(".beam-lattice .node:not(.start):not(.end) .tok").all_text_contents()
    for st in run["steps"]:
        for k, hyp in enumerate(st["beams"]):
            assert tokens[(st["step"] - 1) * 5 + k] == hyp["tokens"][-1]


def test_alpha_zero_prefers_the_short_sentence(book_pages):
    root = book_pages("beam-search").widget("beam-search")
    slider(root, "alpha").fill("0")
    view = pycore_view("beam-search", alpha=0.0)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert shown(root, "best.sentence") == "累 了 。"
    assert shown(root, "best.score") == "-1.953"  # ln 0.480 + ln 0.736 + ln 0.401
    # the picture: the answer is the sentence that ended at step 3, drawn on its path
    ends = root.locator(".beam-lattice .node.end")
    assert ends.nth(2).get_attribute("data-best") == ""
    assert root.locator(".beam-lattice .node.end[data-best]").count() == 1
    assert root.locator(".beam-ranking .bar").first.get_attribute("data-ended") == ""
    slider(root, "alpha").focus()
    for _ in range(5):
        root.page.keyboard.press("ArrowRight")  # alpha = 0.5: still 累 了 。
    assert shown(root, "alpha") == "0.5"
    assert_shows(root, pycore_view("beam-search", alpha=0.5))
    assert shown(root, "best.score") == "-1.128"
    # back to 1: the loop, with its repeated trigrams marked on the path and in the chips
    slider(root, "alpha").fill("1")
    assert shown(root, "best.sentence") == LOOP and shown(root, "best.repeats") == "5"
    assert root.locator(".beam-lattice .node[data-rep]").count() == 5
    assert root.locator(".key-figure .chip[data-rep]").count() == 5


def test_the_ranking_bars_are_the_scores(book_pages):
    """Every bar is as long as its score on the axis from the lowest shown score to 0, the
    rows are in the order of their scores, and the first is the answer."""
    root = book_pages("beam-search").widget("beam-search")
    for alpha in ("1", "0"):
        slider(root, "alpha").fill(alpha)
        view = pycore_view("beam-search", alpha=float(alpha))
        assert_drawn(root, view)
        bars = root.locator(".beam-ranking .bar:not([data-hidden])")
        scores = [float(t) for t in bars.locator(".value").all_text_contents()]
        assert scores == sorted(scores, reverse=True)
        assert scores[0] == float(shown(root, "best.score"))
        widths = bars.locator(".mark").evaluate_all(
            "els => els.map(e => Number(e.getAttribute('width')))")
        lo = float(shown(root, "ranking.lo"))
        zero = view["ranking"]["zero"]
        plot = zero - view["ranking"]["left"]
        for s, w in zip(scores, widths):
            assert abs(w - s / lo * plot) < 0.6  # scores shown to 3 decimals
        assert widths.index(min(widths)) == 0  # the best is the shortest bar


def test_max_new_and_the_sampled_sentences(book_pages):
    root = book_pages("beam-search").widget("beam-search")
    slider(root, "max_new").fill("5")
    view = pycore_view("beam-search", max_new=5)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert {s for s, _ in visible_nodes(root)} == set(range(1, 6))
    assert shown(root, "best.sentence") == "累 了 ， 它 太"
    slider(root, "max_new").fill("12")
    button = root.locator("[data-action=resample]")
    for seed in (4, 8):
        button.click()
        view = pycore_view("beam-search", seed=seed)
        assert_shows(root, view)
        for k in range(4):  # each sentence is pycore.beam's own draw, computed here
            run = B.sample_sentence(seed + k)
            assert shown(root, f"samples.{k}.chips.0.t") == run["tokens"][0]
            chips = root.locator(".beam-samples li").nth(k).locator(".chip:not([hidden])")
            assert chips.all_text_contents() == run["tokens"]
            assert shown(root, f"samples.{k}.repeats") == str(run["repeated_trigrams"])
    button.focus()
    root.page.keyboard.press("Enter")
    assert shown(root, "seed") == "12"
    slider(root, "temperature").fill("-0.3")  # 10^-0.3: T = 0.50
    assert shown(root, "temperature") == "0.50"
    view = pycore_view("beam-search", seed=12, temperature=0.5)
    assert_shows(root, view)
    assert_drawn(root, view)  # the lattice stays as drawn (pycore sent only the samples)
    dists = B.step_distributions(0.5)
    for k in range(4):
        run = B.sample_sentence(12 + k, dists=dists)
        chips = root.locator(".beam-samples li").nth(k).locator(".chip:not([hidden])")
        assert chips.all_text_contents() == run["tokens"]


def test_reset_restores_the_block(book_pages):
    root = book_pages("beam-search").widget("beam-search")
    params = params_of(root)
    slider(root, "width").fill("5")
    slider(root, "alpha").fill("0.3")
    root.locator("[data-action=resample]").click()
    root.locator("[data-action=reset]").click()
    view = pycore_view("beam-search", **params)
    assert_shows(root, view)
    assert_drawn(root, view)
    assert slider(root, "width").input_value() == "3"
    assert shown(root, "seed") == "0"


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """The seed's button brings the samples, the beam width the beam: each with the controls'
    values (`settings`), never the other."""
    root = book_pages("beam-search").widget("beam-search")
    assert parts_came(root, lambda: root.locator("[data-action=resample]").click()) == \
        [["samples", "settings"]]
    assert parts_came(root, lambda: slider(root, "width").fill("2")) == [["beam", "settings"]]
    assert_shows(root, pycore_view("beam-search", seed=4, width=2))
    root.locator("[data-action=reset]").click()
