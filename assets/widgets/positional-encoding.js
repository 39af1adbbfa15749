// Widget positional-encoding: sliders for d_model, the dimension pair, the start position p of
// the second dot-product curve, and the rotation offset k. pycore: pycore/widgets/positional_encoding.py.
// Geometry as in the template: heatmap 320 x 200 (unit squares scaled by 320/d x 5), curves
// 8 px per position and 40 px per unit, dot products 8 px per k and 80 px per d/2.
//
// The view comes in parts (PARTS in the pycore module): the page sends what it shows
// (`shown`) and gets back only the parts whose parameters changed, and draw rewrites only
// those. Moving k touches the 2 x 2 block and one number; only d_model redraws the heatmap.
import { liveWidget } from "./common.js";

const WIDTH = 320;

const points = (xs, ys, sx, sy) => xs.map((x, i) => `${(x * sx).toFixed(2)},${(ys[i] * sy).toFixed(2)}`).join(" ");

export function mount(root, runtime) {
  const heatMap = root.querySelector("[data-heat]");
  const mark = root.querySelector("[data-mark]");
  const curve = (name) => root.querySelector(`[data-curve="${name}"]`);
  const slider = (name) => root.querySelector(`[data-control="${name}"]`);
  const sliders = ["d_model", "pair", "p", "k"].map(slider);

  // The heatmap: one path per shade h (-L..L but 0; the template, pycore's heat()), holding
  // the unit squares of the cells that have it, a run of equal cells down a column as one
  // rectangle. However large d_model, the heatmap is 2L elements; only their `d` changes.
  const paths = new Map([...heatMap.children].map((path) => [Number(path.dataset.shade), path]));
  const drawn = new Map([...paths].map(([h, path]) => [h, path.getAttribute("d")]));

  function drawHeat(heat) {
    const d = heat[0].length;
    const n = heat.length;
    const squares = new Map([...paths.keys()].map((h) => [h, ""]));
    for (let c = 0; c < d; c++) {
      let r = 0;
      while (r < n) {
        const h = heat[r][c];
        let end = r + 1;
        while (end < n && heat[end][c] === h) end += 1;
        if (squares.has(h)) squares.set(h, `${squares.get(h)}M${c} ${r}h1v${end - r}h-1z`);
        r = end;
      }
    }
    heatMap.setAttribute("transform", `scale(${WIDTH / d} 5)`);
    squares.forEach((path, h) => {
      if (drawn.get(h) === path) return;
      paths.get(h).setAttribute("d", path);
      drawn.set(h, path);
    });
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
