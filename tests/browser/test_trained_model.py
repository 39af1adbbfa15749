"""Browser tests of the trained-model widget (pycore/widgets/trained_model/:
view, widget.js): what the page shows is the book's model run by pycore in
CPython (pycore.gpt.run.trace, pycore.sampling) on the same weights and sentence."""
import re

import numpy as np

from pycore import sampling
from pycore.gpt import corpus, run
from tests.browser.harness import (assert_drawn, assert_shows, params_of, parts_came, pycore_view,
                                   updates)

PAGE = "13b-trained-model.html"
CAT = "小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".split()
WIDE = "小猫 没有 过 马路 因为 它 太 宽 了 ， 它 =".split()
# The panels of the other stages are left as they were while hidden (only the shown panel's
# parts travel): what the page shows is checked outside them; a panel is checked once shown.
HIDDEN = "[data-panel][data-hidden]"


def pick(root, name, value):
    """Click the button of `value` in the choice control `name`."""
    root.locator(f"[data-control={name}] [data-value='{_json(value)}']").click()


def _json(value):
    return f'"{value}"' if isinstance(value, str) else str(value)


def numbers(root, prefix, n):
    """The n numbers bound to prefix.0 .. prefix.(n-1) (read as text: the 数值 fold is closed)."""
    return [float(root.locator(f'[data-bind="{prefix}.{k}"]').first.text_content())
            for k in range(n)]


def words(root, prefix, n):
    return [root.locator(f'[data-bind="{prefix}.{k}"]').first.text_content() for k in range(n)]


def curve_widths(root, head):
    """The stroke widths of head `head`'s curves, as drawn."""
    paths = root.locator(".tm-head").nth(head).locator("path.curve")
    return [float(paths.nth(j).get_attribute("stroke-width")) for j in range(paths.count())]


def stage_of_tensor(name):
    """The stage that computes a tensor of pycore.gpt.run.trace's shapes (by its name)."""
    fixed = {"token embedding": "embed", "position embedding": "embed",
             "final LayerNorm": "final", "logits": "logits"}
    if name in fixed:
        return fixed[name]
    layer, what = name.split(" ", 2)[1:]
    kind = {"LN1": "ln1", "LN2": "ln2", "FFN hidden": "ffn", "output": "ffn"}.get(what, "attn")
    return f"l{layer}-{kind}"


def reference(sentence, position=11, temperature=1.0, top_k=None, top_p=1.0):
    """The distribution after sentence[position], computed here from the model's logits."""
    z = run.trace(sentence)["logits"][position].copy()
    z[corpus.PAD_ID] = -np.inf
    return sampling.pipeline(z, temperature, top_k, top_p, tokens=corpus.VOCAB)["final"]


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="trained-model"]').first
    assert root.get_attribute("data-state") == "static"
    assert_shows(root, pycore_view("trained-model", **params_of(root)), min_count=200)
    # the build-time answer is the model's, from the real weights
    assert root.locator('[data-bind="answer.word"]').text_content() == "小猫"
    page.close()


def test_live_distribution_and_attention_equal_cpython(book_pages):
    root = book_pages.open(PAGE).widget("trained-model")
    view = pycore_view("trained-model")
    assert_shows(root, view, min_count=200, skip=HIDDEN)
    assert_drawn(root, view, min_count=200, skip=HIDDEN)
    # independent of the widget's view: the model run here on the same sentence
    t = run.trace(CAT)
    p = reference(CAT)
    order = np.argsort(-p, kind="stable")[:10]
    assert words(root, "dist.bars.bars.label", 10) == [corpus.VOCAB[j] for j in order]
    assert np.allclose(numbers(root, "dist.p_final", 10), p[order], atol=5e-5)
    # layer 1's four heads at "=": the page's rows are the model's attention
    rows = [numbers(root, f"attn.rows.{h}", 12) for h in range(4)]
    assert np.allclose(rows, t["layers"][1]["attention"]["weights"][:, -1], atol=5e-5)
    assert root.locator('[data-bind="answer.word"]').text_content() == "小猫"


