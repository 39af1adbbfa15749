// Widget cross-attention: the decoder's step (a stepper) and the logits' scale (a slider) are
// the book's common controls; pycore/widgets/cross_attention.py computes every number and the
// picture. What is special: the page tells pycore the scale whose matrix it shows (`shown`),
// so a step brings only what the step changes.
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, sendingShown(runtime, ({ scale }) => ({ scale })));
}
