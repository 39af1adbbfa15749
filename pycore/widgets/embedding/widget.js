// Widget embedding: pick token A and token B to compare their embeddings. pycore:
// pycore/widgets/embedding/__init__.py (numbers and frames, in parts: the matrices change only with the
// reader's example, a pick brings the pair's part alone); the pickers, the heatmaps and
// pointing are the book's common ones.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
}
