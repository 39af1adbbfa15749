// Widget example-editor: the reader edits the running example in place, and every widget over
// the example on the page follows (assets/widgets/example.js keeps the example in the URL and
// the browser's storage). pycore: pycore/widgets/example_editor.py checks the example and
// says what changed. What is special here: the grid of entries (a click switches one between
// 0 and 1; the grid is one Tab stop, the arrow keys move in it), and 重置, which also
// restores the book's example.
import { liveWidget } from "./common.js";
import { currentExample, setExample, settleExample } from "./example.js";

export function mount(root, runtime) {
  const cells = [...root.querySelectorAll(".ex-cell")];
  const cols = Number(root.querySelectorAll(".ex-grid thead th").length - 1);
  const live = () => root.dataset.state === "live";
  // pycore's canonical form of what it accepted: a refused link leaves the URL and storage
  let sent = null;  // the example of the request in flight (one at a time)
  const tracked = {
    compute: (name, params) => {
      sent = params.example ?? null;
      return runtime.compute(name, params);
    },
  };
  const draw = (view) => settleExample(sent, view.canonical);
  const widget = liveWidget(root, tracked, { draw });

  function toggle(button) {
    const view = widget.view;
    const next = { x: view.x.map((row) => [...row]), pronoun: [...view.pronoun] };
    const { row, col } = button.dataset;
    const entries = row === "q" ? next.pronoun : next.x[Number(row)];
    entries[Number(col)] = entries[Number(col)] > 0 ? 0 : 1;
    setExample(next, root);  // this widget answers first: the reader looks at it
  }

  root.querySelector("[data-action=reset]").addEventListener("click", () => {
    if (currentExample()) setExample(null, root);
  });

  // one Tab stop for the grid: the focused cell is the tabbable one (two cells change)
  let tabbable = 0;
  const focusCell = (k) => {
    cells[tabbable].tabIndex = -1;
    cells[k].tabIndex = 0;
    tabbable = k;
    cells[k].focus();
  };
  cells[0].tabIndex = 0;  // the template makes every cell -1
  const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols };
  cells.forEach((button, k) => {
    button.addEventListener("click", () => {
      if (!live() || !widget.view) return;
      focusCell(k);
      toggle(button);
    });
    button.addEventListener("keydown", (event) => {
      let to = null;
      if (event.key in moves) to = k + moves[event.key];
      else if (event.key === "Home") to = k - (k % cols);
      else if (event.key === "End") to = k - (k % cols) + cols - 1;
      if (to === null) return;
      event.preventDefault();
      if (to >= 0 && to < cells.length) focusCell(to);
    });
  });
}
