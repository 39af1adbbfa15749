// Widget vit-patches: choose the patch size P, click a patch of the photo (or move a cursor
// with the arrow keys and select with Enter/Space) to see the hand-made similarity head's row.
// pycore: pycore/widgets/vit_patches/__init__.py (numbers and picture: the overlay, frames, strip). The
// temperature slider and everything drawn are the book's common ones (liveWidget binds them).
// What is special here, and only that:
// - choosing P also carries the selection to the new grid (the view's `carry`: the patch under
//   the old one's centre), so the P buttons are wired here rather than by controls.js;
// - the photo and the strip map a pointer to a patch (the view's cell size and token pitch),
//   and the photo has a cursor the arrow keys move without asking pycore;
// - the weights table in 数值 has one cell per patch: each P's table is built once, from the
//   view's grid size, and a large one is in the page only while 数值 is open;
// - the view comes in parts: what depends on P alone (grid, strip) comes when P changes;
// - a P's weights table is built when its view is here: its texts are asked for with it.
import { TEXTS, bindAll, firstView, liveWidget } from "./common.js";
import { roving, updateWith, wireButton } from "./controls.js";

// The texts of P's weights table (bind.js textsWanted), at its decimals.
const weightsTexts = (P, digits) => `weights_p${P}:${digits}`;

function table(view) {
  const make = (tag, attrs = {}, text = "") => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== "") e.textContent = text;
    return e;
  };
  const t = make("table", { class: "matrix vit-weights", "data-matrix": `weights_p${view.P}`,
                            "data-digits": view.table_digits });
  t.append(make("caption", {}, "整行权重，按网格排列（每格一个图块）"));
  const head = make("tr");
  head.append(make("th", { scope: "col" }));
  for (let c = 0; c < view.grid_w; c++) head.append(make("th", { scope: "col" }, String(c)));
  const body = make("tbody");
  for (let r = 0; r < view.grid_h; r++) {
    const tr = make("tr");
    tr.append(make("th", { scope: "row" }, String(r)));
    for (let c = 0; c < view.grid_w; c++) tr.append(make("td"));
    body.append(tr);
  }
  t.append(make("thead"), body);
  t.tHead.append(head);
  return t;
}

