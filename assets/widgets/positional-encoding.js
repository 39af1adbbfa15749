// Widget positional-encoding: sliders for d_model, the dimension pair, the start position p of
// the second dot-product curve and the rotation offset k. pycore:
// pycore/widgets/positional_encoding.py (numbers and pictures); the controls and the marks are
// the book's common ones. What is special here is speed: the view comes in parts (PARTS in the
// pycore module). The page sends what it shows (`shown`) and gets back only the parts whose
// parameters changed; moving k brings one number and a 2 x 2 block, only d_model the heatmap.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const current = {};  // the view the page shows, merged from the parts received
  let shown = null;    // its parameters; null until the first live view (then: the whole view)
  let asked = null;    // the parameters of the view being computed
  const partial = {
    compute(name, params, texts) {
      asked = params;
      return runtime.compute(name, shown ? { ...params, shown } : params, texts);
    },
  };
  let widget = null;
  const draw = (part) => {
    Object.assign(current, part);
    shown = { d_model: current.d_model, pair: current.pair, p: current.p, k: current.k };
    // The view clamps the pair to d/2 - 1; the state takes the clamped pair (unless the reader
    // moved the pair meanwhile), so that a larger d later keeps it.
    if (current.pair !== asked.pair && widget.state.pair === asked.pair) {
      widget.update({ pair: current.pair });
    }
  };
  widget = liveWidget(root, partial, { draw });
}
