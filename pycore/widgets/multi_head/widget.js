// Widget multi-head: pick a token (its row and strongest key are framed in both heads'
// heatmaps, its curves drawn), choose which heads feed W_O (A and B, A only, B only). pycore:
// pycore/widgets/multi_head/__init__.py (numbers and picture, in parts); pycore/widgets/multi_head/template.html.
// Its controls, marks and pointing are the book's common ones.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
