// Widget code-lab: edit pycore/block.py in the box and run it in Pyodide; errors come back as
// Python tracebacks. pycore: pycore/widgets/code_lab/__init__.py (view(seed, causal, code, interrupted)):
// its numbers and its heatmap (fixed slots) are bound like every widget's; what is written
// here is the list of steps and the weights table, whose length is the reader's code's.
// The code is not a block parameter and not part of the widget's state (so it never lands in
// a shared link, and no link can run code in a reader's page): "运行" hands the box's text to
// pycore as `code` alongside the state; reset forgets it, so pycore runs (and returns) the
// original source again, in the widgets' runtime.
// The reader's code runs in a Python of its own (assets/reader.js): a dedicated worker,
// apart from the widgets' runtime, fresh for every run. While it runs, "■ 停止" ends it, and so
// does the time limit (the view's time_limit); so does Python ending itself (os._exit). The
// worker goes, with its memory, and pycore explains what happened (`interrupted`). The next
// run's worker boots as soon as a run ends (and when the reader first comes to the box).
import { readerSession } from "../reader.js";
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
  const lab = readerSession({ timeLimit: () => widget.view.time_limit });
  const labRuntime = {
    async compute(name, params, texts) {
      let view;
      if (code === null) {
        view = await runtime.compute(name, params, texts);
      } else {
        const outcome = await lab.run((reader) => reader.compute(name, { ...params, code }, texts));
        view = outcome.result ?? await runtime.compute(name, { ...params, code,
                                                               interrupted: outcome.interrupted },
                                                       texts);
        lab.shown();  // liveWidget draws the view before the next Python starts
      }
      fitTable(view);
      return view;
    },
  };

  function draw(view) {
    if (box.value !== view.code) box.value = view.code;  // reset: the original source again
    error.hidden = view.error === "";
    table.caption.textContent = view.heat_caption;
    shapes.replaceChildren(...view.shapes.map((row, k) => {
      const li = el("li", undefined, view.changed[k] ? { class: "changed" } : {});
      li.append(el("span", row.name, { class: "step-name" }),
                el("span", row.text, { class: "step-shape" }));
      return li;
    }));
    note.textContent = view.error ? "运行出错：错误信息在下面，改好再运行，或者恢复原始代码"
      : view.edited ? "运行的是修改过的代码" : "显示的是原始代码的运行结果";
  }

  // The frame's reset button: forget the code first (this listener is added before
  // liveWidget's own, so it runs first).
  root.querySelector("[data-action=reset]").addEventListener("click", () => { code = null; });
  const widget = liveWidget(root, labRuntime, { draw, ahead: false });  // a run: never on a mere press
  const runButton = root.querySelector("[data-action=run]");
  const runLabel = runButton.textContent;
  let busy = false;
  const stopButton = root.querySelector("[data-action=stop]");
  function runWith(source, start) {
    if (busy) return;  // one run at a time; a second click while it is pending does nothing
    busy = true;
    root.setAttribute("aria-busy", "true");
    runButton.textContent = "运行中…";
    stopButton.hidden = source === null;  // the original runs in the widgets' Python
    const noteBefore = note.textContent;
    note.textContent = RUNNING;
    code = source;
    start().finally(() => {
      busy = false;
      root.removeAttribute("aria-busy");
      runButton.textContent = runLabel;
      stopButton.hidden = true;
      if (note.textContent === RUNNING) note.textContent = noteBefore;  // the view was refused
    });
  }
  stopButton.addEventListener("click", () => lab.stop());
  root.addEventListener("focusin", () => lab.prepare(), { once: true });
  runButton.addEventListener("pointerenter", () => lab.prepare(), { once: true });
  const run = () => runWith(box.value, () => widget.update({}));
  const restore = () => runWith(null, () => widget.reset());

  runButton.addEventListener("click", run);
  root.querySelector("[data-action=restore]").addEventListener("click", restore);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && root.dataset.state === "live") {
      event.preventDefault();
      run();
    } else if (event.key === "Escape" && busy) {
      lab.stop();
    }
  });
}
