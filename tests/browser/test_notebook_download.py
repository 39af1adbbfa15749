"""The "在 Jupyter 中打开" button (assets/notebook-ui.js): move a widget, download its notebook,
and find the moved parameters in it, the wheel's address on this host in its install cell,
and, run in a real kernel, the numbers pycore gives for them."""
import ast
import json
import shlex
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.harness import assert_shows, params_of, pycore_view, shown_numbers


def downloaded(root):
    with root.page.expect_download() as info:
        root.locator("button[data-notebook]").click()
    assert info.value.suggested_filename == f"{root.get_attribute('id')}.ipynb"
    with open(info.value.path(), encoding="utf-8") as f:
        return json.load(f)


def eventually(check, timeout=30.0):
    """check() until it passes (a live widget redraws a moment after the input), or its
    failure after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > end:
                raise
            time.sleep(0.1)


def cell(nb, role):
    (found,) = [c for c in nb["cells"] if c["metadata"].get("tbook", {}).get("role") == role]
    return "".join(found["source"])


def run_in_a_kernel(nb, wheel, folder):
    """The reader's own run: a kernel whose first cell pip-installs the wheel. -> (the
    notebook as run, its one view's (name, params, numbers shown))."""
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from tests.notebook_kernel import Kernel, errors, view_outputs
    kernel = Kernel(folder, wheel)
    try:
        ran = kernel.run(nb)
    finally:
        kernel.close()
    assert not errors(ran)
    (view,) = view_outputs(ran)
    return ran, view


def test_the_downloaded_notebook_carries_the_moved_parameters(book_pages, server, site,
                                                              tmp_path):
    root = book_pages("softmax").widget("softmax")
    button = root.locator("button[data-notebook]")
    assert button.is_visible() and button.is_enabled()
    logits = params_of(root)["logits"]
    root.locator("[data-control=temperature]").fill("-0.5")  # T = 10^-0.5
    root.locator("[data-control=logits]").nth(1).fill("3.5")
    moved = {"logits": [logits[0], 3.5] + logits[2:], "temperature": 10 ** -0.5}
    assert_shows(root, pycore_view("softmax", **moved))

    nb = downloaded(root)
    params = ast.literal_eval(cell(nb, "params").split("=", 1)[1].strip())
    assert params["logits"] == moved["logits"]
    assert params["temperature"] == pytest.approx(moved["temperature"], rel=1e-12)
    assert nb["metadata"]["tbook"]["params"] == {root.get_attribute("id"): params}
    # the install cell names the wheel where this very server serves it
    (wheel,) = (site / "downloads").glob("pycore-*.whl")
    url = f"{server}downloads/{wheel.name}"
    assert cell(nb, "install") == f"%pip install {url}"
    wid = root.get_attribute("id")
    assert f"[书中的这一处]({server}02-softmax.html#{wid})" in cell(nb, "about")
    with urllib.request.urlopen(url) as response:
        assert response.read() == wheel.read_bytes()

    # the reader's own run: a kernel whose first cell pip-installs that URL
    ran, (name, ran_params, shown) = run_in_a_kernel(nb, wheel, tmp_path)
    assert (name, ran_params) == ("softmax", params)
    view = pycore_view("softmax", **params)
    assert shown["probs"] == pytest.approx(view["probs"], rel=1e-12)
    assert shown["entropy"] == pytest.approx(view["entropy"], rel=1e-12)
    # and the page shows the notebook's numbers, digit for digit
    compared = 0
    for path, text, digits in shown_numbers(root):
        key, _, index = path.partition(".")
        if key in ("probs", "entropy") and not path.count(".") > 1:
            value = shown[key][int(index)] if index else shown[key]
            assert text == f"{value:.{digits}f}", path
            compared += 1
    assert compared >= len(params["logits"]) + 1


