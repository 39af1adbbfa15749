"""A phone (360 x 740, touch): no page of the book scrolls sideways and every control of every
widget is a 44 px target; a figure's readout is worded for a finger (for a mouse on a desktop);
a jump to an anchor lands below the sticky top bar; a tap on a term or a citation opens its
card first and follows the link only on a second tap; back to top is a small round button that
covers no control; no figure text is drawn under 11 px; train-live's axis title sits clear of
its tick labels; no two texts of a widget's figure overlap, on a phone and on a desktop's
width; the landing page numbers each chapter once. Each page is opened once, in one touch
context for the module."""
from pathlib import Path

import pytest

from tests.browser.conftest import ROOT, BookPage
from tests.browser.harness import page_names

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}

# Every control a reader touches: visible, enabled, not inside a closed 数值 fold.
TARGETS = """() => [...document.querySelectorAll(
    '.widget :is(button, input, select, textarea, [role=radio], [role=switch], [role=spinbutton])')]
  .filter(el => el.offsetParent !== null && !el.closest('details:not([open])'))
  .map(el => { const b = el.getBoundingClientRect();
               return { what: el.outerHTML.slice(0, 90), w: b.width, h: b.height }; })"""
MIN_TEXT_PX = 11
SOURCES = sorted(Path(ROOT, "book").glob("*.md"))
PAGES = [p.with_suffix(".html").name for p in SOURCES]
# every chapter with a widget
CHAPTERS = [p.with_suffix(".html").name for p in SOURCES
            if "```widget" in p.read_text(encoding="utf-8")]
DESKTOP = {"width": 1280, "height": 900}
OVERLAP_PX = 1  # two boxes may share this much (antialiasing, rounding) and still not touch

# Every text of every widget figure on screen: its rendered font size (CSS px: the font size
# in the figure's units times the figure's scale) and its box.
FIGURE_TEXTS = """() => [...document.querySelectorAll('[data-widget] svg text')]
  .filter((t) => t.checkVisibility() && t.textContent.trim())  // not in a closed fold
  .map((t) => { const m = t.getScreenCTM(), s = Math.hypot(m.a, m.b);
                return { widget: t.closest('[data-widget]').dataset.widget, text: t.textContent,
                         px: parseFloat(getComputedStyle(t).fontSize) * s }; })"""
SMALLEST_AT_LEAST = """(min) => [...document.querySelectorAll('[data-widget] svg text')]
  .filter((t) => t.checkVisibility())
  .every((t) => parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a,
                                                                       t.getScreenCTM().b) >= min)"""


# Every pair of visible texts of a widget's figures whose boxes overlap by more than `tolerance`
# px both ways. A text's box is its advance width by its em height (the rendered font size),
# centred on its line box: a line box also holds the font's ascender and descender room,
# which is not ink (Noto Sans CJK's is 1.45 em tall), so two rows of labels 1.2 em apart
# touch as line boxes but not on screen. A figure that clips (overflow: hidden, a heatmap
# framing its used slots) hides what lies outside it: only the part of a box inside counts.
# No figure draws a text over another on purpose (a halo, an outline copy): every pair counts.
TEXT_OVERLAPS = """(tolerance) => {
  const boxOf = (t) => {
    const r = t.getBoundingClientRect(), m = t.getScreenCTM();
    const em = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    const mid = (r.top + r.bottom) / 2;
    const b = { left: r.left, right: r.right, top: mid - em / 2, bottom: mid + em / 2 };
    for (let svg = t.ownerSVGElement; svg; svg = svg.ownerSVGElement) {
      if (getComputedStyle(svg).overflow === 'visible') continue;
      const f = svg.getBoundingClientRect();
      Object.assign(b, { left: Math.max(b.left, f.left), right: Math.min(b.right, f.right),
                         top: Math.max(b.top, f.top), bottom: Math.min(b.bottom, f.bottom) });
    }
    return b.right - b.left > 0 && b.bottom - b.top > 0 ? b : null;
  };
  const found = [];
  for (const widget of document.querySelectorAll('[data-widget]')) {
    const texts = [...widget.querySelectorAll('svg text')].filter((t) => t.textContent.trim()
      && t.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      .map((t) => ({ t, b: boxOf(t) })).filter((x) => x.b);
    texts.forEach(({ t, b }, i) => texts.slice(i + 1).forEach(({ t: u, b: c }) => {
      const w = Math.min(b.right, c.right) - Math.max(b.left, c.left);
      const h = Math.min(b.bottom, c.bottom) - Math.max(b.top, c.top);
      if (w > tolerance && h > tolerance)
        found.push(`${widget.dataset.widget}: "${t.textContent}" (${t.getAttribute('class')}) and `
                   + `"${u.textContent}" (${u.getAttribute('class')}) share ${w.toFixed(1)} x ${h.toFixed(1)} px`);
    }));
  }
  return found; }"""
