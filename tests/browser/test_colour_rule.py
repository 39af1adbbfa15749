"""The book's one colour rule (docs/widgets.md, "Colour"), read from the pages as Chromium
draws them, in the light theme and the dark one:

- every attention-weight heatmap of the book draws a weight w in the class k with
  k^2/81 <= w < (k+1)^2/81 (the fixed 0-1 scale in square-root steps), in one colour per class
  whatever the chapter; the weights tables shade their cells in the same colours;
- darker = larger: each class of the sequential map is darker than the one before, in both
  themes (the prose says "颜色越深权重越大");
- the running example's embedding is one picture: an entry of 1 has the same colour in
  chapter 3's table, in the example editor and in chapter 7's encoder layer (its first step),
  on the diverging map over +-2.5, whose colour grows stronger away from 0 in both themes;
- a value has its own colour (--v), apart from the query's and the key's.
The expected classes are computed here from the readouts' numbers by squares, not with
pycore's square root."""
import math
import re

import pytest

# Each widget that draws attention weights as a heatmap, with how many it draws: a widget that
# leaves the weight scale (its legend no longer marked data-scale="weights") fails here.
# (attention: in chapters 4 and 8.)
WEIGHT_HEATMAPS = {"attention": 2, "multi-head": 2, "padding-mask": 1, "cross-attention": 1,
                   "alibi-rope": 1, "code-lab": 1, "trained-model": 1, "train-live": 1,
                   "sliding-window": 1, "char-gpt-inside": 1}
PAGES = ["04-attention.html", "05-multi-head.html", "06-positional-encoding.html",
         "08-decoder.html", "10b-llms-2026.html", "13b-trained-model.html", "15-code-lab.html"]
ACTIVATION_LIMIT = 2.5

# Every weights heatmap of the page: its widget, and each cell's readout, class and fill
# (a cell drawn as a rect with data-seq, or a transparent square over one path per class).
CELLS = r"""() => Array.from(document.querySelectorAll('svg.legend[data-scale=weights]'), (key) => {
  // its heatmap: in the same part, or (a legend of the widget's own) the part just before it
  const part = key.closest('.part') || key.closest('.legend-row').previousElementSibling;
  const svg = part.querySelector('svg.fig:not(.legend)');
  const byCorner = new Map();  // "x,y" of a cell's square -> the class path holding it
  for (const p of svg.querySelectorAll('path[data-seq]'))
    for (const m of (p.getAttribute('d') || '').matchAll(/M([\d.]+)[ ,]([\d.]+)/g))
      byCorner.set(`${+m[1]},${+m[2]}`, p);
  const cells = [];
  for (const c of svg.querySelectorAll('rect.cell')) {
    const say = c.getAttribute('data-say') || '';
    if (!say || c.hasAttribute('data-masked') || c.closest('[data-hidden]') || c.hasAttribute('data-hidden')) continue;
    const drawn = c.hasAttribute('data-seq') ? c
      : byCorner.get(`${+c.getAttribute('x')},${+c.getAttribute('y')}`);
    if (!drawn) continue;  // a masked cell: in the masked path
    cells.push({say, c: +drawn.getAttribute('data-seq'), fill: getComputedStyle(drawn).fill});
  }
  const swatches = Array.from(key.querySelectorAll('rect[data-seq]'), (r) => getComputedStyle(r).fill);
  return {widget: key.closest('[data-widget]').dataset.widget, cells, swatches,
          ends: Array.from(key.querySelectorAll('text'), (t) => t.textContent)};
})"""


def expected_classes(text):
    """The classes a weight read as `text` (its digits rounded) may have: k with
    k^2/81 <= w < (k+1)^2/81, for w anywhere within the text's rounding."""
    w, half = float(text), 0.5 * 10.0 ** -len(text.partition(".")[2])
    out = set()
    for v in (w - half, w + half):
        v = min(max(v, 0.0), 1.0)
        out.add(min(8, max(k for k in range(9) if k * k / 81 <= v)))
    return out


def rgb(css):
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def luminance(css):
    """WCAG relative luminance of an rgb() colour."""
    lin = [c / 255 for c in rgb(css)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in lin]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.fixture(scope="module")
def colour_page(browser, server):
    """One page for the module's three themes (the runtime boots once): no transitions, so a
    colour read just after the theme changes is its end colour."""
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module", params=["light", "dark", "dark-chosen"])
def theme(request, colour_page, server):
    """A page in the light theme, in the dark one (the system's setting), or in the dark one
    the reader chose on a light system (the toggle's data-theme)."""
    page = colour_page
    page.emulate_media(color_scheme="light" if request.param == "dark-chosen" else request.param)

    def open_page(href):
        page.goto(server + href)
        if request.param == "dark-chosen":
            page.evaluate("document.documentElement.dataset.theme = 'dark'")
            assert page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
        return page
    yield request.param, open_page


