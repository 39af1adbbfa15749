// Widget bpe: the merge count k (slider, or − / + one merge at a time) and the training corpus.
// pycore: pycore/widgets/bpe.py (numbers and picture); the controls, marks and pointing are the
// book's common ones. What is special: the page already shows the characters, which never
// change, and the chart of the corpus it displays, so it tells pycore which corpus that is
// (`shown`) and gets the chart only when the corpus changed.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  let shown = {};  // nothing is known to be shown before the first live view
  const parts = {
    async compute(name, params) {
      const view = await runtime.compute(name, { ...params, shown });
      shown = { corpus: params.corpus };
      return view;
    },
  };
  liveWidget(root, parts);
}
