// Widget rope: sliders for the positions m, n and the frequency theta, and buttons that move
// m and n together. pycore: pycore/widgets/rope.py. Plane: 1 unit = 60 SVG px, y up.
// Score curve: 12 px per unit of m - n, 40 px per |q||k|.
import { liveWidget } from "./common.js";

const MAX_POS = 30;
const px = (x) => x.toFixed(2);


export function mount(root, runtime) {
  const slider = (name) => root.querySelector(`[data-control="${name}"]`);
  const sliders = ["m", "n", "theta"].map(slider);
  const part = (attr, key) => root.querySelector(`[${attr}="${key}"]`);
  const curve = root.querySelector("[data-curve]");
  const now = root.querySelector("[data-now]");
  const offsetCells = [...root.querySelectorAll('[data-matrix="by_offset"] tbody td')];

  const draw = (view) => {
    for (const [key, vec] of [["q", view.q_rot], ["k", view.k_rot]]) {
      const [x, y] = [60 * vec[0], -60 * vec[1]];
      part("data-arrow", key).setAttribute("x2", px(x));
      part("data-arrow", key).setAttribute("y2", px(y));
      part("data-tip", key).setAttribute("cx", px(x));
      part("data-tip", key).setAttribute("cy", px(y));
      part("data-label", key).setAttribute("x", px(x + 6));
      part("data-label", key).setAttribute("y", px(y - 6));
    }
    const amp = Math.max(view.norm_product, 1e-9);
    curve.setAttribute("points", view.curve_x.map((o, i) => `${px(12 * o)},${px(-40 * view.curve[i] / amp)}`).join(" "));
    now.setAttribute("cx", 12 * view.offset);
    now.setAttribute("cy", px(-40 * view.score / amp));
    offsetCells.forEach((td, i) => td.classList.toggle("cur", view.offsets[i] === view.offset));
  };
  const sync = (state) => { sliders.forEach((s) => { s.value = state[s.dataset.control]; }); };
  const widget = liveWidget(root, runtime, { draw, sync });

  sliders.forEach((s) => s.addEventListener("input", () => {
    widget.update({ [s.dataset.control]: Number(s.value) });
  }));
  const shiftBoth = (step) => {
    const m = widget.state.m + step;
    const n = widget.state.n + step;
    if (Math.min(m, n) >= 0 && Math.max(m, n) <= MAX_POS) widget.update({ m, n });
  };
  root.querySelector('[data-action="both-up"]').addEventListener("click", () => shiftBoth(1));
  root.querySelector('[data-action="both-down"]').addEventListener("click", () => shiftBoth(-1));
}