def test_swapping_the_adjective_moves_the_answer_and_the_attention(book_pages):
    root = book_pages.open(PAGE).widget("trained-model")
    layer, head = run.book_model()[2]["final"]["best_head"]
    assert layer == 1  # the default stage shows layer 1
    before = curve_widths(root, head)
    assert int(np.argmax(before)) == CAT.index("小猫")
    n = updates(root)
    pick(root, "adjective", "宽")
    assert updates(root) > n
    view = pycore_view("trained-model", adjective="宽")
    assert_shows(root, view, skip=HIDDEN)
    assert_drawn(root, view, skip=HIDDEN)
    assert root.locator('[data-bind="answer.word"]').text_content() == "马路"
    after = curve_widths(root, head)
    assert int(np.argmax(after)) == WIDE.index("马路")  # the widest curve moved to 马路
    w = run.trace(WIDE)["layers"][1]["attention"]["weights"][head, -1]
    assert np.allclose(numbers(root, f"attn.rows.{head}", 12), w, atol=5e-5)
    assert w[WIDE.index("马路")] > 0.5
    # the FFN panel, hidden while the sentence changed, shows the new sentence once shown
    pick(root, "stage", "l0-ffn")
    view = pycore_view("trained-model", adjective="宽", stage="l0-ffn")
    assert_shows(root, view, skip=HIDDEN)
    assert_drawn(root, view, skip=HIDDEN)
    hidden = run.trace(WIDE)["layers"][0]["ffn"]["hidden"][11]  # (192,) at "=", layer 0
    shown = {k: float(root.locator(f'[data-bind="ffn.{k}"]').text_content())
             for k in ("active", "max.value")}
    assert shown["active"] == (hidden > 0).sum()
    assert np.isclose(shown["max.value"], hidden.max(), atol=5e-4)


def test_sampling_controls_and_seeded_counts_equal_cpython(book_pages):
    root = book_pages.open(PAGE).widget("trained-model")
    pick(root, "section", "next")  # the sampler's section
    pick(root, "position", 2)  # after 「过」: a real choice among the obstacles
    root.locator("[data-control=temperature]").fill("0.3")  # log10 T
    root.locator("[data-control=top_k]").fill("5")
    temperature = root.evaluate("() => 10 ** 0.3")  # the page's T, to the last bit
    params = dict(section="next", position=2, temperature=temperature, top_k=5)
    assert root.locator('[data-bind="dist.after"]').text_content() == "过"
    assert root.locator('[data-bind="temperature"]').text_content() == "2.00"
    assert_shows(root, pycore_view("trained-model", **params), skip=HIDDEN)
    p = reference(CAT, 2, temperature, 5, 1.0)
    order = np.argsort(-reference(CAT, 2, temperature), kind="stable")[:10]
    assert np.allclose(numbers(root, "dist.p_final", 10), p[order], atol=5e-5)
    assert sum(x > 0 for x in numbers(root, "dist.p_final", 10)) == 5
    # two clicks of 抽样: seeds 1 and 2, 1000 draws each, the counts CPython draws
    for seed in (1, 2):
        root.locator("[data-action=sample]").click()
        counts = sampling.sample_counts(p, 1000, seed)
        assert numbers(root, "dist.counts", 10) == [float(c) for c in counts[order]]
        assert_shows(root, pycore_view("trained-model", seed=seed, **params), skip=HIDDEN)
        assert_drawn(root, pycore_view("trained-model", seed=seed, **params), skip=HIDDEN)
    # top-p on top: the nucleus of the page is the one pycore keeps
    root.locator("[data-control=top_p]").fill("0.5")
    p = reference(CAT, 2, temperature, 5, 0.5)
    assert np.allclose(numbers(root, "dist.p_final", 10), p[order], atol=5e-5)
    assert_shows(root, pycore_view("trained-model", seed=2, top_p=0.5, **params), skip=HIDDEN)


def test_a_move_brings_only_the_parts_it_changes(book_pages):
    """A draw brings the distribution alone; another head its matrix and frame, not the
    curves."""
    root = book_pages.open(PAGE).widget("trained-model")
    assert parts_came(root, lambda: pick(root, "section", "next")) == \
        [["controls", "shown_section"]]
    assert parts_came(root, root.locator("[data-action=sample]").click) == [["controls", "dist"]]
    pick(root, "section", "forward")
    assert parts_came(root, lambda: pick(root, "head", 2)) == \
        [["attn_frame", "attn_matrix", "controls"]]
    root.locator("[data-action=reset]").click()


