"""A widget's numbers read the same before the runtime boots and after: for every widget of the
book, the text of every bound element (data-bind, data-sci, each matrix cell with its title and
shade class) in the built page, as the site's file holds it, equals the live page's at the
widget's defaults, to the character. Both come from one formatter (pycore/fmt.py); the
harness's other tests allow half a digit, so a number rounded two ways would pass them."""
import json
import re
from urllib.parse import quote

from pycore import fmt
from tests.browser.conftest import BookPage
# Every bound text of a widget, keyed by what it shows: `path #k` (the k-th element bound to
# that path, data-sci ones as `path (e) #k`) and `path[i][j]` (a matrix cell: "text | title |
# shade class").
# A panel the widget hides (data-hidden) is left out: a live view brings no numbers for it
# (trained-model's `live` input) and it keeps what it last showed until it is shown again.
TEXTS = """(root) => {
  const out = {}, seen = {};
  const put = (key, text, el) => {
    if (el.closest("[data-panel][data-hidden]")) return;
    seen[key] = (seen[key] ?? 0) + 1;
    out[`${key} #${seen[key]}`] = text;
  };
  root.querySelectorAll("[data-bind]").forEach((el) => put(el.dataset.bind, el.textContent, el));
  root.querySelectorAll("[data-sci]").forEach((el) => put(`${el.dataset.sci} (e)`, el.textContent, el));
  root.querySelectorAll("table[data-matrix]").forEach((t) => {
    const shaded = "shaded" in t.dataset;
    [...t.tBodies[0]?.rows ?? []].forEach((tr, i) =>
      [...tr.getElementsByTagName("td")].forEach((td, j) =>
        put(`${t.dataset.matrix}[${i}][${j}]`,
            `${td.textContent} | ${td.title} | ${shaded ? td.className : ""}`, td)));
  });
  return out;
}"""

# The same, of every widget of a page's built HTML (parsed by the browser, no script run).
STATIC = """(html) => {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const texts = """ + TEXTS + """;
  return Object.fromEntries([...doc.querySelectorAll("[data-widget]")].map((w) => [w.id, texts(w)]));
}"""


# A data-sci number is rounding noise (a check that two computations agree) whose digits differ
# between CPython and Pyodide (docs/widgets.md): built and live, it is written the same way.
SCI = re.compile(r"-?\d\.\d\de[+-]\d\d")


def same(key, built, live):
    if built is not None and live is not None and " (e) #" in key:
        return bool(SCI.fullmatch(built) and SCI.fullmatch(live))
    return built == live


def mismatches(static, live):
    """[(key, built text, live text)] where the two differ (None: the element is missing)."""
    return [(key, static.get(key), live.get(key)) for key in sorted(set(static) | set(live))
            if not same(key, static.get(key), live.get(key))]


def test_every_widget_shows_its_built_text_when_live(book_pages, site):
    found, compared = [], 0
    for path in sorted(site.glob("*.html")):  # chapters (embed pages repeat their markup)
        href, html = path.name, path.read_text(encoding="utf-8")
        if href.startswith("embed-") or href == "print.html" or "data-widget=" not in html:
            continue
        page = book_pages.open(href)
        built = page.page.evaluate(STATIC, html)
        for wid, static in built.items():
            root = page.page.locator(f"#{wid}")
            name = root.get_attribute("data-widget")
            index = page.page.evaluate(
                "([id, name]) => [...document.querySelectorAll(`[data-widget='${name}']`)]"
                ".findIndex((w) => w.id === id)", [wid, name])
            live = page.widget(name, index).evaluate(TEXTS)
            compared += len(static)
            found += [(f"{href} {wid}", *m) for m in mismatches(static, live)]
    assert compared > 1000
    assert not found, f"{len(found)} of {compared} texts differ, built vs live:\n" + "\n".join(
        f"  {where} {key}: {a!r} vs {b!r}" for where, key, a, b in found[:60])


def test_a_tie_reads_live_as_the_build_writes_it(reader_pages, server, site):
    """0.125 is a tie at 2 decimals: the live page shows it as pycore/fmt.py writes it, "0.12"
    (JavaScript's toFixed would write "0.13"). No widget's defaults hold a tie, so a link
    sets the softmax widget's temperature, which its slider shows with 2 decimals."""
    path = next(p for p in sorted(site.glob("*.html")) if not p.name.startswith("embed-")
                and p.name != "print.html" and 'data-widget="softmax"' in p.read_text("utf-8"))
    wid = re.search(r'id="([^"]+)" data-widget="softmax"', path.read_text("utf-8"))[1]
    link = f"{path.name}?{wid}={quote(json.dumps({'temperature': 0.125}))}"
    page = BookPage(reader_pages, server, link)
    try:
        root = page.page.locator(f"#{wid}")
        assert root.get_attribute("data-state") == "live"
        assert root.locator('[data-bind="temperature"]').inner_text() == fmt.number(0.125, 2) \
            == "0.12"
    finally:
        page.page.close()
