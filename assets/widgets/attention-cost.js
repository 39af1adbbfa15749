// Widget attention-cost: a log-scaled length slider (arrow keys: x1.12 per step), an exact
// number box and preset lengths. pycore: pycore/widgets/attention_cost.py.
// Chart: 80 SVG px per decade of n, 20 px per decade of the count (log-log).
import { liveWidget } from "./common.js";

const X = 80;
const Y = 20;
const MAX_N = 1_000_000;

export function mount(root, runtime) {
  const slider = root.querySelector("[data-control=log10_n]");
  const box = root.querySelector("[data-control=n]");
  const presets = [...root.querySelectorAll("[data-n]")];
  const mark = (name) => root.querySelector(`[data-mark="${name}"]`);

  const draw = (view) => {
    const x = X * view.log_n;
    mark("now").setAttribute("x1", x);
    mark("now").setAttribute("x2", x);
    for (const [name, log] of [["scores", view.log_scores], ["rnn", view.log_rnn]]) {
      mark(name).setAttribute("cx", x);
      mark(name).setAttribute("cy", -Y * log);
    }
    slider.setAttribute("aria-valuetext", `n = ${view.n_text}`);
  };
  const sync = (state) => {
    if (Math.round(10 ** Number(slider.value)) !== state.n) slider.value = Math.log10(state.n).toFixed(2);
    if (Number(box.value) !== state.n) box.value = String(state.n);
    presets.forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.n) === state.n)));
  };
  const widget = liveWidget(root, runtime, { draw, sync });
  const setN = (n) => { if (n !== widget.state.n) widget.update({ n }); };

  slider.addEventListener("input", () => setN(Math.round(10 ** Number(slider.value))));
  box.addEventListener("input", () => {
    const n = Number(box.value);
    if (box.value === "" || !Number.isInteger(n) || n < 1 || n > MAX_N) return;  // keep typing
    setN(n);
  });
  presets.forEach((b) => b.addEventListener("click", () => setN(Number(b.dataset.n))));
}
