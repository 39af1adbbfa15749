// No figure text smaller than MIN_PX on screen. A widget's SVG is drawn in its own units and
// scaled to its column, its text with it: on a 360 px phone a chart 560 units wide is drawn at
// about half size, so an 11-unit tick label would read at 6 px. Every text of a figure that
// would render under MIN_PX gets, in the figure's own units, the font size that renders at
// MIN_PX; the marks keep their places. Sizes follow the figure's width (a turned phone, a
// wider window) and hold for the static figures as for the live ones (the text elements are
// the templates'; views only change their content and attributes).
//
// Text that grows needs room the figure was not drawn with: twelve weights under twelve
// curves, eight bar names, an axis's first tick at the corner where the other axis ends. So
// after sizing, the labels of the kinds in THINNED that would run into a text already shown
// are hidden (data-thinned, figures.css), never shrunk. Each rule says which labels stay.
const MIN_PX = 11;
// Two labels of one kind closer than a word space and a bit read as one ("0.0840.082"); a
// label only has to clear a text of another kind (a tick beside an axis title).
const GAP_PX = 4;

// Kinds of label a figure can do without, in the order they give way (a later kind yields to
// an earlier one); every other text (a token of the sentence, an axis title, a value the
// widget is about) is shown whatever it runs into.
const THINNED = [
  // A number on a mark (a weight under its curve, a value over its bar): the largest first,
  // as the thickest curves and tallest bars are what the eye is on; a number left out is
  // read by pointing at (or tapping) its mark, and in the 数值 table.
  { selector: ".curves .weight, .bar .value", largestFirst: true },
  // The bars' names, in order: a row too tight for all keeps the first and then each next
  // one that clears the last kept (every other, every third), as an axis thins its ticks.
  // They come before the axes' ticks: the bars are what the chart is about, and a tick left
  // out is read from its grid line and its neighbours.
  { selector: ".bar .label" },
  // An axis's ticks, in the order they are drawn, the same way. The y axis is drawn first,
  // so where an x tick meets its lowest tick at the corner, the x tick gives way.
  { selector: ".tick-label" },
  // A reference arrow's name (the dashed original of a rotated vector) gives way to the
  // arrows the figure is about.
  { selector: ".arrow.ghost .arrow-label" },
];
const declared = new WeakMap();  // text -> its font size from the stylesheets, in SVG units

// How many CSS pixels one unit of the text's coordinates is on screen (a hidden text's: its
// figure's; it may be shown at any moment).
function scaleOf(text, svg) {
  const m = text.getClientRects().length ? text.getScreenCTM() : svg.getScreenCTM();
  return m ? Math.hypot(m.a, m.b) : 1;
}

// A shown text's box on screen: its advance width by its em height (`px`, the rendered font
// size) centred on its line box, whose ascender and descender room is not ink. null: not
// drawn (hidden, in a closed fold, empty).
function boxOf(text, px, kind) {
  if (!text.textContent.trim()) return null;
  const r = text.getBoundingClientRect();
  if (!r.width) return null;
  const mid = (r.top + r.bottom) / 2;
  return { left: r.left, right: r.right, top: mid - px / 2, bottom: mid + px / 2, kind };
}

const clash = (a, b) => {
  const gap = a.kind === b.kind ? GAP_PX : 0;
  return a.left - gap < b.right && b.left - gap < a.right && a.top < b.bottom && b.top < a.bottom;
};

// Which texts to hide: the texts of no THINNED kind are kept, then each kind's texts in turn
// (the largest number first, or in drawing order), each kept only if it clears every text
// kept so far.
function thinned(texts, px) {
  const kindOf = texts.map((t) => THINNED.findIndex((rule) => t.matches(rule.selector)));
  const boxes = texts.map((t, i) => boxOf(t, px[i], kindOf[i]));
  const kept = boxes.filter((b, i) => b && kindOf[i] < 0);
  const hide = new Set();
  THINNED.forEach((rule, kind) => {
    const row = texts.map((t, i) => i).filter((i) => kindOf[i] === kind && boxes[i]);
    if (rule.largestFirst) {
      const value = (i) => parseFloat(texts[i].textContent);
      row.sort((i, j) => (value(j) || 0) - (value(i) || 0) || i - j);
    }
    for (const i of row) {
      if (kept.some((b) => clash(boxes[i], b))) hide.add(texts[i]);
      else kept.push(boxes[i]);
    }
  });
  return hide;
}

