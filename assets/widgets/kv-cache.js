// Widget kv-cache: step through the generation of the running sentence and compare recomputing
// K, V with appending one cached row; below, the cache size of a real model (preset, context
// length, bytes per number). pycore: pycore/widgets/kv_cache.py (numbers and the grids, bars);
// the controls and the picture are the book's common ones: nothing here is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
