// Widget embedding: pick token A and token B to compare their embeddings. pycore:
// pycore/widgets/embedding.py (numbers and frames); the pickers, the heatmaps and pointing
// are the book's common ones. What is special: the page already shows the matrices, which
// change only with the reader's example, so it asks pycore only for the pair's part of the
// view (`shown`: the example whose matrices are on the page; the build drew the book's).
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, sendingShown(runtime, (p) => (p.example ? { example: p.example } : {})));
}