def test_stepping_through_the_forward_pass(book_pages):
    root = book_pages.open(PAGE).widget("trained-model")
    t = run.trace(CAT)
    for stage in ("embed", "l0-ln1", "l0-attn", "l0-ffn", "l1-ln2", "final", "logits"):
        pick(root, "stage", stage)
        view = pycore_view("trained-model", stage=stage)
        assert_shows(root, view, skip=HIDDEN)
        assert_drawn(root, view, skip=HIDDEN)
        visible = [p.get_attribute("data-panel") for p in root.locator("[data-panel]").all()
                   if p.is_visible()]
        assert visible == ({"embed": [], "l0-attn": ["attn"], "l0-ffn": ["ffn"],
                            "logits": ["logits"]}.get(stage, ["norm"])), stage
        # the shapes table (数值) marks the rows of this stage, and the line beside the
        # stream says their shapes: the model's, run here
        assert root.locator(".tm-shapes tr[data-current]").count() >= 1
        line = root.locator('[data-bind="stage_shapes"]').text_content()
        assert re.findall(r"\d+(?: × \d+)+", line) == [
            " × ".join(map(str, shape)) for name, shape in t["shapes"]
            if stage_of_tensor(name) == stage], (stage, line)
    # LayerNorm statistics: layer 1's second LayerNorm, before normalising
    pick(root, "stage", "l1-ln2")
    ln = t["layers"][1]["ln2"]
    assert np.allclose(numbers(root, "norm.std", 12), ln["input_std"], atol=5e-5)
    assert np.allclose(numbers(root, "norm.mean", 12), ln["input_mean"], atol=5e-5)
    # the logits after "=": all 56, the model's
    pick(root, "stage", "logits")
    assert np.allclose(numbers(root, "logits.row", 56), t["logits"][-1], atol=5e-4)


def test_the_embed_pages_go_live_with_the_same_numbers(reader_pages, server):
    """A widget's embed page, and the chapter's, run the same model as the chapter does (one
    after the other in one context: its runtime, booted once, serves them all)."""
    for href, name in (("embed-trained-model-13b-trained-model.html", "trained-model"),
                       ("embed-train-live-13b-trained-model.html", "train-live"),
                       ("embed-learned-vs-handmade-13b-trained-model.html", "learned-vs-handmade"),
                       ("embed-13b-trained-model.html", "trained-model")):
        page = reader_pages.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + href)
        root = page.locator(f'[data-widget="{name}"]').first
        page.wait_for_selector(f'[data-widget="{name}"][data-state=live]', timeout=60_000)
        assert_shows(root, pycore_view(name), skip=HIDDEN)
        assert not errors, (href, errors)
        if name == "trained-model":
            pick(root, "adjective", "宽")
            assert root.locator('[data-bind="answer.word"]').text_content() == "马路"
        page.close()


def test_the_switch_shows_one_section_at_a_time(book_pages):
    """「下一个词」/「前向计算」: one section under the sentence, with its controls; what it
    shows is the model's, run here; a move made while a section is hidden shows when it comes
    back, and 重置 brings back the forward pass."""
    root = book_pages.open(PAGE).widget("trained-model")
    sections = root.locator("section.tm-part")

    def shown():
        return [s.get_attribute("aria-label") for s in sections.all() if s.is_visible()]

    assert shown() == ["前向计算的每一步"]
    assert root.locator("[data-control=stage]").is_visible()
    assert not root.locator("[data-control=temperature]").is_visible()
    pick(root, "section", "next")
    assert shown() == ["下一个词的分布"]
    assert root.locator("[data-control=temperature]").is_visible()
    assert not root.locator("[data-control=stage]").is_visible()
    view = pycore_view("trained-model", section="next")
    assert_shows(root, view, skip=HIDDEN)
    assert_drawn(root, view, skip=HIDDEN)
    p = reference(CAT)
    order = np.argsort(-p, kind="stable")[:10]
    values = root.locator(".tm-next .bar .value")
    assert [values.nth(k).text_content() for k in range(10)] == [f"{x:.3f}" for x in p[order]]
    # the adjective changes while the forward pass is hidden: back, it shows the new sentence
    pick(root, "adjective", "宽")
    assert root.locator('[data-bind="dist.top.word"]').text_content() == "马路"
    pick(root, "section", "forward")
    assert shown() == ["前向计算的每一步"]
    w = run.trace(WIDE)["layers"][1]["attention"]["weights"][:, -1]
    assert np.allclose([numbers(root, f"attn.rows.{h}", 12) for h in range(4)], w, atol=5e-5)
    assert_shows(root, pycore_view("trained-model", adjective="宽"), skip=HIDDEN)
    pick(root, "section", "next")
    root.locator("[data-action=reset]").click()
    root.page.wait_for_function(
        "(r) => r.querySelector('.tm-next').hasAttribute('data-hidden')", arg=root.element_handle())
    assert shown() == ["前向计算的每一步"]
    assert root.locator('[data-bind="answer.word"]').text_content() == "小猫"
