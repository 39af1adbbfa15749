// Widget vit-patches: choose the patch size P, click a patch of the photo (or move a cursor
// with the arrow keys and select with Enter/Space) to see the hand-made similarity head's row.
// pycore: pycore/widgets/vit_patches.py. Photo: 1 SVG unit = 1 pixel of the 224 x 224 image.
// Strip: one token every 20 px ([CLS] first); bars 24 px = the row's largest weight.
import { bindAll, liveWidget } from "./common.js";

const SIZE = 224;
const PITCH = 20;
const THUMB = 18;
const BAR = 24;
const BAR_BASE = 46;
const DIM = 0.8;  // opacity of the dark veil over a patch with weight 0
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent?.appendChild(node);
  return node;
}

function html(name, attrs = {}, text = "", parent = null) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== "") node.textContent = text;
  parent?.appendChild(node);
  return node;
}

const shadeClass = (x) => `s${Math.min(9, Math.max(0, Math.round(x * 9)))}`;
// Writes that leave an unchanged value alone (reading an attribute costs no layout; writing
// one, even the same value, makes the browser redo style for the element).
const setAttr = (node, name, value) => {
  const text = String(value);
  if (node.getAttribute(name) !== text) node.setAttribute(name, text);
};
const setText = (node, text) => {
  if (node.textContent !== text) node.textContent = text;
};
const placeRect = (rect, row, col, P) => {
  setAttr(rect, "x", col * P);
  setAttr(rect, "y", row * P);
  setAttr(rect, "width", P);
  setAttr(rect, "height", P);
};

// The bars of the strip as one path: a 14 px wide bar per token, BAR px for the largest weight.
const barsPath = (relative) => relative.map((x, i) =>
  `M${PITCH * (i + 1) + 3} ${(BAR_BASE - BAR * x).toFixed(2)}h14V${BAR_BASE}h-14z`).join("");

