// Widget alibi-rope: the query (segmented tokens), the ALiBi head and RoPE's frequency
// (sliders) and the causal switch, all the book's common controls. pycore:
// pycore/widgets/alibi_rope.py (numbers, the two heatmaps, the three rows of bars); only
// asking for the lighter live views is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, { compute: (name, params) => runtime.compute(name, { ...params, live: true }) });
}
