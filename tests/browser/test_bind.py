"""bind.js, the DOM contract's writer: it writes what changed and only that. A binding remembers
what it last wrote, so these tests bind a small fragment through a sequence of views and read
the DOM (and every mutation) after each. The views bring their numbers' texts as pycore's
call_json writes them (pycore/fmt.py): bind.js formats nothing."""
from pycore.fmt import page_texts

FRAGMENT = """
<p data-bind="word">猫</p>
<p data-bind="p" data-digits="2">0.25</p>
<p data-sci="tiny">1.00e-15</p>
<svg><rect data-attr="width=w data-hidden=off" width="10"></rect></svg>
<table data-matrix="m" data-digits="1" data-shaded><tbody><tr><td>0.0</td><td>0.5</td></tr></tbody></table>
"""

# a fragment bound in a root of its own, on a page of the book (its bind.js)
MOUNT = """
  const base = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
  const { bindAll } = await import(new URL("assets/widgets/bind.js", base).href);
  const root = document.createElement("div");
  root.innerHTML = fragment;
  document.body.append(root);
"""

BIND_JS = """
async ({ fragment, views }) => {
""" + MOUNT + """  const seen = [];
  for (const view of views) {
    const observer = new MutationObserver(() => {});
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    bindAll(root, view);
    const mutations = observer.takeRecords().length;
    observer.disconnect();
    const rect = root.querySelector("rect"), tds = root.querySelectorAll("td");
    seen.push({
      texts: [...root.querySelectorAll("p")].map((p) => p.textContent),
      width: rect.getAttribute("width"), hidden: rect.hasAttribute("data-hidden"),
      cells: [...tds].map((td) => [td.textContent, td.title, td.className]),
      mutations,
    });
  }
  root.remove();
  return seen;
}
"""


# what the fragment's elements show of a view (bind.js textsWanted)
WANTED = ["p:2", "tiny:e", "m:1"]


def told(view):
    """The view as call_json sends it: with the texts of the numbers the fragment shows."""
    return {**view, "$text": page_texts(view, WANTED)}


def bind(page, *views):
    return page.evaluate(BIND_JS, {"fragment": FRAGMENT, "views": [told(v) for v in views]})


def test_the_page_asks_for_the_texts_it_shows(book_pages):
    page = book_pages("attention").page
    wanted = page.evaluate("async (fragment) => {" + MOUNT + """
      const { textsWanted } = await import(new URL("assets/widgets/bind.js", base).href);
      const wanted = textsWanted(root);
      root.remove();
      return wanted;
    }""", FRAGMENT)
    assert sorted(wanted) == sorted(WANTED)


def test_a_number_without_its_text_is_an_error_not_a_guess(book_pages):
    page = book_pages("attention").page
    error = page.evaluate("async (fragment) => {" + MOUNT + """
      try {
        bindAll(root, { p: 0.5 });
        return null;
      } catch (err) {
        return err.message;
      } finally {
        root.remove();
      }
    }""", FRAGMENT)
    assert error and "no text for p:2" in error


def test_values_are_written_and_written_back(book_pages):
    page = book_pages("attention").page
    a = {"word": "猫", "p": 0.25, "tiny": 1e-15, "w": 10, "off": False, "m": [[0.0, 0.5]]}
    b = {"word": "狗", "p": 0.75, "tiny": 2e-15, "w": 20, "off": True, "m": [[0.9, 0.5]]}
    first, second, again = bind(page, a, b, a)
    # the build's page already shows a's values: the first bind writes nothing but the
    # matrix cells' titles and shades, which the build leaves out
    assert first["texts"] == ["猫", "0.25", "1.00e-15"] and first["width"] == "10"
    assert not first["hidden"]
    # 0.5 is s6: sqrt(0.5) = 0.707, 6.4 ninths (pycore/fmt.py shade, the book's weight scale,
    # as the build shades it); 0.9 is s8: 8.5 ninths
    assert first["cells"] == [["0.0", "0.0000", "s0"], ["0.5", "0.5000", "s6"]]
    assert second["texts"] == ["狗", "0.75", "2.00e-15"] and second["width"] == "20"
    assert second["hidden"]
    assert second["cells"] == [["0.9", "0.9000", "s8"], ["0.5", "0.5000", "s6"]]
    # back to a: every remembered value is written again
    assert again["texts"] == first["texts"] and again["width"] == "10"
    assert not again["hidden"] and again["cells"] == first["cells"]
    assert again["mutations"] == second["mutations"] > 0


def test_nothing_is_written_that_the_page_shows_already(book_pages):
    page = book_pages("attention").page
    a = {"word": "猫", "p": 0.25, "tiny": 1e-15, "w": 10, "off": False, "m": [[0.0, 0.5]]}
    # p changes below its 2 digits, the rest not at all; a part of the view left out (a
    # widget's `shown` parts) leaves its elements as they are
    nudged = {**a, "p": 0.2501}
    _, same, below_digits, partial = bind(page, a, dict(a), nudged, {"word": "狗"})
    assert same["mutations"] == 0 and below_digits["mutations"] == 0
    assert below_digits["texts"][1] == "0.25"
    assert partial["texts"] == ["狗", "0.25", "1.00e-15"] and partial["width"] == "10"
    assert partial["mutations"] == 1


NESTED = """
<p data-bind="title">x</p>
<svg class="part"><rect data-attr="y=bars.0.y" y="0"></rect><rect data-attr="y=bars.1.y" y="0"></rect>
<text data-bind="bars.1.text">0</text></svg>
"""

NESTED_JS = """
async ({ fragment, steps }) => {
""" + MOUNT + """  const seen = [];
  for (const [selector, view] of steps) {
    bindAll(selector ? root.querySelector(selector) : root, view);
    seen.push({ title: root.querySelector("p").textContent,
                ys: [...root.querySelectorAll("rect")].map((r) => r.getAttribute("y")),
                text: root.querySelector("text").textContent });
  }
  root.remove();
  return seen;
}
"""


def test_a_path_is_followed_through_lists_and_parts_sent_by_index(book_pages):
    page = book_pages("attention").page
    whole = {"title": "a", "bars": [{"y": 10, "text": "one"}, {"y": 20, "text": "two"}]}
    steps = [
        [None, whole],
        # a lean view: only bar 1, as an object keyed by its index; bar 0 and the title stay
        [None, {"bars": {"1": {"y": 25, "text": "two'"}}}],
        # a part bound through its own container (a widget's JS rebinding one part) ...
        [".part", {"bars": [{"y": 11, "text": "x"}, {"y": 21, "text": "y"}]}],
        # ... and then the whole again: the values the part wrote are not taken as the
        # whole's, so each element shows the whole view's value
        [None, whole],
        [None, {"title": "b"}],
    ]
    seen = page.evaluate(NESTED_JS, {"fragment": NESTED, "steps": steps})
    assert seen[0] == {"title": "a", "ys": ["10", "20"], "text": "two"}
    assert seen[1] == {"title": "a", "ys": ["10", "25"], "text": "two'"}
    assert seen[2] == {"title": "a", "ys": ["11", "21"], "text": "y"}
    assert seen[3] == {"title": "a", "ys": ["10", "20"], "text": "two"}
    assert seen[4] == {"title": "b", "ys": ["10", "20"], "text": "two"}
