// Widget attention: pick a query token (click, or focus + Enter/Space), scale the logits,
// toggle the causal mask. pycore: pycore/widgets/attention.py. Row bars: 100 SVG px = 1.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const tokens = [...root.querySelectorAll("[data-token]")];
  const scale = root.querySelector("[data-control=scale]");
  const causal = root.querySelector("[data-control=causal]");

  const draw = (view) => {
    view.row.forEach((p, i) => {
      const bar = root.querySelector(`.row-bars [data-bar="${i}"]`);
      bar.setAttribute("y", -100 * p);
      bar.setAttribute("height", 100 * p);
    });
  };
  const sync = (state) => {
    tokens.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.token === state.query)));
    scale.value = state.scale;
    causal.checked = state.causal;
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  tokens.forEach((b) => b.addEventListener("click", () => widget.update({ query: b.dataset.token })));
  scale.addEventListener("input", () => widget.update({ scale: Number(scale.value) }));
  causal.addEventListener("change", () => widget.update({ causal: causal.checked }));
}
