// Widget beam-search: beam width, length penalty and length (sliders), the sampled sentences'
// temperature, and a button that draws the next four sentences. pycore:
// pycore/widgets/beam_search.py (numbers, the lattice, the ranking, the chips); only the
// button, and asking for the lighter live views of only what changed, are special.
import { liveWidget, sendingShown } from "./common.js";
import { wireButton } from "./controls.js";

const SAMPLES = 4;  // sentences per click (pycore/widgets/beam_search.py SAMPLES)

export function mount(root, runtime) {
  const lean = {
    compute: (name, params, texts) => runtime.compute(name, { ...params, live: true }, texts),
  };
  // what the page shows is its parameters' view (pycore rounds them as the view does)
  const widget = liveWidget(root, sendingShown(lean, (params) => ({ ...params })));
  wireButton(root.querySelector("[data-action=resample]"), widget,
             () => ({ seed: widget.state.seed + SAMPLES }));
}
