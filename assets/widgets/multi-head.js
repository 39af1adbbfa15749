// Widget multi-head: pick a token (its row and strongest key are framed in both heads'
// heatmaps, its curves drawn), choose which heads feed W_O (A and B, A only, B only). pycore:
// pycore/widgets/multi_head.py (numbers and picture); templates/widgets/multi-head.html. Its
// controls, marks and pointing are the book's common ones. What is special: the page already
// shows the heads' weights, which change only with the reader's example, and asks pycore only
// for the parts the last input changed (`shown`: the query and heads on the page, and the
// example whose sentence it draws; the build drew the book's).
import { liveWidget, sendingShown } from "./common.js";

export function mount(root, runtime) {
  const shownOf = (p) => ({ query: p.query, heads: p.heads,
                            ...(p.example ? { example: p.example } : {}) });
  liveWidget(root, sendingShown(runtime, shownOf));
}
