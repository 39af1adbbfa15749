"""Browser tests of the char-embedding-map widget (pycore/widgets/char_embedding_map/:
view, widget.js): a character typed into the search box and the number
of neighbours moved reach the poem model's embeddings in Pyodide, and the marks, bars and
numbers the page shows are pycore's in this CPython; junk gets a note and never breaks it."""
import numpy as np
import pytest

from pycore.gpt import poem_inside, poem_run
from tests.browser.harness import (after_update, assert_drawn, assert_shows, params_of,
                                   pycore_view)

NAME = "char-embedding-map"


def typed(root, text):
    after_update(root, lambda: root.locator(".cem-query").fill(text))


def shown_neighbours(root):
    """The bars the page shows: [(character, similarity)] of the rows not hidden."""
    return root.locator("svg[data-cem=bars] g.bar:not([data-hidden])").evaluate_all(
        "gs => gs.map(g => [g.querySelector('.label').textContent,"
        " Number(g.querySelector('.value').textContent)])")


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + "13b-trained-model.html")
    root = page.locator(f'[data-widget="{NAME}"]').first
    view = pycore_view(NAME, **params_of(root))
    assert_shows(root, view, min_count=20)
    assert_drawn(root, view, min_count=20)
    page.close()


@pytest.mark.parametrize("char,k", [("江", 8), ("月", 3)])
def test_a_typed_character_marks_pycores_neighbours(book_pages, char, k):
    root = book_pages(NAME).widget(NAME)
    typed(root, char)
    if params_of(root)["k"] != k:
        after_update(root, lambda: root.locator("[data-control=k]").fill(str(k)))
    view = pycore_view(NAME, query=char, k=k)
    assert_shows(root, view, min_count=20)
    assert_drawn(root, view, min_count=20)
    # the bars are the k nearest characters by cosine similarity, computed here
    params, _, record = poem_run.poem_model()
    vocab = record["vocab"]
    ids, sims = poem_inside.neighbours(params, vocab.index(char), k)
    shown = shown_neighbours(root)
    assert [c for c, _ in shown] == [vocab[j] for j in ids]
    np.testing.assert_allclose([s for _, s in shown], sims, atol=5e-4)
    # the typed character's mark sits where its projection is placed
    at = root.locator(".cem-at")
    x, y = float(at.get_attribute("cx")), float(at.get_attribute("cy"))
    assert (x, y) == (view["at"]["x"], view["at"]["y"])
    assert root.locator(".cem-near:not([data-hidden])").count() == k


@pytest.mark.parametrize("text,note", [("", "框是空的"), ("<b>x</b>", "不在词表里"),
                                       ("😀", "不在词表里"), ("春" * 2000, "只查第一个字")])
def test_junk_gets_a_note_and_the_page_keeps_working(book_pages, text, note):
    root = book_pages(NAME).widget(NAME)
    typed(root, text)
    assert note in root.locator(".cem-note").text_content()
    assert root.get_attribute("data-state") == "live"
    assert root.locator(".cem-cloud b").count() == 0  # markup stays text
    assert_shows(root, pycore_view(NAME, query=text, **params_of(root)), min_count=20)
    typed(root, "山")
    assert_shows(root, pycore_view(NAME, query="山", **params_of(root)), min_count=20)


def test_reset_brings_back_the_first_character(book_pages):
    root = book_pages(NAME).widget(NAME)
    first = root.locator(".cem-query").input_value()
    typed(root, "山")
    after_update(root, lambda: root.locator("[data-action=reset]").click())
    assert root.locator(".cem-query").input_value() == first != "山"
    assert_shows(root, pycore_view(NAME, query=first), min_count=20)
