// Widget trained-model: the book's trained model on a sentence the reader composes, its
// answer, the next-token distribution and every stage of its forward pass. pycore:
// pycore/widgets/trained_model/__init__.py (numbers and pictures); pycore/widgets/trained_model/template.html.
// What is special: the view is large and comes in parts (only those the last input changed),
// and of the stage panels the page asks only for the one shown (`live`: the hidden ones come
// empty, and stay as they were); and the sample button draws again with the next seed.
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime, { live: true });
  wireButton(root.querySelector("[data-action=sample]"), widget,
             () => ({ seed: widget.state.seed + 1 }));
}
