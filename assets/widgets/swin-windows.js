// Widget swin-windows: image size, patch size P and window M change the grid and its windows;
// three buttons show this layer's windows, the next layer's shifted windows, or the cyclic
// roll Swin computes them with. pycore: pycore/widgets/swin_windows.py.
// Grid: 1 SVG unit = 1 patch; window ids are written at most 16 px and at least 7 px high
// (for a 420 px wide grid), only in pieces they fit in.
import { liveWidget } from "./common.js";

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

// piece: [r0, c0, rows, cols, id, colour]
const box = (p) => ({ x: p[1], y: p[0], width: p[3], height: p[2] });

export function mount(root, runtime) {
  const svg = root.querySelector("svg.sw-grid");
  const group = (name) => svg.querySelector(`.sw-${name}`);
  const [pieces, pad, outlines, borders, ids] = ["pieces", "pad", "outlines", "borders", "ids"].map(group);
  const lines = svg.querySelector(".sw-lines");
  const choices = (attr) => [...root.querySelectorAll(`[data-${attr}]`)];
  const sizeButtons = choices("size");
  const pButtons = choices("p");
  const layerButtons = choices("layer");
  const slider = root.querySelector("[data-control=M]");

  function draw(view) {
    const { padded_w: W, padded_h: H, grid_w: w, grid_h: h } = view;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("aria-label", `${h}×${w} 的 patch 网格和它的窗口；颜色区分窗口，数字是窗口编号`);
    [pieces, pad, outlines, borders, ids].forEach((g) => g.replaceChildren());
    for (const p of view.pieces) {
      el("rect", { class: `c${p[5]}`, "data-id": p[4], ...box(p) }, pieces);
      el("rect", { ...box(p), "vector-effect": "non-scaling-stroke" }, outlines);
    }
    if (H > h) el("rect", { x: 0, y: h, width: W, height: H - h }, pad);
    if (W > w) el("rect", { x: w, y: 0, width: W - w, height: h }, pad);
    let d = "";
    for (let k = 1; k < H; k++) d += `M0 ${k}H${W}`;
    for (let k = 1; k < W; k++) d += `M${k} 0V${H}`;
    lines.setAttribute("d", d);
    for (const p of view.borders) el("rect", { ...box(p), "vector-effect": "non-scaling-stroke" }, borders);

    const font = Math.min(16 * W / 420, 0.34 * view.M_used);
    ids.setAttribute("font-size", font.toFixed(2));
    ids.setAttribute("stroke-width", (0.18 * font).toFixed(3));  // the light halo around the ids
    if (font * 420 / W < 7) return;
    for (const p of view.pieces) {
      if (p[2] < font || p[3] < 0.6 * font * String(p[4]).length + 0.3) continue;
      const t = el("text", { x: p[1] + p[3] / 2, y: p[0] + p[2] / 2, "text-anchor": "middle",
                             "dominant-baseline": "central" }, ids);
      t.textContent = String(p[4]);
    }
  }

  const press = (buttons, attr, value) =>
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset[attr] === String(value))));
  const sync = (state) => {
    press(sizeButtons, "size", state.image_size);
    press(pButtons, "p", state.P);
    press(layerButtons, "layer", state.layer);
    slider.value = state.M;
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  sizeButtons.forEach((b) => b.addEventListener("click", () => widget.update({ image_size: Number(b.dataset.size) })));
  pButtons.forEach((b) => b.addEventListener("click", () => widget.update({ P: Number(b.dataset.p) })));
  layerButtons.forEach((b) => b.addEventListener("click", () => widget.update({ layer: b.dataset.layer })));
  slider.addEventListener("input", () => widget.update({ M: Number(slider.value) }));
}
