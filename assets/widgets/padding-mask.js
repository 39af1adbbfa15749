// Widget padding-mask: the query, the side of the pads and the two mask switches are the book's
// common controls; pycore/widgets/padding_mask.py computes every number and the picture.
// What is special: the page tells pycore which batch and masks it shows (`shown`: side, mask,
// causal), so a new query brings only its row, curves and frame.
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, sendingShown(runtime, ({ side, mask, causal }) => ({ side, mask, causal })));
}
