// Widget positional-encoding: sliders for d_model, the dimension pair, the start position p of
// the second dot-product curve, and the rotation offset k. pycore: pycore/widgets/positional_encoding.py.
// Geometry as in the template: heatmap 320 x 200 (cell 320/d x 5), curves 8 px per position
// and 40 px per unit, dot products 8 px per k and 80 px per d/2.
import { liveWidget } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";

const points = (xs, ys, sx, sy) => xs.map((x, i) => `${(x * sx).toFixed(2)},${(ys[i] * sy).toFixed(2)}`).join(" ");

export function mount(root, runtime) {
  const heat = root.querySelector("[data-heat]");
  const mark = root.querySelector("[data-mark]");
  const curve = (name) => root.querySelector(`[data-curve="${name}"]`);
  const slider = (name) => root.querySelector(`[data-control="${name}"]`);
  const sliders = ["d_model", "pair", "p", "k"].map(slider);

  function drawHeat(pe) {
    const d = pe[0].length;
    const cw = 320 / d;
    if (heat.children.length !== pe.length * d) {
      const cells = [];
      pe.forEach((row, r) => row.forEach((_, c) => {
        const rect = document.createElementNS(SVG, "rect");
        rect.setAttribute("x", (c * cw).toFixed(3));
        rect.setAttribute("y", 5 * r);
        rect.setAttribute("width", cw.toFixed(3));
        rect.setAttribute("height", 5);
        cells.push(rect);
      }));
      heat.replaceChildren(...cells);
    }
    const rects = heat.children;
    pe.forEach((row, r) => row.forEach((x, c) => {
      const rect = rects[r * d + c];
      rect.setAttribute("class", x >= 0 ? "pos" : "neg");
      rect.setAttribute("fill-opacity", Math.abs(x).toFixed(3));
    }));
    return cw;
  }

  const draw = (view) => {
    const cw = drawHeat(view.pe);
    mark.setAttribute("x", (2 * view.pair * cw).toFixed(3));
    mark.setAttribute("width", (2 * cw).toFixed(3));
    curve("sin").setAttribute("points", points(view.curve_x, view.curve_sin, 8, -40));
    curve("cos").setAttribute("points", points(view.curve_x, view.curve_cos, 8, -40));
    curve("dots_0").setAttribute("points", points(view.ks, view.dots_0, 8, -80 / view.half_d));
    curve("dots_p").setAttribute("points", points(view.ks, view.dots_p, 8, -80 / view.half_d));
    slider("pair").max = view.max_pair;
  };
  const sync = (state) => {
    sliders.forEach((s) => { s.value = state[s.dataset.control]; });
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  sliders.forEach((s) => s.addEventListener("input", () => {
    const changes = { [s.dataset.control]: Number(s.value) };
    if (s.dataset.control === "d_model") {
      changes.pair = Math.min(widget.state.pair, Number(s.value) / 2 - 1);
    }
    widget.update(changes);
  }));
}
