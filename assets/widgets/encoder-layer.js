// Widget encoder-layer: step through one encoder layer (buttons, a click on a step, or arrow
// keys on the step list) in the Post-LN or Pre-LN arrangement. pycore: pycore/widgets/encoder_layer.py.
// Cells are shaded with classes p1..p5 (positive) / n1..n5 (negative) from the view's tones.
import { liveWidget } from "./common.js";

const toneClass = (t) => (t > 0 ? `p${t}` : t < 0 ? `n${-t}` : "");

function paint(table, tone) {
  table.querySelectorAll("tbody tr").forEach((tr, i) => {
    tr.querySelectorAll("td").forEach((td, j) => {
      td.className = j < tone[i].length ? toneClass(tone[i][j]) : "stat";
    });
  });
}

export function mount(root, runtime) {
  const prev = root.querySelector("[data-action=prev]");
  const next = root.querySelector("[data-action=next]");
  const list = root.querySelector(".enc-steps");
  const items = [...list.querySelectorAll("[role=option]")];
  const radios = [...root.querySelectorAll("[data-control=layout]")];
  const grid = root.querySelector('table[data-matrix="grid"]');
  const hidden = root.querySelector('table[data-matrix="hidden"]');

  const draw = (view) => {
    items.forEach((li, i) => {
      const s = view.steps[i];
      li.hidden = !s;
      li.querySelector(".enc-step-name").textContent = s ? s.name : "";
      li.querySelector(".enc-step-label").textContent = s ? s.label : "";
      li.setAttribute("aria-selected", String(i + 1 === view.step));
    });
    list.setAttribute("aria-activedescendant", items[view.step - 1].id);
    root.querySelector(".enc-body").dataset.kind = view.kind;
    prev.setAttribute("aria-disabled", String(view.step <= 1));
    next.setAttribute("aria-disabled", String(view.step >= view.n_steps));
    paint(grid, view.tone);
    paint(hidden, view.hidden_tone);
  };
  const sync = (state) => {
    radios.forEach((r) => { r.checked = r.value === state.layout; });
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  // Move from the step shown (the view clamps a step past the end of a shorter list).
  const goto = (step) => {
    const s = Math.min(widget.view.n_steps, Math.max(1, step));
    if (s !== widget.view.step) widget.update({ step: s });
  };
  const live = () => root.dataset.state === "live";
  prev.addEventListener("click", () => live() && goto(widget.view.step - 1));
  next.addEventListener("click", () => live() && goto(widget.view.step + 1));
  items.forEach((li) => li.addEventListener("click", () => live() && goto(Number(li.dataset.step))));
  list.addEventListener("keydown", (event) => {
    if (!live()) return;
    const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (event.key in moves) goto(widget.view.step + moves[event.key]);
    else if (event.key === "Home") goto(1);
    else if (event.key === "End") goto(widget.view.n_steps);
    else return;
    event.preventDefault();
  });
  radios.forEach((r) => r.addEventListener("change", () => {
    if (r.checked) widget.update({ layout: r.value });
  }));
}
