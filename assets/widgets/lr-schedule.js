// Widget lr-schedule: warmup, peak, total steps and the decay shape set the curve; hovering
// the curve (mouse, or a finger held down and dragged), arrow keys on it, or the step box pick
// the step whose rate is read out. pycore: pycore/widgets/lr_schedule.py.
// Plot geometry comes from the view: 560 x 200 SVG units, step 0 at x = 0.
import { fmt, liveWidget } from "./common.js";

const PLOT_W = 560;

export function mount(root, runtime) {
  const svg = root.querySelector("svg.lr-plot");
  const control = (name) => root.querySelector(`[data-control="${name}"]`);
  const part = (name) => root.querySelector(`[data-part="${name}"]`);
  const radios = [...root.querySelectorAll("[data-control=decay]")];

  // Write a control's value unless the reader is typing in it.
  const show = (el, value) => {
    if (el !== document.activeElement || Number(el.value) !== Number(value)) el.value = value;
  };

  function draw(view) {
    part("curve").setAttribute("points", view.plot.points);
    const [mx, my] = view.plot.marker;
    part("marker").setAttribute("cx", mx);
    part("marker").setAttribute("cy", my);
    for (const k of ["x1", "x2"]) {
      part("cursor").setAttribute(k, mx);
      part("warmup").setAttribute(k, view.plot.peak_x);
    }
    view.ticks.forEach((t, i) => {
      root.querySelector(`[data-tick="${i}"]`).setAttribute("x1", t.x);
      root.querySelector(`[data-tick="${i}"]`).setAttribute("x2", t.x);
      const label = root.querySelector(`[data-tick-label="${i}"]`);
      label.setAttribute("x", t.x);
      label.textContent = t.label;
    });
    svg.setAttribute("aria-valuemax", view.total);
    svg.setAttribute("aria-valuenow", view.step);
    svg.setAttribute("aria-valuetext", `第 ${view.step} 步：${fmt(view.lr.m, 3)} × 10^${view.lr.e}`);
    // controls show what pycore used (warmup and step are clipped to the total)
    show(control("warmup"), view.warmup);
    control("warmup_range").value = view.warmup;
    show(control("peak"), view.peak_value);
    control("peak_log").value = view.peak_log.toFixed(2);
    show(control("total"), view.total);
    control("total_range").value = view.total;
    control("min_ratio").value = view.min_ratio;
    const step = control("step");
    step.max = view.total;
    show(step, view.step);
    radios.forEach((r) => { r.checked = r.value === view.decay; });
  }

  const widget = liveWidget(root, runtime, { draw });
  const live = () => root.dataset.state === "live";

  // Number boxes: recompute once the typed value is a whole number in range.
  function intBox(name, key) {
    const box = control(name);
    box.addEventListener("input", () => {
      const n = Number(box.value);
      if (box.value === "" || !Number.isInteger(n) || n < Number(box.min) || n > Number(box.max)) return;
      widget.update({ [key]: n });
    });
  }
  intBox("warmup", "warmup");
  intBox("total", "total");
  intBox("step", "step");
  control("peak").addEventListener("input", () => {
    const box = control("peak");
    const x = Number(box.value);
    if (box.value === "" || !Number.isFinite(x) || x < 1e-5 || x > 1e-2) return;
    widget.update({ peak: x });
  });
  control("warmup_range").addEventListener("input", (e) => widget.update({ warmup: Number(e.target.value) }));
  control("total_range").addEventListener("input", (e) => widget.update({ total: Number(e.target.value) }));
  control("peak_log").addEventListener("input", (e) => widget.update({ peak: 10 ** Number(e.target.value) }));
  control("min_ratio").addEventListener("input", (e) => widget.update({ min_ratio: Number(e.target.value) }));
  radios.forEach((r) => r.addEventListener("change", () => { if (r.checked) widget.update({ decay: r.value }); }));

  // The curve as a slider: pick a step on the grid of sample steps (view.grid apart).
  const pick = (step) => {
    const total = widget.view.total;
    const s = Math.min(total, Math.max(0, step));
    if (s !== widget.view.step) widget.update({ step: s });
  };
  const snap = (step) => Math.round(step / widget.view.grid) * widget.view.grid;

  function stepAt(event) {
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return snap((p.x / PLOT_W) * widget.view.total);
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
  svg.addEventListener("keydown", (event) => {
    if (!live()) return;
    const { grid, step, total } = widget.view;
    const big = 10 * grid;
    const moves = {
      ArrowLeft: -grid, ArrowDown: -grid, ArrowRight: grid, ArrowUp: grid,
      PageDown: -big, PageUp: big,
    };
    let next;
    if (event.key === "Home") next = 0;
    else if (event.key === "End") next = total;
    else if (event.key in moves) next = snap(step) + (event.shiftKey ? 10 : 1) * moves[event.key];
    else return;
    event.preventDefault();
    pick(next);
  });
}
