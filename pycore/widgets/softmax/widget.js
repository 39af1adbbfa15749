// Widget softmax: edit the logits, move the (log-scaled) temperature slider. pycore:
// pycore/widgets/softmax/__init__.py (numbers and bars); the controls and the picture are the book's
// common ones: nothing here is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
