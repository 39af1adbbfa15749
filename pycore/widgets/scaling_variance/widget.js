// Widget scaling-variance: the d_k slider and the histograms are the book's common controls
// and marks (pycore/widgets/scaling_variance/__init__.py: in parts, the fixed bins and axes once, then
// what a draw changes). What is special: 重新抽样 adds 1 to the seed.
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime);
  wireButton(root.querySelector("[data-action=resample]"), widget,
             () => ({ seed: widget.state.seed + 1 }));
}
