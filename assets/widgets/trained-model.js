// Widget trained-model: the book's trained model on a sentence the reader composes, its
// answer, the next-token distribution and every stage of its forward pass. pycore:
// pycore/widgets/trained_model.py (numbers and pictures); templates/widgets/trained-model.html.
// What is special: the view is large and its grids never change, so the page asks pycore
// only for the parts the last input changed (`shown`: the parameters on screen), and of the
// stage panels only the one shown; and the sample button draws again with the next seed.
import { liveWidget, sendingShown } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, sendingShown(runtime, (params) => params));
  wireButton(root.querySelector("[data-action=sample]"), widget,
             () => ({ seed: widget.state.seed + 1 }));
}
