// Widget code-lab: edit pycore/block.py in the box and run it in Pyodide; errors come back as
// Python tracebacks. pycore: pycore/widgets/code_lab.py (view(seed, causal, code=None)).
// The code is not a block parameter and not part of the widget's state (so it never lands in
// a shared link, and no link can run code in a reader's page): "运行" hands the box's text to
// pycore as `code` alongside the state; reset forgets it, so pycore runs (and returns) the
// original source again.
// A run takes longer than a frame (the original block: ~30 ms of NumPy in Pyodide; edited code
// can take seconds). It runs in the runtime's worker, so the page stays responsive meanwhile:
// "运行" and "恢复原始代码" show that the code is running (the button's text, a note, the old
// output dimmed, aria-busy) until the new output replaces the old one.
import { liveWidget } from "./common.js";

const RUNNING = "正在运行，完成后结果会替换下面的输出…";

// One element with optional text (textContent: whatever the reader's code names things).
function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function mount(root, runtime) {
  const box = root.querySelector("[data-control=code]");
  const table = root.querySelector('table[data-matrix="weights"]');
  const heat = root.querySelector('[data-part="heat"]');
  const shapes = root.querySelector('[data-part="shapes"]');
  const note = root.querySelector('[data-part="note"]');
  const error = root.querySelector(".lab-error");

  // The weights table gets as many rows and columns as the code's lab_report returned,
  // before common.js fills the cells (edited code may return a different size, or none).
  function fitTable(view) {
    const n = view.weights.length;
    const body = table.tBodies[0];
    if (body.rows.length === n && (n === 0 || body.rows[0].cells.length === n + 1)) return;
    const head = el("tr");
    head.append(el("th", "", { scope: "col" }), ...view.positions.map((p) => el("th", p, { scope: "col" })));
    table.tHead.replaceChildren(head);
    body.replaceChildren(...view.positions.map((p) => {
      const tr = el("tr");
      tr.append(el("th", p, { scope: "row" }), ...view.positions.map(() => el("td")));
      return tr;
    }));
  }
  let code = null;  // the text last run; null = the original source
  const labRuntime = {
    async compute(name, params) {
      const view = await runtime.compute(name, code === null ? params : { ...params, code });
      fitTable(view);
      return view;
    },
  };

  function draw(view) {
    if (box.value !== view.code) box.value = view.code;  // reset: the original source again
    error.hidden = view.error === "";
    heat.hidden = view.weights.length === 0;
    table.caption.textContent = view.heat_caption;
    shapes.replaceChildren(...view.shapes.map((row) => {
      const tr = el("tr");
      tr.append(el("td", row.name), el("td", row.text));
      return tr;
    }));
    note.textContent = view.error ? "运行出错：错误信息在下面，改好再运行，或者恢复原始代码"
      : view.edited ? "运行的是修改过的代码" : "显示的是原始代码的运行结果";
  }

  // The frame's reset button: forget the code first (this listener is added before
  // liveWidget's own, so it runs first).
  root.querySelector("[data-action=reset]").addEventListener("click", () => { code = null; });
  const widget = liveWidget(root, labRuntime, { draw });
  const runButton = root.querySelector("[data-action=run]");
  const runLabel = runButton.textContent;
  let busy = false;
  function runWith(source, start) {
    if (busy) return;  // one run at a time; a second click while it is pending does nothing
    busy = true;
    root.setAttribute("aria-busy", "true");
    runButton.textContent = "运行中…";
    const noteBefore = note.textContent;
    note.textContent = RUNNING;
    code = source;
    start().finally(() => {
      busy = false;
      root.removeAttribute("aria-busy");
      runButton.textContent = runLabel;
      if (note.textContent === RUNNING) note.textContent = noteBefore;  // the view was refused
    });
  }
  const run = () => runWith(box.value, () => widget.update({}));
  const restore = () => runWith(null, () => widget.reset());

  runButton.addEventListener("click", run);
  root.querySelector("[data-action=restore]").addEventListener("click", restore);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && root.dataset.state === "live") {
      event.preventDefault();
      run();
    }
  });
}