def test_a_choice_and_a_switch_reach_the_notebook(book_pages):
    root = book_pages("attention").widget("attention")
    root.locator("""[data-control=query] [data-value='"小猫"']""").click()
    root.locator("[data-control=causal]").click()
    assert_shows(root, pycore_view("attention", query="小猫", scale=1.0, causal=True))
    nb = downloaded(root)
    assert cell(nb, "params") == 'params = {"query": "小猫", "scale": 1, "causal": True}'
    root.locator("[data-action=reset]").click()
    nb = downloaded(root)
    assert cell(nb, "params") == 'params = {"query": "它", "scale": 1, "causal": False}'


def test_the_chapter_notebook_carries_every_widgets_current_parameters(book_pages, server):
    page = book_pages("scaling-variance")  # chapter 4: attention, scaling-variance, attention-cost
    root = page.widget("attention-cost")
    root.locator("input[type=number][data-control=n]").fill("100")
    assert_shows(root, pycore_view("attention-cost", n=100))
    link = page.page.locator("a.notebook-link")
    assert link.get_attribute("href") == "notebooks/04-attention.ipynb"
    with page.page.expect_download() as info:
        link.click()
    assert info.value.suggested_filename == "04-attention.ipynb"
    with open(info.value.path(), encoding="utf-8") as f:
        nb = json.load(f)
    cells = [c for c in nb["cells"] if c["metadata"].get("tbook", {}).get("role") == "params"]
    by_id = {c["metadata"]["tbook"]["widget"]: "".join(c["source"]) for c in cells}
    assert by_id[root.get_attribute("id")] == 'params = {"n": 100}'
    assert by_id["attention-04-attention"] == \
        'params = {"query": "它", "scale": 1, "causal": False}'
    assert cell(nb, "install").startswith(f"%pip install {server}downloads/pycore-")


def test_a_notebook_carries_the_readers_edited_example(reader_pages, server, site, tmp_path):
    """Edit the running example in the example editor (马路 alive, and the pronoun row of W_Q
    asking for a state too): the attention widget's notebook carries that example, and its
    view there (pycore's compute, and the same notebook run in a kernel) gives the numbers the
    page shows, not the book's. The chapter's notebook carries it for each widget that follows
    the example and for no other. In the reader context (conftest.py): the edit must not leak into
    the pages other tests share."""
    from pycore import example as book
    from pycore.widgets import compute
    context = reader_pages
    page = context.new_page()
    errors_seen = []
    page.on("pageerror", lambda e: errors_seen.append(str(e)))
    page.goto(server + "04-attention.html")
    page.wait_for_selector("[data-widget][data-state=static], "
                           "[data-widget][data-state=loading]",
                           state="detached", timeout=60_000)
    editor = page.locator('[data-widget="example-editor"]').first
    editor.locator("details.ex-fold summary").click()  # folded from chapter 4 on
    road = editor.locator('.ex-cell[data-row="3"][data-col="1"]')  # 马路「有生命」
    road.click()  # 0 -> 1; the next click edits the editor's new view, so wait for it
    page.wait_for_function("b => b.getAttribute('aria-pressed') === 'true'",
                           arg=road.element_handle(), timeout=30_000)
    editor.locator('.ex-cell[data-row="q"][data-col="4"]').click()  # W_Q 代词行「状态」
    edited = book.default_example()
    edited["x"][3][1] = 1
    edited["pronoun"][4] = 1
    root = page.locator('[data-widget="attention"]').first
    block = params_of(root)
    eventually(lambda: assert_shows(root, pycore_view("attention", **block,
                                                      example=edited), min_count=10))

    nb = downloaded(root)
    params = ast.literal_eval(cell(nb, "params").split("=", 1)[1].strip())
    same_example = lambda a, b: book.resolve_example(a)[0] == book.resolve_example(b)[0]  # noqa: E731
    assert {k: v for k, v in params.items() if k != "example"} == block
    assert same_example(params["example"], edited)  # the book's sentence may go unsaid
    assert nb["metadata"]["tbook"]["params"] == {root.get_attribute("id"): params}
    view = compute("attention", params)  # what the notebook's view cell computes
    assert view["row"] != pytest.approx(compute("attention", block)["row"], abs=1e-3)
    assert_shows(root, view, min_count=10)

    link = page.locator("a.notebook-link")
    with page.expect_download() as info:
        link.click()
    with open(info.value.path(), encoding="utf-8") as f:
        chapter = json.load(f)
    by_id = chapter["metadata"]["tbook"]["params"]
    follows = {r.get_attribute("id") for r in page.locator("[data-widget]").all()
               if r.get_attribute("data-example") is not None}
    assert follows >= {root.get_attribute("id")} and len(follows) >= 2
    for wid, p in by_id.items():
        assert ("example" in p) == (wid in follows), wid
        assert same_example(p.get("example", edited), edited), wid
    assert errors_seen == []

    # the reader's own run: the kernel's view gives the page's numbers for that example
    (wheel,) = (site / "downloads").glob("pycore-*.whl")
    ran, (name, ran_params, shown) = run_in_a_kernel(nb, wheel, tmp_path)
    assert (name, ran_params) == ("attention", params)
    assert shown["row"] == pytest.approx(view["row"], rel=1e-12)
    assert shown["output"] == pytest.approx(view["output"], rel=1e-12)
    steps = [c for c in ran.cells if c.metadata.get("tbook", {}).get("role") == "step"]
    assert steps and all("✓ 与小部件一致" in "".join(o.get("text", "") for o in c.outputs)
                         for c in steps if "same(" in c.source)


