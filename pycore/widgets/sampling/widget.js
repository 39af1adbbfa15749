// Widget sampling: temperature (log slider), top-k and top-p sliders, the number of draws, and
// a button that draws N tokens from the final distribution with a seed that grows by one per
// click. pycore: pycore/widgets/sampling/__init__.py (numbers and the four panels of bars, in parts: a
// click brings the draw alone); the controls and the picture are the book's common ones: only
// the button, and asking for the lighter live views, are special.
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime, { live: true });
  wireButton(root.querySelector("[data-action=sample]"), widget,
             () => ({ seed: widget.state.seed + 1 }));
}
