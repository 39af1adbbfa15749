// Widget kv-cache: step through the generation of the running sentence (buttons, or arrow keys
// on the step counter) and compare recomputing K, V with appending one cached row; below, the
// cache size of a real model (preset, context length, bytes per number).
// pycore: pycore/widgets/kv_cache.py.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const prev = root.querySelector("[data-action=prev]");
  const next = root.querySelector("[data-action=next]");
  const counter = root.querySelector(".kv-step");
  const preset = root.querySelector("[data-control=preset]");
  const context = root.querySelector("[data-control=context]");
  const dtype = root.querySelector("[data-control=dtype]");

  const draw = (view) => {
    root.querySelectorAll("table.kv-table").forEach((table) => {
      const kind = table.dataset.kind;
      table.querySelectorAll("tbody tr").forEach((tr) => {
        const r = Number(tr.dataset.row);
        const shown = r <= view.context_rows;
        tr.hidden = !shown;
        tr.classList.toggle("recomputed", shown && kind === "nocache");
        tr.classList.toggle("new", shown && kind === "cache" && r >= view.new_from);
        tr.classList.toggle("cached", shown && kind === "cache" && r < view.new_from);
      });
    });
    root.querySelectorAll("table[data-matrix=macs] tbody tr").forEach((tr, i) => {
      tr.classList.toggle("current", i + 1 === view.step);
    });
    counter.setAttribute("aria-valuenow", view.step);
    counter.setAttribute("aria-valuetext", `第 ${view.step} 步，读入 ${view.context_rows} 个词`);
    prev.disabled = view.step <= 1;
    next.disabled = view.step >= view.n_steps;
  };
  const sync = (state) => {
    preset.value = state.preset;
    dtype.value = state.dtype;
    if (Number(context.value) !== state.context) context.value = state.context;
  };
  const widget = liveWidget(root, runtime, { draw, sync });
  const last = () => widget.view.n_steps;
  const goto = (step) => {
    const s = Math.min(last(), Math.max(1, step));
    if (s !== widget.state.step) widget.update({ step: s });
  };

  prev.addEventListener("click", () => goto(widget.state.step - 1));
  next.addEventListener("click", () => goto(widget.state.step + 1));
  counter.addEventListener("keydown", (event) => {
    if (root.dataset.state !== "live") return;
    const moves = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    const targets = { Home: 1, End: last() };
    if (event.key in moves) goto(widget.state.step + moves[event.key]);
    else if (event.key in targets) goto(targets[event.key]);
    else return;
    event.preventDefault();
  });
  preset.addEventListener("change", () => widget.update({ preset: preset.value }));
  dtype.addEventListener("change", () => widget.update({ dtype: dtype.value }));
  context.addEventListener("input", () => {
    const n = Number(context.value);
    if (!Number.isInteger(n) || n < 1 || n > Number(context.max)) return;  // keep typing
    widget.update({ context: n });
  });
}
