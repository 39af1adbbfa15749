// No figure text smaller than MIN_PX on screen. A widget's SVG is drawn in its own units and
// scaled to its column, its text with it: on a 360 px phone a chart 560 units wide is drawn at
// about half size, so an 11-unit tick label would read at 6 px. Every text of a figure that
// would render under MIN_PX gets, in the figure's own units, the font size that renders at
// MIN_PX; the marks keep their places. Sizes follow the figure's width (a turned phone, a
// wider window) and hold for the static figures as for the live ones (the text elements are
// the templates'; views only change their content and attributes).
const MIN_PX = 11;
const declared = new WeakMap();  // text -> its font size from the stylesheets, in SVG units

// How many CSS pixels one unit of the text's coordinates is on screen (a hidden text's: its
// figure's; it may be shown at any moment).
function scaleOf(text, svg) {
  const m = text.getClientRects().length ? text.getScreenCTM() : svg.getScreenCTM();
  return m ? Math.hypot(m.a, m.b) : 1;
}

function fit(svg) {
  const texts = [...svg.querySelectorAll("text")];
  // read everything first, then write: one style and layout pass for the whole figure
  const sizes = texts.map((text) => {
    if (!declared.has(text)) declared.set(text, parseFloat(getComputedStyle(text).fontSize));
    const size = declared.get(text), scale = scaleOf(text, svg);
    return size * scale < MIN_PX && scale > 0 ? `${(MIN_PX / scale).toFixed(2)}px` : "";
  });
  texts.forEach((text, i) => { text.style.fontSize = sizes[i]; });
}

const observer = typeof ResizeObserver === "undefined" ? null
  : new ResizeObserver((entries) => entries.forEach((e) => fit(e.target)));

// Every figure of every widget inside `container` (the page, or the <main> of the page moved
// to: the figures of the page left are let go); an SVG inside another is sized with it.
export function keepTextReadable(container) {
  observer?.disconnect();
  container.querySelectorAll("[data-widget] svg").forEach((svg) => {
    if (!svg.parentElement.closest("svg")) observer?.observe(svg);
  });
}
