// Widget attention-cost: the log-scaled length slider, the number box and the presets are
// the book's common controls, all setting n; the chart is pycore's
// (pycore/widgets/attention_cost.py). What is special: the page already shows the chart's
// lines, which never change, so it asks pycore for this n's numbers and mark alone (`shown`).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const markOnly = {
    compute: (name, params, texts) => runtime.compute(name, { ...params, shown: {} }, texts),
  };
  liveWidget(root, markOnly);
}
