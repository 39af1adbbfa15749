// Widget cross-attention: the decoder's step (a stepper) and the logits' scale (a slider) are
// the book's common controls; pycore/widgets/cross_attention/__init__.py computes every number and the
// picture, in parts: a step brings only what the step changes, not the scale's matrix.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
