// Widget multi-head: pick a token (its row is framed in both heads' heatmaps, its curves
// drawn), choose which heads feed W_O (A and B, A only, B only). pycore:
// pycore/widgets/multi_head.py (numbers and picture); the controls, marks and pointing are
// the book's common ones. What is special: the page already shows the heads' weights, which
// change only with the reader's example, and asks pycore only for the parts the last input
// changed (`shown`: the query's rows and curves, the heads' layer, or all of it for another
// example); and the concat and W_O tables change shape with the heads (9 x 12 or 9 x 6,
// 12 x 6 or 6 x 6), so their rows and columns are rebuilt before the numbers are written.
import { liveWidget } from "./common.js";

// Give table[data-matrix] one row per rowLabels entry and one column per colLabels entry.
function reshape(table, rowLabels, colLabels) {
  const head = table.querySelector("thead tr");
  const body = table.querySelector("tbody");
  const cols = body.rows[0]?.cells.length - 1;
  if (body.rows.length === rowLabels.length && cols === colLabels.length) {
    [...head.cells].slice(1).forEach((th, j) => { th.textContent = colLabels[j]; });
    [...body.rows].forEach((tr, i) => { tr.cells[0].textContent = rowLabels[i]; });
    return;
  }
  const th = (text, scope) => {
    const el = document.createElement("th");
    el.scope = scope;
    el.textContent = text;
    return el;
  };
  head.replaceChildren(th("", "col"), ...colLabels.map((c) => th(c, "col")));
  body.replaceChildren(...rowLabels.map((r) => {
    const tr = document.createElement("tr");
    tr.append(th(r, "row"), ...colLabels.map(() => document.createElement("td")));
    return tr;
  }));
}

export function mount(root, runtime) {
  const concat = root.querySelector('table[data-matrix="concat"]');
  const wO = root.querySelector('table[data-matrix="w_o"]');
  let shown = {};  // the query and heads the page shows: none is known before the first view

  // Shape the variable tables before liveWidget writes the new numbers into them.
  const parts = {
    async compute(name, params) {
      const view = await runtime.compute(name, { ...params, shown });
      if ("concat_cols" in view) {
        reshape(concat, view.tokens, view.concat_cols);
        reshape(wO, view.concat_cols, view.features);
      }
      shown = { query: params.query, heads: params.heads, example: params.example };
      return view;
    },
  };
  liveWidget(root, parts);
}
