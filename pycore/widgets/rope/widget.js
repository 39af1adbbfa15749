// Widget rope: sliders for the positions m, n and the frequency theta (the book's), and what is
// special here: two buttons that move m and n together, one Tab stop with the arrow keys
// between them. pycore: pycore/widgets/rope/__init__.py (numbers, the plane, the score chart).
import { liveWidget } from "./common.js";
import { roving, wireButton } from "./controls.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime);
  // Both positions must stay in their sliders' ranges (PARAMS, on the sliders).
  const range = (name) => {
    const el = root.querySelector(`[data-control="${name}"]`);
    return [Number(el.dataset.min), Number(el.dataset.max)];
  };
  const inRange = (name, x) => { const [lo, hi] = range(name); return x >= lo && x <= hi; };
  const shiftBoth = (step) => {  // null at an end: nothing to ask for
    const m = widget.state.m + step;
    const n = widget.state.n + step;
    return inRange("m", m) && inRange("n", n) ? { m, n } : null;
  };
  const group = root.querySelector(".rope-shift");
  const buttons = [...group.querySelectorAll("button")];
  buttons.forEach((b) => wireButton(b, widget, () => shiftBoth(b.dataset.action === "both-up" ? 1 : -1)));
  roving(group, () => buttons, (b) => buttons.forEach((x) => { x.tabIndex = x === b ? 0 : -1; }));
}
