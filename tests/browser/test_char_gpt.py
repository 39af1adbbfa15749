"""Browser tests of the char-gpt widget (pycore/widgets/char_gpt/: view, widget.js):
text typed into the box reaches the poem model in Pyodide, and the page shows the distribution
pycore computes in this CPython; junk gets a note and never breaks the page."""
import pytest

from tests.browser.harness import assert_shows, params_of, parts_came, pycore_view, updates


# The view drawn, its late part (the continuation, pycore/view_parts.py LATE) included.
SETTLED = "([r, n]) => Number(r.dataset.updates || 0) > n && !('later' in r.dataset)"


def typed(root, text):
    """Type (fill) text into the box and wait until the page has drawn its view."""
    before = updates(root)
    root.locator(".cg-text").fill(text)
    root.page.wait_for_function(SETTLED,
                                arg=[root.element_handle(), before])


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "13b-trained-model.html")
    root = page.locator('[data-widget="char-gpt"]').first
    assert_shows(root, pycore_view("char-gpt", **params_of(root)), min_count=20)
    page.close()


@pytest.mark.parametrize("text", ["春风又绿江南岸，", "床前明月光\n", "今天的天气很好，我们"])
def test_typed_text_gives_pycores_distribution(book_pages, text):
    root = book_pages("char-gpt").widget("char-gpt")
    typed(root, text)
    view = pycore_view("char-gpt", text=text)
    assert_shows(root, view, min_count=20)
    assert root.locator(".cg-read .cg-char").all_text_contents() == [r["c"] for r in view["read"]]


@pytest.mark.parametrize("text,note", [
    ("", "文本是空的"),
    ("<img src=x onerror=alert(1)>😀", "不在词表里"),
    ("月" * 10_000, "前面 9936 个字它看不到"),
])
def test_junk_gets_a_note_and_the_page_keeps_working(book_pages, text, note):
    root = book_pages("char-gpt").widget("char-gpt")
    typed(root, text)
    assert note in root.locator(".cg-note").text_content()
    assert root.get_attribute("data-state") == "live"
    assert root.locator(".cg-read img").count() == 0  # markup stays text
    assert_shows(root, pycore_view("char-gpt", text=text), min_count=20)
    typed(root, "白日依山尽，")  # and it still answers
    assert_shows(root, pycore_view("char-gpt", text="白日依山尽，"), min_count=20)


def test_the_continuation_is_pycores_for_the_seed(book_pages):
    root = book_pages("char-gpt").widget("char-gpt")
    typed(root, "白日依山尽，")
    before = updates(root)
    root.locator("[data-action=sample]").click()
    root.page.wait_for_function(SETTLED,
                                arg=[root.element_handle(), before])
    view = pycore_view("char-gpt", text="白日依山尽，", seed=1)
    assert root.locator(".cg-continuation").text_content() == view["continuation"]


def test_a_slider_or_a_seed_brings_only_the_parts_that_read_it(book_pages):
    """top-k samples the same logits again (the text's part stays), a new seed only draws
    again; the page still shows pycore's whole view, the characters read included."""
    root = book_pages("char-gpt").widget("char-gpt")
    typed(root, "白日依山尽，")
    sample = root.locator("[data-action=sample]")
    assert parts_came(root, sample.click) == [["continued"]]
    # the distribution at once, the continuation (late) in a request of its own after it
    assert parts_came(root, lambda: root.locator("input[data-control=top_k]").fill("5")) == \
        [["distribution"], ["continued"]]
    view = pycore_view("char-gpt", text="白日依山尽，", seed=1, top_k=5)
    assert_shows(root, view, min_count=20)
    assert root.locator(".cg-continuation").text_content() == view["continuation"]
    assert root.locator(".cg-read .cg-char").all_text_contents() == list("白日依山尽，")
    assert parts_came(root, sample.click) == [["continued"]]
    assert root.locator(".cg-continuation").text_content() == \
        pycore_view("char-gpt", text="白日依山尽，", seed=2, top_k=5)["continuation"]


def test_reset_brings_back_the_first_text_and_its_numbers(book_pages):
    """The box's text is no parameter, yet reset puts it back as built with the rest."""
    root = book_pages("char-gpt").widget("char-gpt")
    first = root.locator(".cg-text").input_value()
    typed(root, "白日依山尽，")
    before = updates(root)
    root.locator("[data-action=reset]").click()
    root.page.wait_for_function(SETTLED,
                                arg=[root.element_handle(), before])
    assert root.locator(".cg-text").input_value() == first != "白日依山尽，"
    assert_shows(root, pycore_view("char-gpt", text=first), min_count=20)
