// Widget padding-mask: the query, the side of the pads and the two mask switches are the book's
// common controls; pycore/widgets/padding_mask/__init__.py computes every number and the picture, in
// parts: a new query brings only its row, curves and frame.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
