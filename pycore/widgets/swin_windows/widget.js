// Widget swin-windows: image size, patch size P and window M change the grid and its windows;
// a choice shows this layer's windows, the next layer's shifted windows, or the cyclic roll
// Swin computes them with. pycore: pycore/widgets/swin_windows/__init__.py (numbers and picture); the
// controls and the picture are the book's common ones: nothing here is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
