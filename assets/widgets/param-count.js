// Widget param-count: a preset (architecture family + published sizes), sliders and number
// boxes for d_model, L, V, d_ff, and the "d_ff = 4d" tie. A size of 0 in the parameters means
// "the preset's own value"; picking a preset clears the sizes back to 0.
// pycore: pycore/widgets/param_count.py.
import { liveWidget } from "./common.js";

const SIZES = ["d_model", "layers", "vocab", "d_ff"];

export function mount(root, runtime) {
  const preset = root.querySelector("[data-control=preset]");
  const tie = root.querySelector("[data-control=ff_4d]");
  const inputs = Object.fromEntries(SIZES.map((key) => [key, [...root.querySelectorAll(`[data-control=${key}]`)]]));

  const draw = (view) => {
    for (const key of SIZES) {
      for (const input of inputs[key]) {
        if (document.activeElement !== input || input.type === "range") input.value = view[key];
      }
    }
    const locked = root.dataset.state === "live" ? view.ff_4d : true;
    inputs.d_ff.forEach((input) => { input.disabled = locked; });
    root.querySelectorAll("tr[data-preset]").forEach((tr) => {
      tr.classList.toggle("current", tr.dataset.preset === view.preset);
    });
  };
  const sync = (state) => {
    preset.value = state.preset;
    tie.checked = state.ff_4d;
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  preset.addEventListener("change", () => {
    const row = widget.view.presets.find((p) => p.key === preset.value);
    widget.update({ preset: preset.value, d_model: 0, layers: 0, vocab: 0, d_ff: 0, ff_4d: row.ff_tied });
  });
  tie.addEventListener("change", () => {
    // unticking keeps the current d_ff as an explicit number
    widget.update({ ff_4d: tie.checked, d_ff: widget.view.d_ff });
  });
  for (const key of SIZES) {
    for (const input of inputs[key]) {
      input.addEventListener("input", () => {
        const n = Number(input.value);
        if (input.value === "" || !Number.isInteger(n) || n < Number(input.min) || n > Number(input.max)) return;
        if (n !== widget.view[key]) widget.update({ [key]: n });
      });
    }
  }
}
