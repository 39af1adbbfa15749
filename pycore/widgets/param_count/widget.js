// Widget param-count: a preset (architecture family + published sizes), sliders and number
// boxes for d_model, L, V, d_ff, and the "d_ff = 4d" switch. pycore:
// pycore/widgets/param_count/__init__.py (numbers, the stacked bar and the presets' errors). What is
// special here: a size of 0 in the parameters means "the preset's own value", so
//   - choosing a preset clears the sizes back to 0 (and ties d_ff as that preset does);
//   - turning the switch off keeps the d_ff in use as an explicit number;
//   - a size's slider and box show the size in use (the view's), and d_ff's are locked
//     while it follows d.
import { liveWidget } from "./common.js";

const SIZES = ["d_model", "layers", "vocab", "d_ff"];

export function mount(root, runtime) {
  const controls = (key) => [...root.querySelectorAll(`input[data-control=${key}]`)];
  let widget = null;
  const sync = () => {
    const view = widget.view;
    for (const key of SIZES) {
      for (const el of controls(key)) {
        const shown = el.dataset.kind === "range" || el !== document.activeElement;
        if (shown && Number(el.value) !== view[key]) el.value = String(view[key]);
      }
    }
    if (root.dataset.state === "live") {
      controls("d_ff").forEach((el) => { el.disabled = view.ff_4d; });
    }
  };
  widget = liveWidget(root, runtime, { sync });

  const update = widget.update;
  widget.update = (changes) => {
    if ("preset" in changes && changes.preset !== widget.state.preset) {
      const row = widget.view.presets.find((p) => p.key === changes.preset);
      changes = { ...changes, d_model: 0, layers: 0, vocab: 0, d_ff: 0, ff_4d: row.ff_tied };
    }
    if (changes.ff_4d === false && !("d_ff" in changes)) {
      changes = { ...changes, d_ff: widget.view.d_ff };
    }
    return update(changes);
  };
}
