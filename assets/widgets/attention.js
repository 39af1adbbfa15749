// Widget attention: pick a query token, scale the logits, toggle the causal mask. pycore:
// pycore/widgets/attention.py (numbers and picture); templates/widgets/attention.html. Its
// controls, picture and pointing are the book's common ones. What is special: the page
// already shows the sentence's part of the view (labels, slots, Q, K, V, the places of the
// curves and cells), which changes only with the reader's example, so it asks pycore for
// the controls' part alone (`shown`: the example whose sentence is on the page; the build
// drew the book's).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  let shown = {};
  const controlsOnly = {
    async compute(name, params) {
      const view = await runtime.compute(name, { ...params, shown });
      shown = params.example ? { example: params.example } : {};
      return view;
    },
  };
  liveWidget(root, controlsOnly);
}