export function mount(root, runtime) {
  const photo = root.querySelector("svg.vit-photo");
  const cursorRect = photo.querySelector(".vit-cursor");
  const strip = root.querySelector("svg.vit-strip");
  const stripWrap = root.querySelector(".vit-strip-wrap");
  const stripSelected = strip.querySelector(".vit-strip-selected");
  const numbers = root.querySelector("details.numbers");
  const scroll = root.querySelector(".vit-scroll");
  const cursorText = (name) => root.querySelector(`.vit-cursor-${name}`);
  const sizes = root.querySelector("[data-control=P]");
  const sizeButtons = () => [...sizes.querySelectorAll("[data-value]")];
  sizes.removeAttribute("data-kind");  // wired here (see above), not by controls.js

  const tables = new Map([[JSON.parse(root.dataset.params).P, scroll.querySelector("table")]]);
  const tableFor = (view) => tables.get(view.P) ?? tables.set(view.P, table(view)).get(view.P);
  function showTable(view) {
    const want = numbers.open || !view.table_on_demand ? tableFor(view) : null;
    const have = scroll.querySelector("table");
    if (want === have) return;
    have?.remove();
    if (want) {
      scroll.append(want);
      bindAll(scroll, view);
    }
  }

  let widget = null;
  let current = null;  // the view on screen (its parts laid over each other)
  const tableDigits = JSON.parse(scroll.dataset.tableDigits);  // P -> its table's decimals
  const withTable = {
    compute: (name, params, texts, ...rest) => runtime.compute(
      name, params, [...new Set([...texts, weightsTexts(params.P, tableDigits[params.P])])],
      ...rest),
  };

  // The cursor: a patch the pointer is over, or the arrow keys moved to.
  let cursor = JSON.parse(root.dataset.params).index;
  function showCursor() {
    const v = current;
    if (!v) return;
    const [r, c] = [Math.floor(cursor / v.grid.n), cursor % v.grid.n];
    const { edges, cell } = v.grid;
    const place = { x: edges[c], y: edges[r], width: cell, height: cell };
    for (const [k, value] of Object.entries(place)) cursorRect.setAttribute(k, value);
    cursorText("row").textContent = String(r);
    cursorText("col").textContent = String(c);
    // a weight's title in the table: 4 decimals
    cursorText("weight").textContent = v[TEXTS][weightsTexts(v.P, v.table_digits)].title[r][c];
  }

  // Bring the selected token into view once the frame is laid out, not inside the input event.
  let scrollPending = false;
  function scrollStrip() {
    if (scrollPending) return;
    scrollPending = true;
    requestAnimationFrame(() => {
      scrollPending = false;
      const x = stripSelected.x.baseVal.value + stripSelected.width.baseVal.value / 2;
      stripWrap.scrollLeft = Math.max(0, x - stripWrap.clientWidth / 2);
    });
  }

  function draw(part, whole) {
    const moved = !current || current.P !== whole.P || current.index !== whole.index;
    current = whole;
    showTable(current);
    if (moved) scrollStrip();
  }
  function sync(state) {
    sizeButtons().forEach((b) => {
      const on = JSON.parse(b.dataset.value) === state.P;
      b.setAttribute("aria-checked", String(on));
      b.tabIndex = on ? 0 : -1;
    });
    cursor = state.index;
    showCursor();
  }
  widget = liveWidget(root, withTable, { draw, sync });
  numbers.addEventListener("toggle", () => current && showTable(current));

  const live = () => root.dataset.state === "live";
  const sizeChange = (b) => {
    const P = JSON.parse(b.dataset.value);
    return P !== widget.state.P ? { P, index: current.carry[P] } : null;
  };
  const chooseSize = (b) => updateWith(widget, sizeChange(b));
  sizeButtons().forEach((b) => wireButton(b, widget, () => sizeChange(b)));
  roving(sizes, sizeButtons, chooseSize);

  // Build the other patch sizes' tables while the page is idle, one per idle moment, and let
  // pycore compute (and cache) their patch features, so that the first click on a P button
  // only computes one row.
  const idle = window.requestIdleCallback ?? ((task) => setTimeout(task, 300));
  const prebuild = (todo) => todo.length && idle(() => {
    runtime.compute(root.dataset.widget, { ...widget.state, P: todo[0], index: 0 })
      .then(tableFor, console.warn);  // only a head start: the click computes again
    prebuild(todo.slice(1));
  });
  firstView(root).then(() => prebuild(sizeButtons().map((b) => JSON.parse(b.dataset.value))
    .filter((P) => !tables.has(P))), () => {});

  // A pointer's place in an SVG's own units.
  const pointIn = (svg, event) =>
    new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());

  // The patch under a pointer, from the view's cell size (1 SVG unit = 1 pixel of the photo).
  function patchAt(event) {
    const v = current;
    const p = pointIn(photo, event);
    const clamp = (k) => Math.min(v.grid.n - 1, Math.max(0, Math.floor(k / v.grid.cell)));
    return clamp(p.y) * v.grid.n + clamp(p.x);
  }
  photo.addEventListener("pointermove", (event) => {
    if (!live()) return;
    cursor = patchAt(event);
    showCursor();
  });
  photo.addEventListener("click", (event) => {
    if (!live()) return;
    photo.focus();
    widget.update({ index: patchAt(event) });
  });
  photo.addEventListener("keydown", (event) => {
    if (!live()) return;
    const n = current.grid.n;
    const [r, c] = [Math.floor(cursor / n), cursor % n];
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[event.key]) {
      event.preventDefault();
      const clamp = (k) => Math.min(n - 1, Math.max(0, k));
      cursor = clamp(r + moves[event.key][0]) * n + clamp(c + moves[event.key][1]);
      showCursor();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      widget.update({ index: cursor });
    }
  });
  strip.addEventListener("click", (event) => {
    if (!live()) return;
    const v = current;
    const p = pointIn(strip, event);
    const token = Math.floor(p.x / v.strip.pitch);  // token 0 is [CLS]
    if (token >= 1 && token <= v.n_patches) widget.update({ index: token - 1 });
  });
}
