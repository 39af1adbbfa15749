"""Browser tests of the code-lab widget (pycore/widgets/code_lab/: view, widget.js):
the reader's code runs in Pyodide and prints what the same code prints in CPython here. A run
first shows that it is running, then runs after the next paint: the tests wait for it."""
import contextlib
import io
from pathlib import Path
from urllib.parse import unquote

from pycore import block
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

PAGE = "15-code-lab.html"
SOURCE = (Path(__file__).resolve().parents[2] / "pycore" / "block.py").read_text(encoding="utf-8")
SIGNATURE = "batch=2, length=32, d_model=128, n_heads=8"  # lab_report's defaults in SOURCE


def run_here(code):
    """Run code as a script in this CPython: (stdout, [(name, shape)] of its lab_report())."""
    namespace, out = {"__name__": "__main__"}, io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, namespace)
    trace, _ = namespace["lab_report"]()
    return out.getvalue(), [(name, str(shape)) for name, shape in trace]


def finish(root, before):
    """Wait until the widget has updated since `before` and is no longer busy."""
    root.page.wait_for_function(
        "([root, n]) => Number(root.dataset.updates || 0) > n && !root.hasAttribute('aria-busy')",
        arg=[root.element_handle(), before])


def run(root, action):
    """Click a button (or press keys in the box) and wait for the run it starts."""
    before = updates(root)
    action()
    finish(root, before)
    assert updates(root) == before + 1


def shown_shapes(root):
    """The list of steps: (name, shape) of each."""
    return [tuple(step) for step in root.locator('[data-part="shapes"] li').evaluate_all(
        "lis => lis.map(li => [li.querySelector('.step-name').textContent, "
        "li.querySelector('.step-shape').textContent])")]


def shown_stdout(root):
    return root.locator(".lab-stdout").text_content()


def test_code_lab_static_page_shows_the_code_and_its_output(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="code-lab"]').first
    box = root.locator("textarea")
    assert box.input_value() == SOURCE
    assert box.get_attribute("spellcheck") == "false" and box.get_attribute("aria-label")
    view = pycore_view("code-lab", **params_of(root))
    assert_shows(root, view, min_count=3 + 36)  # stdout, error, output shape, 6 x 6 weights
    stdout, trace = run_here(SOURCE)
    assert shown_stdout(root) == stdout
    assert shown_shapes(root) == trace and trace[-1][1] == "(2, 32, 128)"
    assert root.locator(".lab-error").is_hidden()
    cells = root.locator('table[data-matrix="weights"] td')
    assert cells.count() == 36 and cells.first.get_attribute("class") == "s8"  # weight 1.00: the top class
    page.close()


def test_running_the_original_prints_the_shapes(book_pages):
    root = book_pages("code-lab").widget("code-lab")
    before = updates(root)
    # the click only marks the widget busy (the page paints that); the run follows
    right_after = root.evaluate("""root => {
        root.querySelector('[data-action=run]').click();
        return { busy: root.getAttribute('aria-busy'),
                 button: root.querySelector('[data-action=run]').textContent,
                 note: root.querySelector('[data-part=note]').textContent,
                 updates: Number(root.dataset.updates) };
    }""")
    assert right_after["busy"] == "true" and right_after["button"] == "运行中…"
    # the click returned before the run's result came (a click that ran the code would return
    # with the result shown)
    assert "正在运行" in right_after["note"] and right_after["updates"] == before
    finish(root, before)
    assert updates(root) == before + 1
    assert root.locator("[data-action=run]").inner_text() == "▶ 运行"
    assert root.locator('[data-part="note"]').inner_text() == "显示的是原始代码的运行结果"
    stdout, trace = run_here(SOURCE)
    assert shown_stdout(root) == stdout
    assert shown_shapes(root) == trace
    expected = block.lab_report(seed=0, causal=True)[0]
    assert [(n, str(s)) for n, s in expected] == trace
    assert root.locator('[data-bind="output_shape"]').inner_text() == "(2, 32, 128)"
    assert_shows(root, pycore_view("code-lab", **params_of(root)))