# after a resize: the figures' texts refitted (a ResizeObserver, then at most a frame)
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.fixture(scope="module")
def phone(browser, server):
    """open(href) -> that page in a phone's touch context, opened once for the module."""
    context = browser.new_context(**PHONE)
    opened = {}

    def open_page(href):
        if href not in opened:
            opened[href] = BookPage(context, server, href).page
        return opened[href]

    open_page.context = context
    yield open_page
    context.close()


@pytest.mark.parametrize("chapter", PAGES)
def test_no_page_scrolls_sideways_and_every_control_is_a_finger_wide(phone, chapter):
    page = phone(chapter)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{chapter}: the page is {width} px wide at 360 px"
    small = [t for t in page.evaluate(TARGETS) if t["w"] < 43.5 or t["h"] < 43.5]
    assert not small, f"{chapter}: targets under 44 px: {small[:5]}"


def test_a_readout_speaks_to_the_pointer_in_use(phone, browser, server):
    """A figure's readout line, before anything is pointed at, is worded for a finger on a
    touch screen (轻点, no Tab) and for a mouse on a desktop; pointing at a cell says its value,
    and leaving it brings back the pointer's own words."""
    readouts = ".widget [data-readout]"
    page = phone("04-attention.html")
    said = [t for t in page.locator(readouts).all_inner_texts() if t]
    assert said and all("轻点" in t and "指向" not in t and "Tab" not in t for t in said), said
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    page = BookPage(desk, server, "04-attention.html").page
    line = page.locator('[data-widget="attention"] [data-readout]')
    idle = line.inner_text()
    assert idle.startswith("指向") and "轻点" not in idle
    cell = page.locator('[data-widget="attention"] .heat rect.cell:not([data-hidden])').first
    cell.hover()
    assert line.inner_text() == cell.get_attribute("data-say")
    page.mouse.move(0, 0)  # out of the widget
    assert line.inner_text() == idle
    desk.close()


def test_the_index_and_the_embed_pages_fit_a_phone(phone, server, site):
    for href in page_names(site):
        if href.endswith(".html") and not href[:2].isdigit():
            page = BookPage(phone.context, server, href).page  # closed after: 55 embed pages
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{href}: {width} px wide at 360 px"
            page.close()


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def test_a_jump_to_an_anchor_lands_below_the_top_bar(phone):
    page = phone("04-attention.html")
    anchors = page.evaluate("[...document.querySelectorAll('.chapter h2[id], .chapter h3[id]')]"
                            ".map((h) => h.id)")
    assert len(anchors) > 2
    for anchor in (anchors[1], anchors[-1]):
        page.evaluate("(id) => { location.hash = '#' + encodeURIComponent(id); }", anchor)
        bar = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
        top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top",
                            anchor)
        assert top >= bar, f"#{anchor}: its top at {top} px is under the bar (ends at {bar} px)"
    # the chapter's own contents (folded on a phone): a tap on a section
    page.locator(".page-toc.fold summary").tap()
    link = page.locator(".page-toc.fold a").nth(2)
    target = link.get_attribute("href")[1:]
    link.tap()
    page.wait_for_function("(id) => decodeURIComponent(location.hash.slice(1)) === id", arg=target)
    top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", target)
    assert top >= box(page, ".topbar")["y"] + box(page, ".topbar")["height"]


