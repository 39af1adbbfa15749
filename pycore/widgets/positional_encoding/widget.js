// Widget positional-encoding: sliders for d_model, the dimension pair, the start position p of
// the second dot-product curve and the rotation offset k. pycore:
// pycore/widgets/positional_encoding/__init__.py (numbers and pictures, in parts: moving k brings one
// number and a 2 x 2 block, only d_model the heatmap); the controls and the marks are the
// book's common ones.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  // The view clamps the pair to d/2 - 1; the state takes the clamped pair (unless the reader
  // moved d_model meanwhile), so that a larger d later keeps it.
  const draw = (part, whole) => {
    const state = widget.state;
    if (state.d_model === whole.d_model && state.pair > whole.max_pair) {
      widget.update({ pair: whole.pair });
    }
  };
  const widget = liveWidget(root, runtime, { draw });
}
