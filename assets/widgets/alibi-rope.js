// Widget alibi-rope: the query (segmented tokens), the ALiBi head and RoPE's frequency
// (sliders) and the causal switch, all the book's common controls. pycore:
// pycore/widgets/alibi_rope.py (numbers, the two heatmaps, the three rows of bars); what is
// special: it asks for the lighter live views, naming the query and mask its heatmaps show.
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  const lean = {
    compute: (name, params, texts) => runtime.compute(name, { ...params, live: true }, texts),
  };
  liveWidget(root, sendingShown(lean, ({ query, causal }) => ({ query, causal })));
}