def test_back_to_top_is_small_and_covers_no_control(phone):
    page = phone("04-attention.html")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    button = page.locator(".to-top")
    page.wait_for_function("getComputedStyle(document.querySelector('.to-top')).visibility"
                           " === 'visible'")
    b = button.bounding_box()
    assert 44 <= b["width"] <= 48 and 44 <= b["height"] <= 48, b
    # nothing a reader touches lies under it, wherever the page is scrolled
    covered = page.evaluate("""() => {
      const hits = [];
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        window.scrollTo(0, y);
        const t = document.querySelector('.to-top').getBoundingClientRect();
        if (getComputedStyle(document.querySelector('.to-top')).visibility !== 'visible') continue;
        for (const el of document.querySelectorAll('main :is(a, button, input, select, textarea, [tabindex])')) {
          const r = el.getBoundingClientRect();
          if (r.width && r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top)
            hits.push(el.outerHTML.slice(0, 80));
        }
      }
      return hits; }""")
    assert not covered, covered[:5]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_figure_text_is_drawn_under_11_px(phone, chapter):
    page = phone(chapter)
    try:  # font sizes ease in (160 ms): wait for them, then report what is still small
        page.wait_for_function(SMALLEST_AT_LEAST, arg=MIN_TEXT_PX - 0.05, timeout=5_000)
    except Exception:
        pass
    texts = page.evaluate(FIGURE_TEXTS)
    assert texts, f"{chapter}: no figure text found"
    small = [t for t in texts if t["px"] < MIN_TEXT_PX - 0.05]
    assert not small, f"{chapter}: {len(small)} texts under {MIN_TEXT_PX} px: {small[:6]}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_two_figure_texts_overlap(phone, chapter):
    """On a phone, and the same page at a desktop's width (the touch context resized: the
    pointer stays coarse, which changes no figure)."""
    page = phone(chapter)
    page.evaluate(FRAMES)
    on_phone = page.evaluate(TEXT_OVERLAPS, OVERLAP_PX)
    page.set_viewport_size(DESKTOP)
    try:
        page.evaluate(FRAMES)
        on_desktop = page.evaluate(TEXT_OVERLAPS, OVERLAP_PX)
    finally:
        page.set_viewport_size(PHONE["viewport"])
        page.evaluate(FRAMES)
    assert not on_phone, f"{chapter} at 360 px: {len(on_phone)} overlaps: {on_phone[:8]}"
    assert not on_desktop, f"{chapter} at 1280 px: {len(on_desktop)} overlaps: {on_desktop[:8]}"


# The weights of every curves figure in a widget: each shown or left out (data-thinned).
WEIGHTS = """(root) => [...root.querySelectorAll('svg.curves')].map((svg) =>
  [...svg.querySelectorAll('.weight')].filter((t) => t.checkVisibility())
    .map((t) => ({ value: parseFloat(t.textContent), shown: !t.hasAttribute('data-thinned') })))"""


def test_a_new_view_thins_its_labels_again_keeping_the_largest_weight(phone):
    page = phone("13b-trained-model.html")
    root = page.locator('[data-widget="learned-vs-handmade"]')
    heads = root.locator('[data-control="head"] [role=radio]')
    assert heads.count() > 2
    for k in range(3):
        before = root.evaluate(WEIGHTS)
        heads.nth(k).tap()
        page.evaluate(FRAMES)
        figures = root.evaluate(WEIGHTS)
        assert k == 0 or figures != before, "another head, the same weights"
        # the learned head's twelve weights do not all fit a phone's width
        assert any(not w["shown"] for weights in figures for w in weights), figures
        for weights in figures:
            largest = max(w["value"] for w in weights)
            assert all(w["shown"] for w in weights if w["value"] == largest), weights
        overlaps = [o for o in page.evaluate(TEXT_OVERLAPS, OVERLAP_PX)
                    if o.startswith("learned-vs-handmade")]
        assert not overlaps, overlaps


def test_train_live_axis_title_clears_its_tick_labels(phone):
    page = phone("13b-trained-model.html")
    overlaps = page.evaluate("""() => [...document.querySelectorAll(
        '[data-widget="train-live"] svg.line-chart')].flatMap((svg) => {
      const title = svg.querySelector('.axis-label[text-anchor=end]').getBoundingClientRect();
      return [...svg.querySelectorAll('.tick-label')].filter((t) => {
        const r = t.getBoundingClientRect();
        return r.width && r.left < title.right && r.right > title.left
          && r.top < title.bottom && r.bottom > title.top;
      }).map((t) => t.textContent); })""")
    assert not overlaps, f"the x axis's title overlaps the tick labels {overlaps}"


def test_the_landing_page_shows_one_number_per_chapter(phone):
    page = phone("index.html")
    first = page.locator(".landing .outline li").first
    assert first.inner_text().startswith("0.")
    assert first.evaluate("(li) => getComputedStyle(li).listStyleType") == "none"


