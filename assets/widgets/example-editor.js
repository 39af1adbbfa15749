// Widget example-editor: the reader edits the running example in place, and every widget over
// the example on the page follows (assets/widgets/example.js keeps the example in the URL and
// the browser's storage). pycore: pycore/widgets/example_editor.py checks the example and
// says what changed. What is special here: the grid of entries (a click switches one between
// 0 and 1; the grid is one Tab stop, the arrow keys move in it), the sentence (a token's chip
// removes it; a palette button adds its token at the chosen position; each group is one Tab
// stop with the arrow keys inside), and 重置, which also restores the book's example. Each
// request names the example the page shows, so pycore leaves out the parts it decides that
// did not change (a new query: only the preview comes back).
import { liveWidget, sendingShown } from "./common.js";
import { roving } from "./controls.js";
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
  const chips = [...root.querySelectorAll("[data-action=remove]")];
  const adds = [...root.querySelectorAll("[data-action=add]")];
  const position = root.querySelector(".ex-pos");
  const shown = (list) => list.filter((b) => !b.closest("[hidden]"));
  // one Tab stop per group: keep it on a shown button (the focused one if shown)
  const keepTabStop = (list) => {
    const visible = shown(list);
    const current = visible.find((b) => b === document.activeElement)
      ?? visible.find((b) => b.tabIndex === 0) ?? visible[0];
    list.forEach((b) => { b.tabIndex = b === current ? 0 : -1; });
    return current;
  };
  let refocus = null;  // after a removal or an addition: which chip takes the focus
  const draw = (view) => {
    settleExample(sent, view.canonical);
    if (Number(position.value) > view.n) position.value = String(view.n);
    if (refocus !== null) {
      const chip = shown(chips)[Math.min(refocus, view.n - 1)];
      refocus = null;
      chips.forEach((b) => { b.tabIndex = b === chip ? 0 : -1; });
      chip?.focus();
    }
    keepTabStop(chips);
    keepTabStop(adds);
  };
  const shownOf = (params) => ({ example: params.example ?? null });  // the example drawn
  const widget = liveWidget(root, sendingShown(tracked, shownOf), { draw });

  const edited = (view) => ({
    x: view.x.map((row) => [...row]), pronoun: [...view.pronoun], tokens: [...view.sentence],
  });

  chips.forEach((chip) => chip.addEventListener("click", () => {
    if (!live() || !widget.view || chip.getAttribute("aria-disabled") === "true") return;
    const next = edited(widget.view);
    const at = Number(chip.dataset.slot);
    next.tokens.splice(at, 1);
    refocus = at;
    setExample(next);
  }));
  adds.forEach((button) => button.addEventListener("click", () => {
    if (!live() || !widget.view || button.getAttribute("aria-disabled") === "true") return;
    const next = edited(widget.view);
    const at = Math.min(Number(position.value), next.tokens.length);
    next.tokens.splice(at, 0, button.dataset.token);
    position.value = String(at + 1);  // the next addition goes after this one
    refocus = at;
    setExample(next);
  }));
  roving(root.querySelector(".ex-chips"), () => shown(chips));
  roving(root.querySelector(".ex-palette"), () => shown(adds));
  [chips, adds].forEach((list) => list.forEach((b) => b.addEventListener("focus", () => {
    list.forEach((other) => { other.tabIndex = other === b ? 0 : -1; });
  })));

  function toggle(button) {
    const view = widget.view;
    const next = edited(view);
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
