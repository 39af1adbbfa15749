// Widget softmax: edit the logits, move the (log-scaled) temperature slider.
// pycore: pycore/widgets/softmax.py. Bars: 200 SVG px for probability 1.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const slider = root.querySelector("[data-control=log10_temperature]");
  const logitInputs = [...root.querySelectorAll("[data-control=logit]")];

  const draw = (view) => {
    view.probs.forEach((p, i) => {
      const bar = root.querySelector(`[data-bar="${i}"]`);
      bar.setAttribute("y", -200 * p);
      bar.setAttribute("height", 200 * p);
    });
  };
  const sync = (state) => {
    slider.value = Math.log10(state.temperature).toFixed(2);
    logitInputs.forEach((input, i) => {
      if (Number(input.value) !== state.logits[i]) input.value = state.logits[i];
    });
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  slider.addEventListener("input", () => {
    widget.update({ temperature: 10 ** Number(slider.value) });
  });
  logitInputs.forEach((input, i) => {
    input.addEventListener("input", () => {
      const z = Number(input.value);
      if (input.value === "" || !Number.isFinite(z) || z < -10 || z > 10) return;  // keep typing
      const logits = [...widget.state.logits];
      logits[i] = z;
      widget.update({ logits });
    });
  });
}