export function mount(root, runtime) {
  const photo = root.querySelector("svg.vit-photo");
  const grid = photo.querySelector(".vit-grid");
  const topRects = [...photo.querySelectorAll(".vit-top rect")];
  const selected = photo.querySelector(".vit-selected");
  const cursorRect = photo.querySelector(".vit-cursor");
  const strip = root.querySelector("svg.vit-strip");
  const stripWrap = root.querySelector(".vit-strip-wrap");
  const bars = strip.querySelector(".vit-bars");
  const stripSelected = strip.querySelector(".vit-strip-selected");
  const details = root.querySelector(".vit-table-wrap");
  const scroll = details.querySelector(".vit-scroll");
  const pButtons = [...root.querySelectorAll("[data-p]")];
  const slider = root.querySelector("[data-control=temperature]");
  const cursorRow = root.querySelector(".vit-cursor-row");
  const cursorCol = root.querySelector(".vit-cursor-col");
  const imageRef = `#${root.id}-img`;

  let cursor = JSON.parse(root.dataset.params).index;
  const side = (P) => SIZE / P;

  // Everything whose element count depends on P, built once per P (the page's own P comes
  // pre-rendered): patch veils, grid lines, thumbnails, ticks, the weights table. The SVG
  // groups of every P built so far stay in the page, all but the current one display="none"
  // (showing one again is one attribute; taking 784 thumbnails out and back in costs a full
  // layout of them). At most the current table is in the page: it holds the shown numbers.
  // `veil` and `shade` remember what each patch shows, so an update writes only what changed.
  const layers = new Map();
  const thumbsGroup = strip.querySelector(".vit-thumbs");
  const ticksGroup = strip.querySelector(".vit-ticks");

  function adopt(P) {
    const attn = photo.querySelector(".vit-attn");
    const table = scroll.querySelector("table");
    const cells = [...table.querySelectorAll("tbody td")];
    layers.set(P, {
      attn, veils: [...attn.children], veil: [...attn.children].map((r) => r.getAttribute("fill-opacity")),
      grid: grid.getAttribute("d"),
      thumbs: thumbsGroup.querySelector("[data-for-p]"),
      ticks: ticksGroup.querySelector("[data-for-p]"),
      table, cells, shade: cells.map((td) => td.className),
    });
  }

  function build(P) {
    const w = side(P);
    const n = w * w;
    const hidden = { display: "none", "data-for-p": P };
    const attn = el("g", { class: "vit-attn", ...hidden });
    for (let r = 0; r < w; r++) {
      for (let c = 0; c < w; c++) el("rect", { x: c * P, y: r * P, width: P, height: P }, attn);
    }
    let d = "";
    for (let k = 1; k < w; k++) d += `M0 ${k * P}H${SIZE}`;
    for (let k = 1; k < w; k++) d += `M${k * P} 0V${SIZE}`;

    const thumbs = el("g", hidden);
    const ticks = el("g", hidden);
    for (let i = 0; i < n; i++) {
      const [r, c] = [Math.floor(i / w), i % w];
      const x = PITCH * (i + 1);
      const thumb = el("svg", { x: x + 1, y: 1, width: THUMB, height: THUMB,
                                viewBox: `${c * P} ${r * P} ${P} ${P}` }, thumbs);
      el("use", { href: imageRef }, thumb);
      if (c === 0) {
        const t = el("text", { x: x + PITCH / 2, y: 64, "text-anchor": "middle" }, ticks);
        t.textContent = String(i);
      }
    }
    grid.before(attn);  // under the grid lines and the frames, like the pre-rendered one
    thumbsGroup.append(thumbs);
    ticksGroup.append(ticks);

    const table = html("table", { class: "matrix heat vit-weights", "data-matrix": `weights_p${P}`,
                                  "data-digits": P === 8 ? 4 : 3 });
    const headRow = html("tr", {}, "", html("thead", {}, "", table));
    html("th", { scope: "col" }, "", headRow);
    for (let c = 0; c < w; c++) html("th", { scope: "col" }, String(c), headRow);
    const body = html("tbody", {}, "", table);
    const cells = [];
    for (let r = 0; r < w; r++) {
      const tr = html("tr", {}, "", body);
      html("th", { scope: "row" }, String(r), tr);
      for (let c = 0; c < w; c++) cells.push(html("td", {}, "", tr));
    }
    const layer = { attn, veils: [...attn.children], veil: new Array(n).fill(null), grid: d,
                    thumbs, ticks, table, cells, shade: new Array(n).fill(null) };
    layers.set(P, layer);
    return layer;
  }

  const layer = (P) => layers.get(P) ?? build(P);

  let shownP = Number(photo.dataset.builtP);
  adopt(shownP);

  function swapIn(P, view) {
    const [was, now] = [layer(shownP), layer(P)];
    for (const part of ["attn", "thumbs", "ticks"]) {
      was[part].setAttribute("display", "none");
      now[part].removeAttribute("display");
    }
    grid.setAttribute("d", now.grid);
    const width = PITCH * view.n_tokens;
    strip.setAttribute("width", width);
    strip.setAttribute("viewBox", `0 0 ${width} 70`);
    shownP = P;
    photo.dataset.builtP = String(P);
    details.open = P !== 8;
    showTable(view);
  }

  // The weights table of the current P is in the page only while its <details> is open (at
  // P = 8 it starts closed: 784 cells that nobody sees need no numbers); opening it puts the
  // table in and fills it, and from then on every update fills it (liveWidget's bindAll).
  function showTable(view) {
    const want = details.open ? layer(shownP).table : null;
    const have = scroll.querySelector("table");
    if (want === have) return;
    have?.remove();
    if (want) {
      scroll.append(want);
      bindAll(scroll, view);
    }
  }

  // Bring the selected token into view once the frame is laid out, not inside the input event
  // (reading the strip's width right after the writes above would force a layout here).
  let scrollTo = null;
  function scrollStrip(index) {
    if (scrollTo === null) {
      requestAnimationFrame(() => {
        stripWrap.scrollLeft = Math.max(0, PITCH * (scrollTo + 1.5) - stripWrap.clientWidth / 2);
        scrollTo = null;
      });
    }
    scrollTo = index;
  }

  let [shownIndex, barsD] = [null, bars.getAttribute("d")];
  function draw(view) {
    const P = view.P;
    const moved = P !== shownP || view.index !== shownIndex;
    if (P !== shownP) swapIn(P, view);
    const { veils, veil, cells, shade } = layer(P);
    // each weight over the row's largest: 1 for the largest (veil, shade, bar height)
    const relative = view[`weights_p${P}`].flat().map((x) => x / view.max_weight);
    relative.forEach((x, i) => {
      const opacity = (DIM * (1 - x)).toFixed(3);
      if (veil[i] !== opacity) {
        veils[i].setAttribute("fill-opacity", opacity);
        veil[i] = opacity;
      }
      const cls = shadeClass(x);
      if (shade[i] !== cls) {
        cells[i].className = cls;
        shade[i] = cls;
      }
    });
    topRects.forEach((rect, k) => placeRect(rect, view.top_row[k], view.top_col[k], P));
    placeRect(selected, view.row, view.col, P);
    const d = barsPath(relative);
    if (d !== barsD) {
      bars.setAttribute("d", d);
      barsD = d;
    }
    setAttr(stripSelected, "x", PITCH * (view.index + 1));
    if (moved) scrollStrip(view.index);
    shownIndex = view.index;
  }

  function showCursor() {
    const P = widget.state.P;
    const w = side(P);
    const [r, c] = [Math.floor(cursor / w), cursor % w];
    placeRect(cursorRect, r, c, P);
    setText(cursorRow, String(r));
    setText(cursorCol, String(c));
  }

  const sync = (state) => {
    pButtons.forEach((b) => setAttr(b, "aria-pressed", Number(b.dataset.p) === state.P));
    if (Number(slider.value) !== state.temperature) slider.value = state.temperature;
    cursor = state.index;
    if (widget) showCursor();
  };
  let widget = null;
  widget = liveWidget(root, runtime, { draw, sync });
  showCursor();
  showTable(widget.view);
  details.addEventListener("toggle", () => showTable(widget.view));
  // Build the other patch sizes' layers while the page is idle, one per idle moment, and let
  // pycore compute (and cache) their patch features, so that even the first click on a P
  // button only swaps groups and computes one row.
  const idle = window.requestIdleCallback ?? ((task) => setTimeout(task, 300));
  const prebuild = (sizes) => sizes.length && idle(() => {
    const P = sizes[0];
    layer(P);
    // only a head start: the click computes again and reports any problem
    runtime.compute(root.dataset.widget, { ...widget.state, P, index: 0 }).catch(console.warn);
    prebuild(sizes.slice(1));
  });
  prebuild(pButtons.map((b) => Number(b.dataset.p)).filter((P) => !layers.has(P)));

  const live = () => root.dataset.state === "live";

  // The patch of the new grid that holds the centre of the old patch.
  function carry(index, oldP, newP) {
    const w = side(oldP);
    const y = Math.floor(index / w) * oldP + oldP / 2;
    const x = (index % w) * oldP + oldP / 2;
    return Math.floor(y / newP) * side(newP) + Math.floor(x / newP);
  }

  pButtons.forEach((b) => b.addEventListener("click", () => {
    const P = Number(b.dataset.p);
    if (P === widget.state.P) return;
    widget.update({ P, index: carry(widget.state.index, widget.state.P, P) });
  }));
  slider.addEventListener("input", () => widget.update({ temperature: Number(slider.value) }));

  photo.addEventListener("click", (event) => {
    if (!live()) return;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(photo.getScreenCTM().inverse());
    const P = widget.state.P;
    const w = side(P);
    const r = Math.min(w - 1, Math.max(0, Math.floor(p.y / P)));
    const c = Math.min(w - 1, Math.max(0, Math.floor(p.x / P)));
    photo.focus();
    widget.update({ index: r * w + c });
  });
  photo.addEventListener("keydown", (event) => {
    if (!live()) return;
    const w = side(widget.state.P);
    const [r, c] = [Math.floor(cursor / w), cursor % w];
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[event.key]) {
      event.preventDefault();
      const nr = Math.min(w - 1, Math.max(0, r + moves[event.key][0]));
      const nc = Math.min(w - 1, Math.max(0, c + moves[event.key][1]));
      cursor = nr * w + nc;
      showCursor();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      widget.update({ index: cursor });
    }
  });
  strip.addEventListener("click", (event) => {
    if (!live()) return;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(strip.getScreenCTM().inverse());
    const position = Math.floor(p.x / PITCH);
    const n = side(widget.state.P) ** 2;
    if (position >= 1 && position <= n) widget.update({ index: position - 1 });
  });
}
