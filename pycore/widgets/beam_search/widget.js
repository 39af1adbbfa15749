// Widget beam-search: beam width, length penalty and length (sliders), the sampled sentences'
// temperature, and a button that draws the next four sentences. pycore:
// pycore/widgets/beam_search/__init__.py (numbers, the lattice, the ranking, the chips, in parts); only
// the button, and asking for the lighter live views (`live`), are special.
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

const SAMPLES = 4;  // sentences per click (pycore/widgets/beam_search/__init__.py SAMPLES)

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime, { live: true });
  wireButton(root.querySelector("[data-action=resample]"), widget,
             () => ({ seed: widget.state.seed + SAMPLES }));
}
