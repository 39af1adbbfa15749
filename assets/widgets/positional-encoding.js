// Widget positional-encoding: sliders for d_model, the dimension pair, the start position p of
// the second dot-product curve, and the rotation offset k. pycore: pycore/widgets/positional_encoding.py.
// Geometry as in the template: heatmap 320 x 200 (unit cells scaled by 320/d x 5), curves
// 8 px per position and 40 px per unit, dot products 8 px per k and 80 px per d/2.
//
// The view comes in parts (PARTS in the pycore module): the page sends what it shows
// (`shown`) and gets back only the parts whose parameters changed, and draw rewrites only
// those. Moving k touches the 2 x 2 block and one number; only d_model redraws the heatmap.
import { liveWidget } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;

const points = (xs, ys, sx, sy) => xs.map((x, i) => `${(x * sx).toFixed(2)},${(ys[i] * sy).toFixed(2)}`).join(" ");
const opacity = (h) => (Math.abs(h) / 1000).toFixed(3);

export function mount(root, runtime) {
  const heatMap = root.querySelector("[data-heat]");
  const mark = root.querySelector("[data-mark]");
  const curve = (name) => root.querySelector(`[data-curve="${name}"]`);
  const slider = (name) => root.querySelector(`[data-control="${name}"]`);
  const sliders = ["d_model", "pair", "p", "k"].map(slider);

  // The heatmap: one <g> per position; cells[r][c] are its rects, kept (detached) when d_model
  // shrinks and put back when it grows; shades[r][c] is the heat value a rect shows.
  const rows = [...heatMap.children];
  const cells = rows.map((g) => [...g.children]);
  const shades = cells.map((row) => row.map((rect) =>
    Math.round(1000 * Number(rect.getAttribute("fill-opacity"))) * (rect.classList.contains("neg") ? -1 : 1)));
  let columns = cells[0].length;

  function cell(r, c) {
    const rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", c);
    rect.setAttribute("y", r);
    rect.setAttribute("width", 1);
    rect.setAttribute("height", 1);
    return rect;
  }

  function drawHeat(heat) {
    const d = heat[0].length;
    heatMap.setAttribute("transform", `scale(${WIDTH / d} 5)`);
    rows.forEach((g, r) => {
      const row = cells[r];
      const shade = shades[r];
      for (let c = row.length; c < d; c++) {
        row.push(cell(r, c));
        shade.push(null);
      }
      if (d > columns) g.append(...row.slice(columns, d));
      for (let c = columns - 1; c >= d; c--) row[c].remove();
      heat[r].forEach((h, c) => {
        const was = shade[c];
        if (h === was) return;
        if (was === null || (h < 0) !== (was < 0)) row[c].setAttribute("class", h < 0 ? "neg" : "pos");
        if (was === null || Math.abs(h) !== Math.abs(was)) row[c].setAttribute("fill-opacity", opacity(h));
        shade[c] = h;
      });
    });
    columns = d;
  }

  let current = {};   // the view the page shows, merged from the parts received
  let shown = null;   // its parameters; null until the first live view (then: the whole view)
  const partial = {
    compute(name, params) {
      return runtime.compute(name, shown ? { ...params, shown } : params);
    },
  };

  const draw = (part) => {
    Object.assign(current, part);
    const v = current;
    if ("heat" in part) drawHeat(part.heat);
    if ("pair" in part) {  // the pair part comes whenever d_model or the pair moved
      const cw = WIDTH / v.d_model;
      mark.setAttribute("x", (2 * v.pair * cw).toFixed(3));
      mark.setAttribute("width", (2 * cw).toFixed(3));
    }
    if ("curve_sin" in part) {
      curve("sin").setAttribute("points", points(v.curve_x, v.curve_sin, 8, -40));
      curve("cos").setAttribute("points", points(v.curve_x, v.curve_cos, 8, -40));
    }
    if ("dots_0" in part) curve("dots_0").setAttribute("points", points(v.ks, v.dots_0, 8, -80 / v.half_d));
    if ("dots_p" in part) curve("dots_p").setAttribute("points", points(v.ks, v.dots_p, 8, -80 / v.half_d));
    if ("max_pair" in part) slider("pair").max = v.max_pair;
    shown = { d_model: v.d_model, pair: v.pair, p: v.p, k: v.k };
  };
  const sync = (state) => {
    sliders.forEach((s) => {
      const value = String(state[s.dataset.control]);
      if (s.value !== value) s.value = value;
    });
  };
  const widget = liveWidget(root, partial, { draw, sync });

  sliders.forEach((s) => s.addEventListener("input", () => {
    const changes = { [s.dataset.control]: Number(s.value) };
    if (s.dataset.control === "d_model") {
      changes.pair = Math.min(widget.state.pair, Number(s.value) / 2 - 1);
    }
    widget.update(changes);
  }));
}