def test_a_tap_opens_the_card_and_a_second_tap_follows_the_link(phone):
    page = phone("04-attention.html")  # its last test: the page moves to the glossary
    card = page.locator("#tbook-popover")
    term = page.locator(".chapter a.term").first
    term.scroll_into_view_if_needed()
    term.tap()
    card.wait_for(state="visible")
    assert "04-attention.html" in page.url and "glossary" not in page.url, page.url
    assert term.get_attribute("data-def").split("：", 1)[1][:10] in card.inner_text()
    # a tap elsewhere closes it, and so does Esc
    page.locator(".chapter h1").tap()
    card.wait_for(state="hidden")
    term.tap()
    card.wait_for(state="visible")
    page.keyboard.press("Escape")
    card.wait_for(state="hidden")
    # a citation: its reference, then its own link in the card jumps to it
    cite = page.locator(".chapter a.cite-ref").first
    cite.scroll_into_view_if_needed()
    cite.tap()
    card.wait_for(state="visible")
    assert "#ref-" not in page.url
    card.locator(".popover-go").tap()
    page.wait_for_function("location.hash.startsWith('#ref-')")
    card.wait_for(state="hidden")
    # the term again: first tap the card, second tap the glossary
    term.scroll_into_view_if_needed()
    term.tap()
    card.wait_for(state="visible")
    term.tap()
    page.wait_for_url("**/glossary.html#term-*")


# Per widget: after its first control is scrolled into view (below the top bar), the control
# and its picture (its largest figure) both on screen, the picture by at least SEEN_PX of its
# height (all of it when shorter); failing that, with the picture scrolled to the middle of
# the screen, the control still on screen (a control bar that stays: figures.css).
SEEN_PX = 120
# Widgets whose control and picture are apart on a phone, and why.
APART = {"code-lab": "its control is the code: the reader edits and runs it, then scrolls to "
                     "what it drew"}
TOGETHER = """async ([seenPx, apart]) => {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const shown = (el) => el.checkVisibility() && !el.closest('details:not([open])');
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  const onScreen = (el) => { const r = el.getBoundingClientRect();
                             return r.top >= bar - 1 && r.bottom <= innerHeight + 1; };
  const seen = (el) => { const r = el.getBoundingClientRect();
                         return Math.min(r.bottom, innerHeight) - Math.max(r.top, bar)
                                >= Math.min(seenPx, r.height) - 1; };
  const out = [];
  for (const w of document.querySelectorAll('[data-widget]')) {
    if (apart.includes(w.dataset.widget)) continue;
    const control = [...w.querySelectorAll(
      '.widget-body :is([data-control], button, input, select, textarea, [tabindex="0"])')]
      .find(shown);
    const pictures = [...w.querySelectorAll('svg.fig:not(.legend), canvas')]
      .filter((p) => shown(p) && !p.parentElement.closest('svg'));
    if (!control || !pictures.length) continue;
    const area = (p) => { const r = p.getBoundingClientRect(); return r.width * r.height; };
    const picture = pictures.reduce((a, b) => (area(b) > area(a) ? b : a));
    control.scrollIntoView({ block: 'start' });
    scrollBy(0, -(bar + 8));
    await frames();
    let together = onScreen(control) && seen(picture);
    if (!together) {
      picture.scrollIntoView({ block: 'center' });
      await frames();
      together = onScreen(control) && seen(picture);
    }
    if (!together) out.push(`${w.id}: ${control.outerHTML.slice(0, 60)} and its picture `
                            + `${picture.getAttribute('class')} are not on screen together`);
  }
  return out; }"""


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_control_and_its_picture_are_on_screen_together(phone, chapter):
    page = phone(chapter)
    apart = page.evaluate(TOGETHER, [SEEN_PX, list(APART)])
    page.evaluate("window.scrollTo(0, 0)")
    assert not apart, f"{chapter}: {apart}"


def test_train_live_chips_do_not_touch_and_its_percent_stays_whole(phone):
    """The sentence's tokens over train-live's curves keep a gap between them at 360 px, and
    the accuracy's number keeps its unit on its line (0.0 %)."""
    page = phone("13b-trained-model.html")
    rows = page.evaluate("""() => {
      const rows = {};
      for (const t of document.querySelectorAll('[data-widget="train-live"] svg.curves text.token')) {
        if (!t.checkVisibility() || !t.textContent.trim()) continue;
        const r = t.getBoundingClientRect();
        (rows[t.getAttribute('class')] ??= []).push([t.textContent, r.left, r.right]);
      }
      return Object.values(rows); }""")
    assert rows
    for row in rows:
        row.sort(key=lambda t: t[1])
        gaps = [(a[0], b[0], b[1] - a[2]) for a, b in zip(row, row[1:])]
        assert min(g for _, _, g in gaps) >= 4, f"tokens closer than 4 px: {gaps}"
    lines = page.locator('[data-widget="train-live"] .key-figure .big').evaluate(
        "el => el.getClientRects().length")
    assert lines == 1, "the accuracy's number and its % are on two lines"
