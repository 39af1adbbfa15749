// Widget chinchilla: set N (D follows 20N), D (N stays), or a compute budget C (N and D are
// split compute-optimally), or pick a real model. pycore: pycore/widgets/chinchilla/__init__.py
// (numbers and the log-log chart). What is special here: which of the three the reader set
// last decides the others (the parameter `given`), so
//   - moving N, D or C also says so (and D keeps the N in use);
//   - a preset is a pair (N, D), chosen with the book's choice control but not a parameter;
//   - the 20N button keeps the N in use;
//   - each slider and box shows the N, D or C in use (the view's, also for the two that
//     followed), and the presets show which one the model on show is (the view's match).
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

const QUANTITY = ["params", "tokens", "flops"];

export function mount(root, runtime) {
  let widget = null;
  const sync = () => {
    const view = widget.view;
    for (const key of QUANTITY) {
      for (const el of root.querySelectorAll(`input[data-control=${key}]`)) {
        if (el.dataset.kind === "range") {
          const x = Math.log10(view[key]);
          if (Math.abs(Number(el.value) - x) > 1e-9) el.value = String(x);
        } else if (el !== document.activeElement && el.value !== view.box[key]) {
          el.value = view.box[key];  // 4 significant digits are enough to read: "7e+09"
        }
      }
    }
    const chosen = JSON.stringify(view.preset);
    const buttons = [...root.querySelectorAll("[data-control=preset] [data-value]")];
    buttons.forEach((b) => b.setAttribute("aria-checked", String(b.dataset.value === chosen)));
    const stop = buttons.find((b) => b.dataset.value === chosen) ?? buttons[0];
    buttons.forEach((b) => { b.tabIndex = b === stop ? 0 : -1; });  // the group's one Tab stop
  };
  widget = liveWidget(root, runtime, { sync });

  // what a control's change asks pycore for: the quantity moved, and which two are given
  const asked = (changes) => {
    if ("preset" in changes) {
      const p = widget.view.presets.find((q) => q.name === changes.preset);
      return { params: p.params, tokens: p.tokens, given: "ND" };
    }
    if ("tokens" in changes) return { ...changes, params: widget.view.params, given: "ND" };
    if ("flops" in changes) return { ...changes, given: "C" };
    if ("params" in changes) return { ...changes, given: "N" };
    return changes;
  };
  const { update, ahead } = widget;
  widget.update = (changes) => update(asked(changes));
  widget.ahead = (changes) => ahead(asked(changes));  // a press asks for what its click will
  wireButton(root.querySelector("[data-action=optimal]"), widget,
             () => ({ params: widget.view.params, given: "N" }));
}
