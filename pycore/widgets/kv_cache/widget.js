// Widget kv-cache: step through the generation of the reader's sentence and compare recomputing
// K, V with appending one cached row; below, the cache size of a real model (preset, context
// length, bytes per number). pycore: pycore/widgets/kv_cache/__init__.py (numbers and the grids, bars,
// in parts); the controls and the picture are the book's common ones (the stepper's end,
// n_steps, is bound). What is special: a sentence of n tokens has n - prompt steps, and pycore shows at
// most the last; a step beyond it (the sentence got shorter) follows it there, so that −
// steps back from what the reader sees.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime, {
    draw(part, whole) {
      if (widget.state.step > whole.n_steps) widget.update({ step: whole.n_steps });
    },
  });
}
