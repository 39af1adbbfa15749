"""Browser tests of the train-live widget (pycore/widgets/train_live/:
view, widget.js): a model trained in the page's worker gives the losses CPython
gives for the same seed and steps; two tabs of one browser, served by one worker, each train
a run of their own.

Tolerance: Pyodide's NumPy has no BLAS, so its matrix products add in another order than
CPython's OpenBLAS; the two runs drift apart by rounding only. After LOSS_STEPS steps the
losses agree to LOSS_TOL (measured: 4e-10 after 43 steps, the 9 decimals the page shows)."""
import time

import numpy as np
import pytest

from pycore.gpt import live
from tests.browser.conftest import BookPage
from tests.browser.harness import assert_drawn, assert_shows, parts_came, pycore_view
from tests.browser.settle import settle

PAGE = "13b-trained-model.html"
LOSS_TOL = 1e-6
LOSS_STEPS = 40


def cpython_losses(seed, n):
    """The first n training losses of the live model with this seed, trained here."""
    state = live.init(seed)
    report = live.step(state, n, report=False)
    return np.array(report["losses"]), np.array(report["answer_losses"])


def step_shown(root):
    return int(root.locator('[data-bind="step"]').text_content())


def wait_for_steps(root, n, or_stopped=False):
    """Until the widget shows step n or later (or, with or_stopped, its run button is no longer
    pressed: a loop that ended by itself)."""
    root.page.wait_for_function(
        """([root, n, orStopped]) => {
            const step = Number(root.querySelector('[data-bind="step"]').textContent);
            const stopped = root.querySelector('[data-action=run]').getAttribute('aria-pressed') !== 'true';
            return step >= n || (orStopped && stopped);
        }""", arg=[root.element_handle(), n, or_stopped], timeout=60_000)


def recent(root, name):
    """The last 10 steps' numbers in the 数值 fold (steps, losses, answer_losses)."""
    return [float(t) for t in root.locator(f'[data-bind^="recent.{name}."]').all_text_contents()]


def test_static_page_shows_step_zero(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="train-live"]').first
    assert_shows(root, pycore_view("train-live"), min_count=20)
    assert step_shown(root) == 0
    page.close()


def test_single_steps_give_cpython_losses(book_pages):
    root = book_pages.open(PAGE).widget("train-live")
    assert step_shown(root) == 0
    for _ in range(3):
        root.locator("[data-action=step]").click()
    assert step_shown(root) == 3
    losses, answers = cpython_losses(0, 3)
    shown = recent(root, "losses")[-3:]
    assert np.allclose(shown, losses, rtol=0, atol=LOSS_TOL), (shown, losses)
    assert np.allclose(recent(root, "answer_losses")[-3:], answers, rtol=0, atol=LOSS_TOL)
    assert recent(root, "steps")[-3:] == [1, 2, 3]
    view = pycore_view("train-live", steps=3)
    assert_drawn(root, view, min_count=100)
    # reset: back to step 0, the same run again from its seed
    root.locator("[data-action=reset]").click()
    assert step_shown(root) == 0
    root.locator("[data-action=step]").click()
    assert abs(recent(root, "losses")[-1] - losses[0]) <= LOSS_TOL


def test_training_runs_pauses_and_matches_cpython(book_pages):
    page = book_pages.open(PAGE)
    root = page.widget("train-live")
    run = root.locator("[data-action=run]")
    run.click()
    assert run.get_attribute("aria-pressed") == "true" and run.text_content() == "暂停"
    wait_for_steps(root, LOSS_STEPS)
    run.click()  # pause
    assert run.get_attribute("aria-pressed") == "false"
    paused = step_shown(root)
    assert paused >= LOSS_STEPS
    # the run is the worker's (the page's thread only draws it, so it stays responsive while
    # it trains: benchmarks/train_frames.py measures its frames)
    me, runs = worker_runs(page)
    assert [me, 0, paused] in runs, runs
    time.sleep(0.5)
    assert step_shown(root) == paused  # paused: no more steps
    assert float(root.locator("[data-rate]").text_content()) > 0
    losses, answers = cpython_losses(0, paused)
    assert recent(root, "steps") == list(range(paused - 9, paused + 1))
    diff = np.abs(np.array(recent(root, "losses")) - losses[-10:]).max()
    print(f"after {paused} steps the page's losses differ from CPython's by {diff:.3g}")
    assert diff <= LOSS_TOL, f"after {paused} steps the page's losses differ by {diff:g}"
    assert np.allclose(recent(root, "answer_losses"), answers[-10:], rtol=0, atol=LOSS_TOL)
    # the held-out evaluation at step 25 (200 sentences): the accuracy CPython measures
    view = pycore_view("train-live", steps=paused)
    row = root.locator('[data-bind="evaluation_rows.1.accuracy"]').text_content()
    assert row == view["evaluation_rows"][1]["accuracy"] and row.endswith("%")
    # and the head's map at that step, drawn from the weights trained in the page
    heat = [float(x) for x in
            root.locator(".column-heat rect.cell").evaluate_all(
                "els => els.map(e => e.getAttribute('data-seq'))")]
    assert heat == [float(c) for c in view["heat"]["c"]]
    # the single step button continues the same run
    root.locator("[data-action=step]").click()
    assert step_shown(root) == paused + 1


