// Widget multi-head: pick a token (its row lights up in every table), choose which heads feed
// W_O (A and B, A only, B only). pycore: pycore/widgets/multi_head.py.
// The concat and W_O tables change shape with the heads (9 x 12 or 9 x 6, 12 x 6 or 6 x 6):
// their rows and columns are rebuilt before the numbers are written into them.
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
  const body = root.querySelector(".mh-body");
  const tokens = [...root.querySelectorAll("[data-token]")];
  const headButtons = [...root.querySelectorAll("button[data-heads]")];
  const concat = root.querySelector('table[data-matrix="concat"]');
  const wO = root.querySelector('table[data-matrix="w_o"]');

  // Shape the variable tables before liveWidget writes the new numbers into them.
  const shaped = {
    async compute(name, params) {
      const view = await runtime.compute(name, params);
      reshape(concat, view.tokens, view.concat_cols);
      reshape(wO, view.concat_cols, view.features);
      return view;
    },
  };

  const draw = (view) => {
    root.querySelectorAll("table[data-matrix]:not(.mh-wo) tbody tr").forEach((tr) => {
      tr.classList.toggle("sel", tr.sectionRowIndex === view.index);
    });
    body.dataset.heads = view.heads;
  };
  const sync = (state) => {
    tokens.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.token === state.query)));
    headButtons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.heads === state.heads)));
  };
  const widget = liveWidget(root, shaped, { draw, sync });

  tokens.forEach((b) => b.addEventListener("click", () => widget.update({ query: b.dataset.token })));
  headButtons.forEach((b) => b.addEventListener("click", () => widget.update({ heads: b.dataset.heads })));
}