def test_every_attention_heatmap_uses_the_one_weight_scale(theme):
    scheme, open_page = theme
    drawn, fills = {}, {}
    for href in PAGES:
        for fig in open_page(href).evaluate(CELLS):
            drawn[fig["widget"]] = drawn.get(fig["widget"], 0) + 1
            assert fig["ends"] == ["0", "0.1", "0.5", "1"], (href, fig["widget"], fig["ends"])
            assert fig["cells"], (href, fig["widget"])
            for cell in fig["cells"]:
                w = cell["say"].rsplit("：", 1)[1]
                assert cell["c"] in expected_classes(w), (href, fig["widget"], cell)
                # one colour per class in every figure: the legend's swatch, the same everywhere
                assert cell["fill"] == fig["swatches"][cell["c"]], (href, fig["widget"], cell)
                assert fills.setdefault(cell["c"], cell["fill"]) == cell["fill"], (href, cell)
    assert drawn == WEIGHT_HEATMAPS
    assert len(fills) >= 6  # the figures use most of the scale: a soft head and sharp ones


def test_darker_is_larger_in_both_themes(theme):
    """The sequential map's classes get darker one by one, and the same classes keep their
    colours in the dark theme (the prose's words stay true, a head looks the same)."""
    scheme, open_page = theme
    page = open_page("04-attention.html")
    swatches = page.evaluate("""() => Array.from(
        document.querySelectorAll('svg.legend[data-scale=weights] rect[data-seq]'),
        (r) => getComputedStyle(r).fill)""")
    lum = [luminance(c) for c in swatches]
    assert all(a > b for a, b in zip(lum, lum[1:])), (scheme, swatches)
    assert lum[0] > 0.6 and lum[-1] < 0.06  # from a pale end to a dark one
    # the weights table in 数值 shades a weight as the heatmap colours it
    table = page.evaluate("""() => Array.from(
        document.querySelectorAll('table[data-matrix=weights] tbody tr:first-child td'),
        (td) => ({cls: td.className, title: td.title, bg: getComputedStyle(td).backgroundColor,
                  ink: getComputedStyle(td).color}))""")
    assert table
    for td in table:
        k = int(td["cls"][1:])
        assert k in expected_classes(td["title"]) and td["bg"] == swatches[k], td
        # its number stays readable on its colour (WCAG contrast >= 4.5)
        hi, lo = sorted((luminance(td["bg"]), luminance(td["ink"])), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5, td


def div_class(v, limit=ACTIVATION_LIMIT):
    """The diverging class of v on +-limit, by hand: 4 + the nearest quarter of the way."""
    t = max(-1.0, min(1.0, v / limit))
    return 4 + int(math.floor(t * 4 + 0.5))


def test_the_running_examples_embedding_is_one_picture(theme):
    scheme, open_page = theme
    page = open_page("03-embeddings.html")
    table = page.evaluate("""() => Array.from(
        document.querySelectorAll('[data-widget=embedding] .emb-table rect.cell:not([data-hidden])'),
        (c) => ({say: c.getAttribute('data-say'), c: +c.getAttribute('data-div'),
                 fill: getComputedStyle(c).fill}))""")
    editor = page.evaluate("""() => Array.from(
        document.querySelectorAll('[data-widget=example-editor] tbody:not(.ex-wq) .ex-cell'),
        (b) => ({v: +b.textContent, bg: getComputedStyle(b).backgroundColor}))""")
    swatches = page.evaluate("""() => Array.from(
        document.querySelectorAll('[data-widget=embedding] .emb-table svg.legend rect[data-div]'),
        (r) => getComputedStyle(r).fill)""")
    layer = open_page("07-encoder-layer.html").evaluate("""() => Array.from(
        document.querySelectorAll('[data-widget=encoder-layer] .enc-heat rect.cell:not([data-hidden])'),
        (c) => ({say: c.getAttribute('data-say'), c: +c.getAttribute('data-div'),
                 fill: getComputedStyle(c).fill}))""")
    colour = {}  # value -> the one colour every figure gives it
    for name, cells in (("table", table), ("layer", layer)):
        assert cells, name
        for cell in cells:
            v = float(cell["say"].rsplit("=" if name == "table" else "：", 1)[1])
            assert cell["c"] == div_class(v), (name, cell)
            if v in (0.0, 1.0):
                assert colour.setdefault(v, cell["fill"]) == cell["fill"], (name, cell)
    assert set(colour) == {0.0, 1.0}
    for cell in editor:
        assert cell["bg"] == colour[cell["v"]], (scheme, cell)
    # the diverging map: stronger (farther from its neutral middle) the farther from 0
    mid = rgb(swatches[4])
    dist = [math.dist(rgb(s), mid) for s in swatches]
    assert all(a > b for a, b in zip(dist[:4], dist[1:5])), (scheme, swatches)
    assert all(a < b for a, b in zip(dist[4:], dist[5:])), (scheme, swatches)


def test_query_key_and_value_each_have_their_colour(theme):
    scheme, open_page = theme
    colours = open_page("04-attention.html").evaluate("""() => ['q', 'k', 'v'].map((r) =>
        getComputedStyle(document.querySelector(
          `[data-widget=attention] table.role-${r} caption`)).color)""")
    assert len(set(colours)) == 3, colours
