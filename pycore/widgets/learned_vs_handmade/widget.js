// Widget learned-vs-handmade: chapter 4's hand-made head and a head of the trained model on
// the same sentence. pycore: pycore/widgets/learned_vs_handmade/__init__.py (numbers and pictures);
// pycore/widgets/learned_vs_handmade/template.html. Its controls, curves and pointing are the
// book's common ones: nothing here is special.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
