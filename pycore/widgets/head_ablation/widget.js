// Widget head-ablation: pycore/widgets/head_ablation/__init__.py computes the accuracy with the heads
// that are off zeroed; the switches and the bars are the book's common ones: nothing here is
// special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
