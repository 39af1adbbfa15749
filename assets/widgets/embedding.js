// Widget embedding: pick token A and token B to compare their embeddings. pycore:
// pycore/widgets/embedding.py (numbers and frames); the pickers, the heatmaps and pointing
// are the book's common ones. What is special: the page already shows the matrices, which
// change only with the reader's example, so it asks pycore only for the pair's part of the
// view (`shown`: the example whose matrices are on the page; the build drew the book's).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  let shown = {};
  const pairOnly = {
    async compute(name, params) {
      const view = await runtime.compute(name, { ...params, shown });
      shown = params.example ? { example: params.example } : {};
      return view;
    },
  };
  liveWidget(root, pairOnly);
}
