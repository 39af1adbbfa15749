// Widget scaling-variance: the d_k slider and the histograms are the book's common controls
// and marks (pycore/widgets/scaling_variance.py). What is special: 重新抽样 adds 1 to the
// seed, and the page, which shows the fixed bins and axes already, asks pycore only for what
// a draw changes (`shown`).
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const drawsOnly = {
    compute: (name, params, texts) => runtime.compute(name, { ...params, shown: {} }, texts),
  };
  const widget = liveWidget(root, drawsOnly);
  wireButton(root.querySelector("[data-action=resample]"), widget,
             () => ({ seed: widget.state.seed + 1 }));
}
