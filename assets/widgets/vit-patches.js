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
const placeRect = (rect, row, col, P) => {
  rect.setAttribute("x", col * P);
  rect.setAttribute("y", row * P);
  rect.setAttribute("width", P);
  rect.setAttribute("height", P);
};

export function mount(root, runtime) {
  const photo = root.querySelector("svg.vit-photo");
  const attn = photo.querySelector(".vit-attn");
  const grid = photo.querySelector(".vit-grid");
  const topRects = () => [...photo.querySelectorAll(".vit-top rect")];
  const selected = photo.querySelector(".vit-selected");
  const cursorRect = photo.querySelector(".vit-cursor");
  const strip = root.querySelector("svg.vit-strip");
  const stripWrap = root.querySelector(".vit-strip-wrap");
  const thumbs = strip.querySelector(".vit-thumbs");
  const bars = strip.querySelector(".vit-bars");
  const ticks = strip.querySelector(".vit-ticks");
  const stripSelected = strip.querySelector(".vit-strip-selected");
  const details = root.querySelector(".vit-table-wrap");
  const pButtons = [...root.querySelectorAll("[data-p]")];
  const slider = root.querySelector("[data-control=temperature]");
  const cursorRow = root.querySelector(".vit-cursor-row");
  const cursorCol = root.querySelector(".vit-cursor-col");
  const imageRef = `#${root.id}-img`;

  let builtP = Number(photo.dataset.builtP);
  let cursor = JSON.parse(root.dataset.params).index;
  let [shownIndex, shownP] = [null, null];
  const side = (P) => SIZE / P;

  // Everything whose element count depends on P: patch veils, grid lines, strip, table.
  function build(view) {
    const { P, grid_h: h, grid_w: w, n_tokens: nTokens } = view;
    attn.replaceChildren();
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) el("rect", { x: c * P, y: r * P, width: P, height: P }, attn);
    }
    let d = "";
    for (let k = 1; k < h; k++) d += `M0 ${k * P}H${SIZE}`;
    for (let k = 1; k < w; k++) d += `M${k * P} 0V${SIZE}`;
    grid.setAttribute("d", d);

    const width = PITCH * nTokens;
    strip.setAttribute("width", width);
    strip.setAttribute("viewBox", `0 0 ${width} 70`);
    thumbs.querySelectorAll("svg").forEach((s) => s.remove());
    bars.replaceChildren();
    ticks.querySelectorAll("text:not(:first-child)").forEach((t) => t.remove());
    for (let i = 0; i < h * w; i++) {
      const [r, c] = [Math.floor(i / w), i % w];
      const x = PITCH * (i + 1);
      const thumb = el("svg", { x: x + 1, y: 1, width: THUMB, height: THUMB,
                                viewBox: `${c * P} ${r * P} ${P} ${P}` }, thumbs);
      el("use", { href: imageRef }, thumb);
      el("rect", { x: x + 3, y: BAR_BASE, width: 14, height: 0 }, bars);
      if (c === 0) {
        const t = el("text", { x: x + PITCH / 2, y: 64, "text-anchor": "middle" }, ticks);
        t.textContent = String(i);
      }
    }

    const digits = P === 8 ? 4 : 3;
    const table = html("table", { class: "matrix heat vit-weights", "data-matrix": `weights_p${P}`,
                                  "data-digits": digits });
    const headRow = html("tr", {}, "", html("thead", {}, "", table));
    html("th", { scope: "col" }, "", headRow);
    for (let c = 0; c < w; c++) html("th", { scope: "col" }, String(c), headRow);
    const body = html("tbody", {}, "", table);
    for (let r = 0; r < h; r++) {
      const tr = html("tr", {}, "", body);
      html("th", { scope: "row" }, String(r), tr);
      for (let c = 0; c < w; c++) html("td", {}, "", tr);
    }
    const scroll = details.querySelector(".vit-scroll");
    scroll.replaceChildren(table);
    bindAll(scroll, view);
    details.open = P !== 8;
    builtP = P;
    photo.dataset.builtP = String(P);
  }

  function draw(view) {
    if (view.P !== builtP) build(view);
    const P = view.P;
    [...attn.children].forEach((rect, i) => {
      rect.setAttribute("fill-opacity", (DIM * (1 - view.relative[i])).toFixed(3));
    });
    topRects().forEach((rect, k) => placeRect(rect, view.top_row[k], view.top_col[k], P));
    placeRect(selected, view.row, view.col, P);
    [...bars.children].forEach((rect, i) => {
      const height = BAR * view.relative[i];
      rect.setAttribute("y", (BAR_BASE - height).toFixed(2));
      rect.setAttribute("height", height.toFixed(2));
    });
    stripSelected.setAttribute("x", PITCH * (view.index + 1));
    if (view.index !== shownIndex || view.P !== shownP) {  // bring the selected token into view
      stripWrap.scrollLeft = Math.max(0, PITCH * (view.index + 1.5) - stripWrap.clientWidth / 2);
      [shownIndex, shownP] = [view.index, view.P];
    }
    root.querySelectorAll(".vit-weights tbody td").forEach((td, i) => {
      td.className = shadeClass(view.relative[i]);
    });
  }

  function showCursor() {
    const P = widget.state.P;
    const w = side(P);
    const [r, c] = [Math.floor(cursor / w), cursor % w];
    placeRect(cursorRect, r, c, P);
    cursorRow.textContent = String(r);
    cursorCol.textContent = String(c);
  }

  const sync = (state) => {
    pButtons.forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.p) === state.P)));
    slider.value = state.temperature;
    cursor = state.index;
    if (widget) showCursor();
  };
  let widget = null;
  widget = liveWidget(root, runtime, { draw, sync });
  showCursor();

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