def test_offline_the_button_says_the_download_needs_a_connection(browser, server):
    """Notebooks are not kept for offline reading: offline, the book's pages still work (the
    service worker holds them), and the button says why nothing is downloaded, then offers the
    download again; back online it works."""
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        downloads = []
        page.on("download", lambda d: downloads.append(d))
        page.goto(server + "02-softmax.html")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=60_000)
        root = page.locator('[data-widget="softmax"]').first
        button = root.locator("button[data-notebook]")
        label = button.inner_text()
        context.set_offline(True)
        button.click()
        expect(button).to_have_text("下载失败（需要联网）")
        expect(button).to_have_text(label, timeout=10_000)  # the offer comes back
        assert downloads == []
        context.set_offline(False)
        with page.expect_download() as info:
            button.click()
        assert info.value.suggested_filename == f"{root.get_attribute('id')}.ipynb"
    finally:
        context.close()


def test_an_odd_host_address_is_one_shell_argument_and_one_link(book_pages):
    """The host's path may hold what a shell or Markdown reads specially ($ ( ) ; ' stay as they
    are in a URL): the install cell quotes the address as Python's shlex.quote does, and the
    link to the widget cannot be ended early by a parenthesis."""
    page = book_pages("softmax").page
    where = "书中 `b.html` 的小部件 `w`"
    nb = {"metadata": {}, "cells": [
        {"cell_type": "code", "source": ["%pip install p.whl"],
         "metadata": {"tbook": {"role": "install", "wheel": "downloads/p.whl"}}},
        {"cell_type": "markdown", "source": [f"{where}。"],
         "metadata": {"tbook": {"role": "about", "where": where, "page": "b.html#w"}}}]}
    out = page.evaluate("""async ({ nb, host }) => {
      const base = new URL(document.querySelector('meta[name="tbook-root"]').content,
                           document.baseURI);
      const { fillNotebook } = await import(new URL("assets/notebook-ui.js", base).href);
      return fillNotebook(nb, () => undefined, new URL(host));
    }""", {"nb": nb, "host": "https://x.example/a'$(reboot);(b)/"})
    assert cell(out, "install") == \
        "%pip install " + shlex.quote("https://x.example/a'$(reboot);(b)/downloads/p.whl")
    assert cell(out, "about") == \
        "[书中的这一处](https://x.example/a'$%28reboot%29;%28b%29/b.html#w)。"
