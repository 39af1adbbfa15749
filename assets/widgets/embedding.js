// Widget embedding: pick token A and token B (click, or focus + Enter/Space) to compare
// their embeddings. pycore: pycore/widgets/embedding.py. The tables never change; draw()
// only marks the picked rows of the embedding table and the pair's cells in the 9x9 tables.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const buttons = [...root.querySelectorAll("[data-pick]")];
  const rowsOf = (path) => [...root.querySelectorAll(`table[data-matrix="${path}"] tbody tr`)];

  const draw = (view) => {
    rowsOf("embeddings").forEach((tr, i) => {
      tr.classList.toggle("pick-a", i === view.ia);
      tr.classList.toggle("pick-b", i === view.ib);
    });
    for (const path of ["dots", "cosines"]) {
      rowsOf(path).forEach((tr, i) => {
        tr.querySelectorAll("td").forEach((td, j) => {
          const hit = (i === view.ia && j === view.ib) || (i === view.ib && j === view.ia);
          td.classList.toggle("pair", hit);
        });
      });
    }
  };
  const sync = (state) => {
    buttons.forEach((b) => {
      b.setAttribute("aria-pressed", String(b.dataset.token === state[b.dataset.pick]));
    });
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  buttons.forEach((b) => b.addEventListener("click", () => {
    widget.update({ [b.dataset.pick]: b.dataset.token });
  }));
}