def test_a_new_seed_is_a_new_run(book_pages):
    root = book_pages.open(PAGE).widget("train-live")
    root.locator("[data-action=step]").click()
    root.locator("[data-control=seed] [data-step='1']").click()
    assert root.locator('[data-bind="seed"]').text_content() == "1"
    assert step_shown(root) == 0
    root.locator("[data-action=step]").click()
    root.locator("[data-action=step]").click()
    losses, _ = cpython_losses(1, 2)
    assert np.allclose(recent(root, "losses")[-2:], losses, rtol=0, atol=LOSS_TOL)
    assert not np.allclose(losses, cpython_losses(0, 2)[0])  # another run, not seed 0's


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """The pictures' grids, the one part with a key, come once: what reads the run comes at
    every call and carries no key (pycore/view_parts.py), so a move brings no keyed part."""
    root = book_pages.open(PAGE).widget("train-live")
    head = root.locator("""[data-control=head] [data-value='"0-2"']""")
    assert parts_came(root, head.click) == [[]]
    assert root.locator('[data-bind="head_name"]').text_content() == "L0·头2"
    root.locator("[data-action=reset]").click()


def test_choosing_a_head_and_a_sentence_redraws_the_map(book_pages):
    root = book_pages.open(PAGE).widget("train-live")
    for _ in range(2):
        root.locator("[data-action=step]").click()
    root.locator("""[data-control=head] [data-value='"0-2"']""").click()
    root.locator("""[data-control=adjective] [data-value='"宽"']""").click()
    view = pycore_view("train-live", steps=2, head="0-2", adjective="宽")
    assert_shows(root, view)
    assert_drawn(root, view, min_count=100)
    assert root.locator('[data-bind="answer"]').text_content() == "马路"


# --- two tabs of one browser, one worker --------------------------------------------------------

RUNS = """async () => {
    const root = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
    const { bootRuntime } = await import(new URL('assets/runtime.js', root).href);
    return (await bootRuntime()).runs();
}"""


def worker_runs(tab):
    """(this tab's number in the worker, sorted [page, seed, step] of every run it keeps)."""
    answer = tab.page.evaluate(RUNS)
    return answer["page"], sorted(answer["runs"])


@pytest.fixture(scope="module")
def tabs(browser, server):
    """Two tabs of the chapter in one browser (one context): one shared worker serves both."""
    context = browser.new_context()
    yield [BookPage(context, server, PAGE) for _ in range(2)]
    context.close()


def test_another_tab_neither_restarts_nor_takes_this_tab_s_run(tabs):
    a, b = tabs
    root_a, root_b = a.widget("train-live"), b.widget("train-live")
    for _ in range(4):
        root_a.locator("[data-action=step]").click()
    root_b.locator("[data-action=step]").click()  # the same seed, three steps behind A
    page_a, runs = worker_runs(a)
    page_b, _ = worker_runs(b)
    assert page_a != page_b
    assert runs == sorted([[page_a, 0, 4], [page_b, 0, 1]])  # A's run is still at step 4
    root_a.locator("[data-action=step]").click()
    assert step_shown(root_a) == 5
    assert worker_runs(a)[1] == sorted([[page_a, 0, 5], [page_b, 0, 1]])


def test_start_pause_start_leaves_one_loop(tabs):
    root = tabs[0].widget("train-live")
    run = root.locator("[data-action=run]")
    # three clicks within one task: the first loop's view is still being computed when the
    # second loop starts; the first must end quietly, not stop the second when it ends
    root.evaluate("""r => { const run = r.querySelector('[data-action=run]');
                            run.click(); run.click(); run.click(); }""")
    wait_for_steps(root, 30, or_stopped=True)
    assert run.get_attribute("aria-pressed") == "true", f"stopped by itself at {step_shown(root)}"
    assert step_shown(root) >= 30
    run.click()  # pause: no loop goes on
    paused = step_shown(root)
    time.sleep(0.5)
    assert step_shown(root) == paused and run.get_attribute("aria-pressed") == "false"


def test_a_hidden_tab_pauses_its_training(tabs):
    root = tabs[0].widget("train-live")
    run = root.locator("[data-action=run]")
    run.click()
    assert run.get_attribute("aria-pressed") == "true"
    # the reader goes to another tab: the page is hidden (as the browser says it)
    root.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {value: true, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    try:
        settle(tabs[0].page)  # the view asked for before is still drawn
        assert run.get_attribute("aria-pressed") == "false"
        paused = step_shown(root)
        time.sleep(0.5)
        assert step_shown(root) == paused
    finally:
        root.evaluate("() => delete document.hidden")


def test_a_tab_that_closes_takes_its_runs_with_it(tabs):
    a, b = tabs
    page_b, _ = worker_runs(b)
    b.page.close()
    for _ in range(50):  # the worker hears the tab's port close
        page_a, runs = worker_runs(a)
        if all(page != page_b for page, _, _ in runs):
            break
        time.sleep(0.1)
    assert [page for page, _, _ in runs] == [page_a], runs
