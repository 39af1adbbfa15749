// Widget attention: pick a query token, scale the logits, toggle the causal mask. pycore:
// pycore/widgets/attention.py (numbers and picture); templates/widgets/attention.html. Its
// controls, picture and pointing are the book's common ones. What is special: the page
// already shows the sentence's part of the view (labels, slots, Q, K, V, the places of the
// curves and cells), which changes only with the reader's example, so it asks pycore for
// the controls' part alone (`shown`: the example whose sentence is on the page, the build
// drew the book's; and the scale and mask of the weights on it).
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, sendingShown(runtime, (p) => ({
    ...(p.example ? { example: p.example } : {}), scale: p.scale, causal: p.causal,
  })));
}
