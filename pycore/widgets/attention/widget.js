// Widget attention: pick a query token, scale the logits, toggle the causal mask. pycore:
// pycore/widgets/attention/__init__.py (numbers and picture, in parts); pycore/widgets/attention/template.html.
// Its controls, picture and pointing are the book's common ones.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
