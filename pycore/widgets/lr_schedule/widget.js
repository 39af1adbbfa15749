// Widget lr-schedule: warmup, peak, total steps and the decay shape set the curve (the book's
// controls); the plot is a slider for the step whose rate is read out. pycore:
// pycore/widgets/lr_schedule/__init__.py (numbers, the line chart and its marks). What is special
// here: a pointer on the plot (a mouse hovering, a finger or pen held down) or a key on it
// picks a step, on the grid of sample steps; the pointer is mapped to a step with the view's
// plot geometry (its x, width and total), the inverse of how the view placed the curve.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const widget = liveWidget(root, runtime);
  const plot = root.querySelector(".lr-plot");
  const svg = plot.querySelector("svg");
  const live = () => root.dataset.state === "live";

  const pick = (step) => {
    const s = Math.min(widget.view.total, Math.max(0, step));
    if (s !== widget.state.step) widget.update({ step: s });
  };
  const snap = (step) => Math.round(step / widget.view.grid) * widget.view.grid;
  function stepAt(event) {
    const toSvg = svg.getScreenCTM().inverse();
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(toSvg);
    const { x, w } = widget.view.chart.plot;
    return snap(((p.x - x) / w) * widget.view.total);
  }

  svg.addEventListener("pointermove", (event) => {
    if (!live()) return;
    // a mouse hovers; a finger or pen must be held down (pointer capture keeps the drag)
    if (event.pointerType !== "mouse" && !svg.hasPointerCapture(event.pointerId)) return;
    pick(stepAt(event));
  });
  svg.addEventListener("pointerdown", (event) => {
    if (!live()) return;
    svg.setPointerCapture(event.pointerId);
    pick(stepAt(event));
  });
  plot.addEventListener("keydown", (event) => {
    if (!live()) return;
    const { grid, step, total } = widget.view;
    const moves = {
      ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10,
    };
    let next;
    if (event.key === "Home") next = 0;
    else if (event.key === "End") next = total;
    else if (event.key in moves) {
      next = snap(step) + (event.shiftKey ? 10 : 1) * moves[event.key] * grid;
    }
    else return;
    event.preventDefault();
    pick(next);
  });
}
