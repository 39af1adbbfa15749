// Widget sampling: temperature (log slider), top-k and top-p sliders, and a button that draws
// N tokens from the final distribution with a seed that grows by one per click.
// pycore: pycore/widgets/sampling.py. Mini bars: 100 SVG units = probability 1.
import { liveWidget } from "./common.js";

const COLUMNS = ["p_temp", "p_topk", "p_final"];

export function mount(root, runtime) {
  const temperature = root.querySelector("[data-control=log10_temperature]");
  const topK = root.querySelector("[data-control=top_k]");
  const topP = root.querySelector("[data-control=top_p]");
  const sample = root.querySelector("[data-action=sample]");

  const draw = (view) => {
    for (const column of COLUMNS) {
      view[column].forEach((p, i) => {
        root.querySelector(`[data-bar="${column}.${i}"]`).setAttribute("width", 100 * p);
      });
    }
    view.tokens.forEach((_, i) => {
      const cut = { p_topk: !view.kept_topk[i], cum_topk: !view.kept_topk[i], p_final: !view.kept_final[i] };
      for (const [column, isCut] of Object.entries(cut)) {
        root.querySelector(`[data-cell="${column}.${i}"]`).classList.toggle("cut", isCut);
      }
    });
  };
  // the T a slider position stands for: rounded to the two decimals shown, within 0.1..5
  const sliderT = () => Math.min(5, Math.max(0.1, Number((10 ** Number(temperature.value)).toFixed(2))));
  const sync = (state) => {
    // several positions near T = 0.1 round to the same T: keep the reader's position then
    if (sliderT() !== state.temperature) temperature.value = Math.log10(state.temperature).toFixed(2);
    topK.value = state.top_k;
    topP.value = state.top_p;
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  // T is rounded to the two decimals shown, so 0.50 and 2.00 are exactly reachable
  temperature.addEventListener("input", () => widget.update({ temperature: sliderT() }));
  topK.addEventListener("input", () => widget.update({ top_k: Number(topK.value) }));
  topP.addEventListener("input", () => widget.update({ top_p: Number(topP.value) }));
  sample.addEventListener("click", () => widget.update({ seed: widget.state.seed + 1 }));
}
