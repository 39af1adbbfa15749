// Widget quantize: bits, symmetric, granularity and group size, all the book's common
// controls. pycore: pycore/widgets/quantize/__init__.py (numbers, the two byte bars, the grid).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
