"""The dark theme reaches the browser's own parts (color-scheme), the system's setting as well
as the reader's choice; at 1280 x 900 every widget fits one screen, draws wider than the text
and keeps its chrome quiet. (A phone's width: test_phone.py.)"""
import pytest

@pytest.mark.parametrize("how", ["system", "toggle"])
def test_dark_reaches_the_browsers_own_parts(browser, server, how):
    context = browser.new_context(color_scheme="dark" if how == "system" else "light")
    page = context.new_page()
    page.goto(server + "04-attention.html")
    if how == "toggle":
        page.locator("[data-action=theme]").click()  # 跟随系统 -> 浅色
        page.locator("[data-action=theme]").click()  # -> 深色
    scheme = page.evaluate("getComputedStyle(document.documentElement).colorScheme")
    assert "dark" in scheme and "light" not in scheme.replace("dark", "")
    # a native control takes the dark scheme: its text is light
    colour = page.evaluate("getComputedStyle(document.querySelector('#tbook-search')).color")
    r, g, b = [int(x) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    assert min(r, g, b) > 150, f"the search box's text is {colour} in the dark theme"
    context.close()


# --- One screen, room to draw, quiet chrome (1280 x 900) --------------------------------------

DESKTOP = {"width": 1280, "height": 900}
# Widgets that stay taller than a 1280 x 900 screen, and why (the rest must fit it).
TALL = {}
# Widgets whose pictures stay narrower than the text column, and why.
NARROW = {
    "panorama": "the forward pass, taller than wide, as tall as a screen holds, beside the "
                "selected block's panel",
    "dot-product": "a square plane to drag two arrows on, beside its readout",
    "vit-patches": "a square photo cut into patches, beside its controls and the patch's words, "
                   "above the patch strip, in one screen",
    "chinchilla": "a log-log chart, drawn for 480 px, beside its presets, knobs and figures, in "
                  "one screen",
    "online-softmax": "the blocks beside the reading's equations and the memory's controls, "
                      "in one screen",
    "code-lab": "figures the reader's code draws, at the size the code gives",
    "char-gpt": "ten bars beside a text box and the characters read: wider, the continuation "
                "leaves the screen",
    "model-map": "a map taller than wide, as tall as the screen holds, beside its structure's "
                 "choice and name",
}

# Per widget on the page: its box, its pictures' (the book's figures, and canvases; no legend,
# nothing in a closed fold) horizontal span and area, and its chrome: the tools' boxes, the
# live state's mark.
MEASURE = """() => {
  const column = document.querySelector('.chapter > p').getBoundingClientRect().width;
  const seen = (el) => el.checkVisibility() && !el.closest('details:not([open])');
  return [...document.querySelectorAll('[data-widget]')].map((w) => {
    const box = w.getBoundingClientRect();
    const pictures = [...w.querySelectorAll('svg.fig:not(.legend), canvas')]
      .filter((p) => seen(p) && !p.parentElement.closest('svg')).map((p) => p.getBoundingClientRect());
    const tools = [...w.querySelectorAll('.widget-tools button')].filter((b) => b.checkVisibility())
      .map((b) => { const r = b.getBoundingClientRect(); return { top: r.top, h: r.height, text: b.textContent }; });
    const mark = (w.querySelector('.widget-live') ?? w.querySelector('.widget-status')).getBoundingClientRect();
    return { name: w.dataset.widget, id: w.id, height: box.height, width: box.width, column,
             span: pictures.length ? Math.max(...pictures.map((p) => p.right)) - Math.min(...pictures.map((p) => p.left)) : 0,
             area: pictures.reduce((a, p) => a + p.width * p.height, 0) / (box.width * box.height),
             tools, mark: { w: mark.width, h: mark.height },
             status: w.querySelector('.widget-status').textContent.trim(),
             note: w.querySelector('.widget-status').hasAttribute('data-note'),
             side: w.querySelector('.widget-body[data-columns=side]') && {
               picture: w.querySelector('.widget-body > [data-column="1"]').getBoundingClientRect().toJSON(),
               words: w.querySelector('.widget-body > .side').getBoundingClientRect().toJSON() } };
  }); }"""
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def measured(page):
    """MEASURE of every widget of page at 1280 x 900 (a page of the session's, given back at
    its own size)."""
    size = page.viewport_size
    page.set_viewport_size(DESKTOP)
    try:
        page.evaluate(FRAMES)
        return page.evaluate(MEASURE)
    finally:
        page.set_viewport_size(size)


def widget_chapters():
    from tests.browser.conftest import ROOT
    from pathlib import Path
    return [p.with_suffix(".html").name for p in sorted((Path(ROOT) / "book").glob("*.md"))
            if "```widget" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("chapter", widget_chapters())
def test_every_widget_fits_one_screen_and_draws_wider_than_the_text(book_pages, chapter):
    """At 1280 x 900 every widget is at most a screen tall (but those of TALL, which say why),
    wider than the text, its pictures span at least the text column (but those of NARROW),
    and its chrome is quiet: the live state one
    small mark (its words still read out), the tools one row whose buttons never wrap."""
    widgets = measured(book_pages.open(chapter).page)
    assert widgets
    for w in widgets:
        where = f"{chapter} {w['id']}"
        if w["name"] not in TALL:
            assert w["height"] <= DESKTOP["height"], f"{where}: {w['height']:.0f} px tall"
        assert w["width"] > w["column"], f"{where}: {w['width']:.0f} px, no wider than the text"
        if w["span"] and w["name"] not in NARROW:
            assert w["span"] >= w["column"] - 1, \
                f"{where}: its pictures span {w['span']:.0f} px, the text {w['column']:.0f} px"
        tops = {round(t["top"]) for t in w["tools"]}
        assert len(w["tools"]) == 3 and len(tops) == 1, f"{where}: tools {w['tools']}"
        assert max(t["h"] for t in w["tools"]) < 1.6 * min(t["h"] for t in w["tools"]), \
            f"{where}: a tool's words wrap: {w['tools']}"
        assert w["status"] and not w["note"], f"{where}: the state says {w['status']!r}"
        assert w["mark"]["w"] <= 20 and w["mark"]["h"] <= 20, f"{where}: the state's mark {w['mark']}"
        if w["side"]:  # a picture beside what moves it: the controls' column on its right, level with it
            pic, words = w["side"]["picture"], w["side"]["words"]
            assert words["left"] >= pic["right"] - 1 and words["top"] < pic["bottom"] \
                and pic["top"] < words["bottom"], f"{where}: controls {words}, picture {pic}"


def test_a_widget_narrower_than_a_chapters_keeps_its_picture_whole(browser, server):
    """The columns follow the widget's own width, not the window's (figures.css, a container
    query): the whole book on one page (print.html), read on a 1280 px screen, shows its
    widgets in its 736 px column, and there no picture gets the controls' column beside it,
    which would squeeze the picture into half of that."""
    page = browser.new_page(viewport=DESKTOP)
    try:
        page.goto(server + "print.html")
        sides = page.evaluate("""() => [...document.querySelectorAll(
            '.widget-body[data-columns=side] > .side')].map((side) => ({
              widget: side.closest('[data-widget]').dataset.widget,
              width: side.closest('.widget').getBoundingClientRect().width,
              display: getComputedStyle(side).display }))""")
    finally:
        page.close()
    assert len(sides) >= 20
    assert all(s["width"] < 800 and s["display"] == "contents" for s in sides), \
        [s for s in sides if s["display"] != "contents"]
