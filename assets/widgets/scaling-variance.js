// Widget scaling-variance: the d_k slider and the histograms are the book's common controls
// and marks (pycore/widgets/scaling_variance.py). What is special: 重新抽样 adds 1 to the seed.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime);
  root.querySelector("[data-action=resample]")
    .addEventListener("click", () => widget.update({ seed: widget.state.seed + 1 }));
}
