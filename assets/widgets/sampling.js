// Widget sampling: temperature (log slider), top-k and top-p sliders, the number of draws, and
// a button that draws N tokens from the final distribution with a seed that grows by one per
// click. pycore: pycore/widgets/sampling.py (numbers and the four panels of bars); the
// controls and the picture are the book's common ones: only the button is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime);
  root.querySelector("[data-action=sample]")
    .addEventListener("click", () => widget.update({ seed: widget.state.seed + 1 }));
}
