"""Browser tests of the learned-vs-handmade widget (pycore/widgets/learned_vs_handmade/__init__.py):
chapter 4's hand-made head and the trained model's head, both as CPython computes them."""
import numpy as np
import pytest

from pycore.gpt import run
from tests.browser.harness import assert_drawn, assert_shows, pycore_view

PAGE = "13b-trained-model.html"


def numbers(root, prefix, n):
    return [float(root.locator(f'[data-bind="{prefix}.{k}"]').first.text_content())
            for k in range(n)]


def text(root, path):
    return root.locator(f'[data-bind="{path}"]').first.text_content()


def test_static_numbers_equal_pycore(browser, server):
    page = browser.new_page(java_script_enabled=False)
    page.goto(server + PAGE)
    root = page.locator('[data-widget="learned-vs-handmade"]').first
    assert_shows(root, pycore_view("learned-vs-handmade"), min_count=9 + 12)
    page.close()


@pytest.mark.parametrize("adjective, answer", [("宽", "马路"), ("饿", "小猫"), ("滑", "马路")])
def test_the_learned_head_follows_the_adjective_the_handmade_one_does_not(book_pages, adjective,
                                                                          answer):
    root = book_pages.open(PAGE).widget("learned-vs-handmade")
    # the running example: both point at 小猫; chapter 4's row (0.2101 on 小猫, 0.1397 on 马路)
    assert numbers(root, "hand.row", 9)[0] == 0.2101 and numbers(root, "hand.row", 9)[3] == 0.1397
    assert text(root, "hand.word") == text(root, "learned.word") == "小猫"
    root.locator(f"""[data-control=adjective] [data-value='"{adjective}"']""").click()
    view = pycore_view("learned-vs-handmade", adjective=adjective)
    assert_shows(root, view)
    assert_drawn(root, view, min_count=40)
    assert text(root, "grammar") == answer
    # the hand-made head knows only "animate entity": it stays on 小猫
    assert text(root, "hand.word") == "小猫"
    assert numbers(root, "hand.row", 9)[0] == 0.2101
    # the learned head (the model's pointing head, run here on the same sentence) moves
    words = "小猫 没有 过 马路 因为 它 太 累 了 ， 它 =".replace("累", adjective).split()
    layer, head = run.book_model()[2]["final"]["best_head"]
    w = run.trace(words)["layers"][layer]["attention"]["weights"][head, -1]
    assert np.allclose(numbers(root, "learned.row", 12), w, atol=5e-5)
    assert text(root, "learned.word") == words[int(np.argmax(w))] == answer
    assert text(root, "learned.answer") == answer
    widths = [float(p.get_attribute("stroke-width"))
              for p in root.locator(".lvh-side").nth(1).locator("path.curve").all()]
    assert int(np.argmax(widths)) == words.index(answer)


def test_another_learned_head(book_pages):
    root = book_pages.open(PAGE).widget("learned-vs-handmade")
    root.locator("""[data-control=head] [data-value='"0-0"']""").click()
    view = pycore_view("learned-vs-handmade", head="0-0")
    assert_shows(root, view)
    assert_drawn(root, view)
    assert "指代头" not in text(root, "learned.name")