// The figures' texts are sized and thinned together, in four passes over all of them: read
// every size, write every size, read every box, write every hidden mark. A figure fitted on its
// own would read after the last figure's writes, and each such read lays the page out again
// (at boot, every figure of a chapter in one task: a long task on a phone).
function fitAll(svgs) {
  svgs.forEach((svg) => waiting.delete(svg));
  const figures = svgs.map((svg) => {
    const texts = [...svg.querySelectorAll("text")];
    const px = [];
    const sizes = texts.map((text, i) => {
      if (!declared.has(text)) declared.set(text, parseFloat(getComputedStyle(text).fontSize));
      const size = declared.get(text), scale = scaleOf(text, svg);
      const small = size * scale < MIN_PX && scale > 0;
      px[i] = small ? MIN_PX : size * scale;
      return small ? `${Math.round(MIN_PX / scale * 100) / 100}px` : "";  // a CSS size, not a number the reader reads
    });
    return { texts, px, sizes };
  });
  for (const { texts, sizes } of figures) {
    texts.forEach((text, i) => {
      if (text.style.fontSize !== sizes[i]) text.style.fontSize = sizes[i];
    });
  }
  // the sizes apply at once (figures.css eases no font size): the boxes are the final ones
  const hidden = figures.map(({ texts, px }) => thinned(texts, px));
  figures.forEach(({ texts }, f) => texts.forEach((text) => {
    const hide = hidden[f].has(text);
    if (text.hasAttribute("data-thinned") !== hide) text.toggleAttribute("data-thinned", hide);
  }));
}

// A figure on screen is fitted in the frame that reports its size, or that follows a view's
// change of its labels (refitLater, below); the others wait, and are fitted a few at a time
// (figures until their texts pass TEXTS_PER_TASK: one layout for them), a task each: at boot,
// every figure below the first screen. Fitting a chapter's figures all at once was one long task on
// a phone, which holds a tap or a scroll (Lighthouse's Total Blocking Time). The waiting ones
// are all fitted a few tasks after that frame, long before a reader scrolls down to them.
const TEXTS_PER_TASK = 120;
const waiting = new Set();
let turn = 0;
function fitNextWaiting() {
  turn = 0;
  const next = [];
  let texts = 0;
  for (const svg of waiting) {
    if (next.length && texts > TEXTS_PER_TASK) break;
    next.push(svg);
    texts += svg.getElementsByTagName("text").length;
  }
  fitAll(next);
  if (waiting.size) turn = setTimeout(fitNextWaiting, 0);
}

const onScreen = (svg) => {
  const r = svg.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight;
};

function fitShownFirst(svgs) {
  const shown = svgs.map(onScreen);  // read before fitAll writes
  fitAll(svgs.filter((svg, i) => shown[i]));
  svgs.forEach((svg, i) => { if (!shown[i]) waiting.add(svg); });
  if (waiting.size && !turn) turn = setTimeout(fitNextWaiting, 0);
}

const observer = typeof ResizeObserver === "undefined" ? null
  : new ResizeObserver((entries) => fitShownFirst(entries.map((e) => e.target)));

// A view that changes a figure's labels (their numbers, places, which are hidden) thins the
// figure again, once per frame however many it changed. Not the font sizes, nor data-thinned:
// those are written here.
const changed = new Set();
let frame = 0;
function refitLater(svg) {
  changed.add(svg);
  frame ||= requestAnimationFrame(() => {
    frame = 0;
    const svgs = [...changed];
    changed.clear();
    fitShownFirst(svgs);
  });
}
const WATCHED = { subtree: true, childList: true, characterData: true,
                  attributeFilter: ["x", "y", "dx", "dy", "transform", "viewBox", "data-hidden"] };
let watchers = [];

// Every figure of every widget inside `container` (the page, or the <main> of the page moved
// to: the figures of the page left are let go); an SVG inside another is sized with it.
export function keepTextReadable(container) {
  observer?.disconnect();
  waiting.clear();
  watchers.forEach((w) => w.disconnect());
  watchers = [];
  container.querySelectorAll("[data-widget] svg").forEach((svg) => {
    if (svg.parentElement.closest("svg")) return;
    observer?.observe(svg);
    const watcher = new MutationObserver(() => refitLater(svg));
    watcher.observe(svg, WATCHED);
    watchers.push(watcher);
  });
}
