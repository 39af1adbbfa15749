// Widget embedding: pick token A and token B to compare their embeddings. pycore:
// pycore/widgets/embedding.py (numbers and frames); the pickers, the heatmaps and pointing
// are the book's common ones. What is special: the page already shows the matrices, which
// never change, so it asks pycore only for the pair's part of the view (`shown`).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const pairOnly = { compute: (name, params) => runtime.compute(name, { ...params, shown: {} }) };
  liveWidget(root, pairOnly);
}
