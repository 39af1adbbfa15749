// Widget online-softmax: the query, the tile size and the tile read so far (a stepper), and
// the memory figure's n, B, d and number format. pycore: pycore/widgets/online_softmax/__init__.py
// (numbers and picture); controls, marks and pointing are the book's common ones. What is
// special: the stepper's end follows the tile size (9 keys make 9 tiles of 1 but 3 of 3).
// pycore shows at most the last tile; the reader's step follows it there, and + stops at it.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const plus = root.querySelector("[data-control=step] [data-step='1']");
  const widget = liveWidget(root, runtime, {
    draw(_, view) {  // the whole view: a move that changes no part brings no n_tiles
      if (widget.state.step > view.n_tiles) widget.update({ step: view.n_tiles });
    },
    sync(state) {
      if (widget.view && state.step >= widget.view.n_tiles) plus.disabled = true;
    },
  });
}
