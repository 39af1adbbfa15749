// Widget example-editor: the reader edits the running example in place, and every widget over
// the example on the page follows (assets/widgets/example.js keeps the example in the URL and
// the browser's storage). pycore: pycore/widgets/example_editor/__init__.py checks the example and
// says what changed. What is special here: the grid of entries (a click switches one between
// 0 and 1; the grid is one Tab stop, the arrow keys move in it), the sentence (a token's chip
// removes it; a palette button adds its token at the chosen position; each group is one Tab
// stop with the arrow keys inside), and 重置, which also restores the book's example. The
// view comes in parts (pycore's PARTS): a new query brings only the preview. The press on an
// entry, a chip or a token asks ahead for the views its click's example brings (example.js
// aheadExample).
import { currentParams, liveWidget } from "./common.js";
import { onPress, roving } from "./controls.js";
import { aheadExample, currentExample, exampleRefused, setExample, settleExample } from "./example.js";

const SET_ASIDE = "链接或浏览器里存着的例子无法使用，已略去。";

export function mount(root, runtime) {
  const cells = [...root.querySelectorAll(".ex-cell")];
  const cols = Number(root.querySelectorAll(".ex-grid thead th").length - 1);
  const live = () => root.dataset.state === "live";
  // pycore's canonical form of what it accepted: a refused link leaves the URL and storage
  const chips = [...root.querySelectorAll("[data-action=remove]")];
  const adds = [...root.querySelectorAll("[data-action=add]")];
  const position = root.querySelector(".ex-pos");
  const setAside = root.querySelector(".ex-set-aside");
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
  const draw = (part, view) => {
    settleExample(currentParams(root).example ?? null, view.canonical);  // the view drawn's
    // the page's word on an example it set aside (example.js), as pycore's on one it refuses
    setAside.textContent = exampleRefused() && !view.problem_text ? SET_ASIDE : "";
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
  const widget = liveWidget(root, runtime, { draw });

  // The example a click on one of the editor's buttons brings (null: the button does nothing).
  const edited = (view) => ({
    x: view.x.map((row) => [...row]), pronoun: [...view.pronoun], tokens: [...view.sentence],
  });
  const usable = (button) => live() && widget.view && button.getAttribute("aria-disabled") !== "true";
  const removal = (chip) => {
    if (!usable(chip)) return null;
    const next = edited(widget.view);
    next.tokens.splice(Number(chip.dataset.slot), 1);
    return next;
  };
  const addAt = () => Math.min(Number(position.value), widget.view.sentence.length);
  const addition = (button) => {
    if (!usable(button)) return null;
    const next = edited(widget.view);
    next.tokens.splice(addAt(), 0, button.dataset.token);
    return next;
  };
  const toggled = (cell) => {
    if (!usable(cell)) return null;
    const next = edited(widget.view);
    const { row, col } = cell.dataset;
    const entries = row === "q" ? next.pronoun : next.x[Number(row)];
    entries[Number(col)] = entries[Number(col)] > 0 ? 0 : 1;
    return next;
  };
  // a button's press asks ahead for its click's example; first: the widget that answers first
  const askAhead = (button, example, first = null) => onPress(button, () => {
    const next = example(button);
    if (next) aheadExample(next, first);
  });

  chips.forEach((chip) => {
    chip.addEventListener("click", () => {
      const next = removal(chip);
      if (!next) return;
      refocus = Number(chip.dataset.slot);
      setExample(next);
    });
    askAhead(chip, removal);
  });
  adds.forEach((button) => {
    button.addEventListener("click", () => {
      const next = addition(button);
      if (!next) return;
      refocus = addAt();
      position.value = String(refocus + 1);  // the next addition goes after this one
      setExample(next);
    });
    askAhead(button, addition);
  });
  roving(root.querySelector(".ex-chips"), () => shown(chips));
  roving(root.querySelector(".ex-palette"), () => shown(adds));
  [chips, adds].forEach((list) => list.forEach((b) => b.addEventListener("focus", () => {
    list.forEach((other) => { other.tabIndex = other === b ? 0 : -1; });
  })));

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
      const next = toggled(button);
      if (!next) return;
      focusCell(k);
      setExample(next, root);  // this widget answers first: the reader looks at it
    });
    askAhead(button, toggled, root);
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
