// Widget bpe: the merge count k (slider, or − / + one merge at a time) and the training corpus.
// pycore: pycore/widgets/bpe/__init__.py (numbers and picture, in parts: the characters come once, the
// chart with the corpus, the tokens with k); the controls, marks and pointing are the book's
// common ones.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