def test_clicks_while_a_run_is_pending_start_no_second_run(book_pages):
    root = book_pages("code-lab").widget("code-lab")
    before = updates(root)
    root.evaluate("""root => { const b = root.querySelector('[data-action=run]');
                               b.click(); b.click(); b.click(); }""")
    finish(root, before)
    root.page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
    assert updates(root) == before + 1


def test_edited_code_runs_with_new_shapes(book_pages):
    root = book_pages("code-lab").widget("code-lab")
    box = root.locator("textarea")
    edited = SOURCE.replace(SIGNATURE, "batch=3, length=32, d_model=64, n_heads=4")
    assert edited != SOURCE
    box.fill(edited)
    run(root, root.locator("[data-action=run]").click)
    stdout, trace = run_here(edited)
    assert shown_stdout(root) == stdout
    assert shown_shapes(root) == trace
    assert ("Q split into heads", "(3, 4, 32, 16)") in trace
    assert root.locator('[data-bind="output_shape"]').inner_text() == "(3, 32, 64)"
    assert_shows(root, pycore_view("code-lab", **params_of(root), code=edited))
    # Ctrl+Enter in the box runs too: a longer sequence and a 10 x 10 corner of the weights
    edited = SOURCE.replace("causal=True, prefix=6", "causal=True, prefix=10") \
                   .replace(SIGNATURE, "batch=1, length=40, d_model=128, n_heads=8")
    box.fill(edited)
    run(root, lambda: box.press("Control+Enter"))
    stdout, trace = run_here(edited)
    assert shown_stdout(root) == stdout and shown_shapes(root) == trace
    assert root.locator('table[data-matrix="weights"] tbody tr').count() == 10
    assert_shows(root, pycore_view("code-lab", **params_of(root), code=edited), min_count=103)


def test_a_long_run_leaves_the_page_responsive(book_pages):
    """The reader's code runs in the runtime's worker: while it runs, the page keeps painting
    (a page running Python on its main thread paints no frame until the code is done), and the
    result replaces the old output when the run ends."""
    root = book_pages("code-lab").widget("code-lab")
    page = root.page
    slow = "import time\n_t = time.time()\nwhile time.time() - _t < 2.0:\n    pass\n\n" + SOURCE
    root.locator("[data-control=code]").fill(slow)
    before = updates(root)
    root.evaluate("root => root.querySelector('[data-action=run]').click()")  # no waiting
    # frames the page painted while the run went on (until the widget is no longer busy)
    frames = root.evaluate("""root => new Promise((resolve) => {
        let n = 0;
        const tick = () => {
            if (root.getAttribute('aria-busy') !== 'true') { resolve(n); return; }
            n++;
            requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
    })""")
    # a page running Python on its main thread paints no frame until the code is done; in the
    # worker, the two seconds of the loop leave room for many (a loaded machine paints fewer)
    assert frames >= 5, f"the page painted {frames} frames while the code ran"
    finish(root, before)
    assert updates(root) == before + 1
    assert root.locator('[data-part="note"]').inner_text() == "运行的是修改过的代码"
    stdout, trace = run_here(SOURCE)
    assert shown_stdout(root) == stdout and shown_shapes(root) == trace


