"""Browser tests of the param-count widget (pycore/widgets/param_count/:
view, widget.js). Exact counts are worked out here by hand from the models'
published configurations."""
from tests.browser.harness import assert_drawn, assert_shows, params_of, pycore_view, updates

GPT2_SMALL = 124_439_808    # HuggingFace's gpt2, tied output, 1024 learned positions
LLAMA_7B = 6_738_415_616    # LLaMA-7B: SwiGLU d_ff 11008, RMSNorm, no biases, untied output
BERT_BASE = 109_482_240     # bert-base-uncased encoder with pooler
GPT2_XL = 1_557_611_200


def gpt2_like(d, layers, vocab, positions=1024, d_ff=None):
    """Biases everywhere, two LayerNorms per layer plus a final one, tied output."""
    d_ff = 4 * d if d_ff is None else d_ff
    per_layer = (4 * d * d + 4 * d) + (2 * d * d_ff + d_ff + d) + 4 * d
    return layers * per_layer + vocab * d + positions * d + 2 * d


def llama_like(d, layers, vocab, d_ff):
    return layers * (4 * d * d + 3 * d * d_ff + 2 * d) + 2 * vocab * d + d


def test_hand_formulas_match_the_published_configs():
    assert gpt2_like(768, 12, 50257) == GPT2_SMALL
    assert gpt2_like(1600, 48, 50257) == GPT2_XL
    assert llama_like(4096, 32, 32000, 11008) == LLAMA_7B


def text(root, path):
    """The text of the first element bound to path (the tables sit in the folded 数值)."""
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def integer(root, path):
    return int(text(root, path).replace(",", ""))


def choose(root, preset):
    root.locator(f"""[data-control=preset] [data-value='"{preset}"']""").click()


def chosen(root):
    button = root.locator("[data-control=preset] [aria-checked=true]")
    return button.get_attribute("data-value")[1:-1]


def tied(root):
    """Is the "d_ff = 4d" switch on?"""
    return root.locator("[data-control=ff_4d]").get_attribute("aria-checked") == "true"


def knob(root, key, kind="range"):
    return root.locator(f"input[type={kind}][data-control={key}]")


def shown_sizes(root):
    return [integer(root, k) for k in ("d_model", "layers", "vocab", "d_ff")]


def check(root, dims, exact, **params):
    """Every number equals pycore; estimate and exact equal the hand values."""
    d, layers, vocab = dims
    assert_shows(root, pycore_view("param-count", **params))
    assert shown_sizes(root)[:3] == [d, layers, vocab]
    assert integer(root, "estimate_text") == 12 * layers * d * d + vocab * d
    assert integer(root, "exact_text") == exact
    est_err = float(text(root, "estimate_error_pct"))
    assert abs(est_err - 100 * (12 * layers * d * d + vocab * d - exact) / exact) <= 0.005


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "10-parameters.html")
    root = page.locator('[data-widget="param-count"]').first
    params = params_of(root)
    assert params["preset"] == "GPT-2 small"
    check(root, (768, 12, 50257), GPT2_SMALL, **params)
    assert text(root, "estimate_text") == "123,532,032"  # chapter 10
    assert text(root, "estimate_error_pct") == "-0.73"
    # the vocabulary's size is |𝒱| as in the chapters' formulas (pycore/notation.py)
    names = root.locator(".ctl-range .ctl-name").all_inner_texts()
    assert names[2] == "词表大小 |𝒱|"
    assert "12·L·d² + |𝒱|·d" in root.locator(".key-figure").inner_text()
    page.close()


def test_presets_table(book_pages):
    root = book_pages("param-count").widget("param-count")
    table = root.locator("table.pc-presets tbody tr")
    exact = {"GPT-2 small": GPT2_SMALL, "GPT-2 XL": GPT2_XL, "BERT-base": BERT_BASE,
             "LLaMA-7B": LLAMA_7B, "GPT-3 175B": gpt2_like(12288, 96, 50257, positions=2048)}
    names = []
    for i in range(table.count()):
        row = f"presets.{i}"
        name = table.nth(i).locator("th").text_content()
        names.append(name)
        d, layers, vocab = (integer(root, f"{row}.{k}") for k in ("d_model", "layers", "vocab"))
        est = integer(root, f"{row}.estimate_text")
        assert est == 12 * layers * d * d + vocab * d, name
        ex = integer(root, f"{row}.exact_text")
        if name in exact:
            assert ex == exact[name], name
        err = float(text(root, f"{row}.estimate_vs_exact_pct"))
        assert abs(err - 100 * (est - ex) / ex) <= 0.005, name
    assert {"GPT-2 small", "GPT-2 XL", "BERT-base", "GPT-3 175B", "LLaMA-7B"} <= set(names)
    gpt3 = names.index("GPT-3 175B")
    assert text(root, f"presets.{gpt3}.estimate_vs_published_pct") == "-0.25"  # chapter 10
    llama = names.index("LLaMA-7B")
    assert text(root, f"presets.{llama}.estimate_vs_exact_pct") == "-2.45"     # chapter 10: 2.4 %


