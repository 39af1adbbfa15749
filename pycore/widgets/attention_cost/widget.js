// Widget attention-cost: the log-scaled length slider, the number box and the presets are
// the book's common controls, all setting n; the chart is pycore's
// (pycore/widgets/attention_cost/__init__.py: its lines are a part the page gets once, then n's
// numbers and mark alone).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
