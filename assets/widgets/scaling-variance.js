// Widget scaling-variance: the d_k slider steps through powers of two (arrow keys too), the
// new-sample button adds 1 to the seed. pycore: pycore/widgets/scaling_variance.py.
// Charts: 640 SVG px wide, bar height 150 px for the chart's largest count.
import { liveWidget } from "./common.js";

const WIDTH = 640;
const HEIGHT = 150;

export function mount(root, runtime) {
  const slider = root.querySelector("[data-control=log2_d_k]");
  const resample = root.querySelector("[data-action=resample]");

  // The bars and the two std lines of each chart, looked up once (every update moves them all).
  const parts = (key) => ({
    bars: [...root.querySelectorAll(`[data-bar^="${key}."]`)],
    lines: [0, 1].map((i) => root.querySelector(`[data-std="${key}.${i}"]`)),
  });
  const charts = { raw: parts("raw"), scaled: parts("scaled") };

  function drawChart(key, counts, top, edges, std) {
    const { bars, lines } = charts[key];
    counts.forEach((c, i) => {
      bars[i].setAttribute("y", -HEIGHT * c / top);
      bars[i].setAttribute("height", HEIGHT * c / top);
    });
    const lo = edges[0];
    const hi = edges[edges.length - 1];
    [-std, std].forEach((x, i) => {
      const px = WIDTH * (x - lo) / (hi - lo);
      lines[i].setAttribute("x1", px);
      lines[i].setAttribute("x2", px);
    });
  }

  const draw = (view) => {
    drawChart("raw", view.counts_raw, view.max_raw, view.edges_raw, view.std_raw);
    drawChart("scaled", view.counts_scaled, view.max_scaled, view.edges_scaled, view.std_scaled);
  };
  const sync = (state) => {
    slider.value = String(Math.round(Math.log2(state.d_k)));
    slider.setAttribute("aria-valuetext", `d_k = ${state.d_k}`);
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  slider.addEventListener("input", () => {
    const d_k = 2 ** Number(slider.value);
    if (d_k !== widget.state.d_k) widget.update({ d_k });
  });
  resample.addEventListener("click", () => widget.update({ seed: widget.state.seed + 1 }));
}
