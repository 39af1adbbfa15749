// Widget attention-cost: the log-scaled length slider, the number box and the presets are
// the book's common controls, all setting n; the chart is pycore's
// (pycore/widgets/attention_cost.py). Nothing here is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
