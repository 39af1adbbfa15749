// Widget rope-scaling: pycore/widgets/rope_scaling/__init__.py computes every number and the picture; the
// controls and the marks are the book's common ones (docs/widgets.md). Add here only what is
// special about this widget.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
