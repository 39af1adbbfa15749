// Widget kernel-regression: pycore/widgets/kernel_regression/__init__.py computes the weights, the
// fitted curve and every point's place; the controls and the marks are the book's common ones.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
