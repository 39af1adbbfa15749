// Widget bpe: the merge count k (slider, or − / + one merge at a time) and the training corpus.
// pycore: pycore/widgets/bpe.py (numbers and picture); the controls, marks and pointing are the
// book's common ones. What is special: the page already shows the characters, which never
// change, and the chart of the corpus it displays, so it tells pycore which corpus and k it
// shows (`shown`): the chart comes only when the corpus changed, a sentence's boxes only when
// one of its tokens did.
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, sendingShown(runtime, (p) => ({ corpus: p.corpus, k: p.k })));
}