def test_preset_selection(book_pages):
    root = book_pages("param-count").widget("param-count")
    before = updates(root)
    choose(root, "LLaMA-7B")
    assert updates(root) > before
    check(root, (4096, 32, 32000), LLAMA_7B, preset="LLaMA-7B")
    assert integer(root, "d_ff") == 11008  # 2/3 of 4d, rounded up to a multiple of 256
    assert knob(root, "d_model").input_value() == "4096"
    assert knob(root, "d_ff", "number").input_value() == "11008"
    assert text(root, "published_note").startswith("6.7B")
    choose(root, "BERT-base")
    check(root, (768, 12, 30522), BERT_BASE, preset="BERT-base")
    choose(root, "LLaMA-2-70B")  # its d_ff 28672 does not follow the 4d rule
    assert not tied(root)
    assert_shows(root, pycore_view("param-count", preset="LLaMA-2-70B", ff_4d=False))
    assert integer(root, "d_ff") == 28672
    root.locator("[data-control=preset] [aria-checked=true]").focus()
    root.page.keyboard.press("Home")  # keyboard on the presets: the first one
    assert chosen(root) == "GPT-2 small"
    check(root, (768, 12, 50257), GPT2_SMALL, preset="GPT-2 small")


def test_sliders_and_number_boxes(book_pages):
    root = book_pages("param-count").widget("param-count")
    before = updates(root)
    knob(root, "d_model").fill("1536")  # double d: the body grows 4 times
    assert updates(root) > before
    check(root, (1536, 12, 50257), gpt2_like(1536, 12, 50257), d_model=1536)
    assert integer(root, "d_ff") == 4 * 1536  # the tie follows d
    assert text(root, "exact_text") == "418,748,928"  # chapter 10
    assert text(root, "published_note") == "尺寸改动过，公布值不再适用"
    knob(root, "layers").focus()
    root.page.keyboard.press("ArrowRight")  # 13 layers
    check(root, (1536, 13, 50257), gpt2_like(1536, 13, 50257), d_model=1536, layers=13)
    knob(root, "d_model", "number").fill("768")
    knob(root, "layers", "number").fill("24")  # double L instead
    check(root, (768, 24, 50257), gpt2_like(768, 24, 50257), layers=24)
    assert text(root, "exact_text") == "209,494,272"  # chapter 10
    knob(root, "d_model").fill("1536")
    knob(root, "layers").fill("13")
    knob(root, "vocab", "number").fill("32000")
    check(root, (1536, 13, 32000), gpt2_like(1536, 13, 32000), d_model=1536, layers=13, vocab=32000)
    assert knob(root, "vocab").input_value() == "32000"  # the slider follows the box


def test_untied_d_ff(book_pages):
    root = book_pages("param-count").widget("param-count")
    box = knob(root, "d_ff", "number")
    assert box.is_disabled()  # follows d while "d_ff = 4d" is ticked
    root.locator("[data-control=ff_4d]").click()
    assert not tied(root) and box.is_enabled()
    box.fill("2048")
    assert_shows(root, pycore_view("param-count", ff_4d=False, d_ff=2048))
    assert integer(root, "exact_text") == gpt2_like(768, 12, 50257, d_ff=2048)
    assert integer(root, "estimate_text") == 123_532_032  # 12 L d^2 + V d ignores d_ff
    knob(root, "d_ff").focus()
    root.page.keyboard.press("ArrowRight")  # one slider step: 64
    assert integer(root, "exact_text") == gpt2_like(768, 12, 50257, d_ff=2112)


def test_reset_restores_the_block(book_pages):
    root = book_pages("param-count").widget("param-count")
    params = params_of(root)
    choose(root, "GPT-3 175B")
    knob(root, "layers").fill("40")
    root.locator("[data-control=ff_4d]").click()
    root.locator("[data-action=reset]").click()
    assert_shows(root, pycore_view("param-count", **params))
    assert chosen(root) == "GPT-2 small"
    assert tied(root)
    assert knob(root, "layers").input_value() == "12"
    assert integer(root, "exact_text") == GPT2_SMALL


def test_the_picture_is_pycores(book_pages):
    """The stacked bar and the presets' errors: every drawn attribute is the view's; each
    segment is as wide as its share of the exact count (the bar is 560 units), and the frame
    moves to the chosen preset, LLaMA-2-70B's bar the longest (its SwiGLU and GQA are far
    from 12 L d^2)."""
    root = book_pages("param-count").widget("param-count")
    assert_drawn(root, pycore_view("param-count"), min_count=5 * 4 + 6 * 3)
    widths = root.locator(".stack-bar .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    embeddings = 50257 * 768 + 1024 * 768  # GPT-2 small's two tables
    ffn = 12 * (2 * 768 * 3072 + 3072 + 768)
    assert abs(widths[0] - 560 * embeddings / GPT2_SMALL) < 0.01
    assert abs(widths[2] - 560 * ffn / GPT2_SMALL) < 0.01 and widths[4] == 0  # output: tied
    choose(root, "LLaMA-7B")
    view = pycore_view("param-count", preset="LLaMA-7B")
    assert_drawn(root, view)
    widths = root.locator(".stack-bar .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    assert abs(widths[4] - 560 * 32000 * 4096 / LLAMA_7B) < 0.01  # its own output matrix
    framed = root.locator(".on-band[data-on]")
    assert framed.count() == 1
    assert framed.locator("xpath=..").get_attribute("data-say").startswith("LLaMA-7B：")
    errors = root.locator(".hbar-chart .mark").evaluate_all(
        "els => els.map(e => Number(e.getAttribute('width')))")
    assert errors.index(max(errors)) == 5  # LLaMA-2-70B: the estimate is 7.59 % short
    assert root.locator(".key-figure .big").inner_text() == "6,738,415,616"
