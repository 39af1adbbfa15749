// Widget alibi-rope: the query (segmented tokens), the ALiBi head and RoPE's frequency
// (sliders) and the causal switch, all the book's common controls. pycore:
// pycore/widgets/alibi_rope/__init__.py (numbers, the two heatmaps, the three rows of bars, in parts);
// it asks for the lighter live views (`live`).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime, { live: true });
}