def test_a_bug_shows_a_traceback_and_reset_restores(book_pages):
    root = book_pages("code-lab").widget("code-lab")
    box = root.locator("textarea")
    buggy = SOURCE.replace("x + attn)", "x + atn)")
    line = next(i for i, t in enumerate(buggy.splitlines(), 1) if "x + atn)" in t)
    box.fill(buggy)
    run(root, root.locator("[data-action=run]").click)
    error = root.locator(".lab-error")
    assert error.is_visible() and error.get_attribute("role") == "alert"
    message = error.inner_text()
    assert "NameError" in message and "atn" in message
    assert f"line {line}, in block_forward" in message
    assert root.get_attribute("data-state") == "live"
    assert root.locator('[data-bind="output_shape"]').inner_text() == "—"
    assert root.locator(".lab-heat").is_hidden()
    # the same traceback as CPython's here (Pyodide's Python 3.12 may add "Did you mean ...")
    view = pycore_view("code-lab", **params_of(root), code=buggy)
    assert message.startswith(view["error"].rstrip("\n"))
    assert_shows(root, {**view, "error": message}, min_count=3)
    assert "atn" not in unquote(root.page.url)  # the code stays out of the page's address
    run(root, root.locator("[data-action=restore]").click)  # 恢复原始代码
    assert box.input_value() == SOURCE
    assert error.is_hidden()
    assert shown_stdout(root) == run_here(SOURCE)[0]
    assert_shows(root, pycore_view("code-lab", **params_of(root)), min_count=3 + 36)
    # and the widget still runs after the error
    box.fill(SOURCE.replace(SIGNATURE, "batch=4, length=32, d_model=128, n_heads=8"))
    run(root, root.locator("[data-action=run]").click)
    assert root.locator('[data-bind="output_shape"]').inner_text() == "(4, 32, 128)"
    root.locator("[data-action=reset]").click()  # the frame's reset does the same
    assert box.input_value() == SOURCE
    assert root.locator('[data-bind="output_shape"]').inner_text() == "(2, 32, 128)"


def test_the_weights_are_a_heatmap_as_large_as_the_code_returns(book_pages):
    """Head 0's weights as a heatmap on a fixed 0..1 map: every bound attribute is pycore's;
    the original's 6 x 6 causal corner (its first cell weight 1, the strongest colour; the
    future hidden at weight 0, the weakest); an edited prefix of 10 shows 10 x 10 cells and
    hides the other slots; pointing at a cell says its value; the shape that changed is
    marked in the list of steps."""
    root = book_pages("code-lab").widget("code-lab")
    view = pycore_view("code-lab", **params_of(root))
    assert_drawn(root, view, min_count=144 * 3)
    cells = root.locator(".lab-heat .cell:not([data-say=''])")  # the used slots
    assert cells.count() == 36
    assert cells.first.get_attribute("data-seq") == "8"  # weight 1
    assert cells.nth(1).get_attribute("data-seq") == "0"
    assert root.locator(".lab-heat .cell[data-masked]").count() == 15  # causal: 6 * 5 / 2 zeros
    assert root.locator(".lab-heat .legend-row").inner_text().split() == \
        ["0", "0.1", "0.5", "1", "全书统一", "0–1", "刻度"]
    cells.nth(6 + 0).hover()  # row 1, column 0
    assert root.locator(".lab-heat [data-readout]").inner_text() == \
        f"1 → 0：{view['weights'][1][0]:.4f}"
    changed = root.locator('[data-part="shapes"] li.changed .step-name').all_text_contents()
    assert "Q split into heads" in changed and "x (input)" not in changed
    edited = SOURCE.replace("causal=True, prefix=6", "causal=True, prefix=10")
    root.locator("textarea").fill(edited)
    run(root, root.locator("[data-action=run]").click)
    view = pycore_view("code-lab", **params_of(root), code=edited)
    assert_drawn(root, view)
    assert cells.count() == 100
    assert root.locator(".lab-heat svg.heat").get_attribute("viewBox") == view["heat"]["viewbox"]
    labels = root.locator(".lab-heat .row-label").all_text_contents()
    assert labels == [str(i) for i in range(10)] + ["", ""]
    # the unused slots lie outside the viewBox (the figure clips them)
    x0, y0, vw, vh = map(float, view["heat"]["viewbox"].split())
    outside = root.locator(".lab-heat .cell[data-say='']").evaluate_all(
        "cs => cs.map(c => [Number(c.getAttribute('x')), Number(c.getAttribute('y'))])")
    assert len(outside) == 44 and all(x >= vw or y >= vh for x, y in outside)
