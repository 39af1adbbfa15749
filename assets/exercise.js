// An exercise (templates/exercise.html): the reader writes a function, "检查" runs pycore's
// checker on it (pycore/exercises/) in the reader's own Python (assets/reader.js: a worker
// apart from the widgets', ended by 停止 or the block's time limit) and shows the teacher's
// feedback it returns. Hints come one at a time, the solution only after a first check, both
// from that Python on request. Code, seed and progress stay in this browser (progress.js).
import { makeEditor } from "./editor.js";
import { load, save } from "./progress.js";
import { readerSession } from "./reader.js";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// The feedback as the page shows it: all text nodes (the reader's output included).
function showFeedback(box, fb) {
  const parts = [el("p", fb.title, "fb-title"), el("p", fb.message, "fb-message")];
  if (fb.advice?.length) {
    const list = el("ul", undefined, "fb-advice");
    fb.advice.forEach((a) => list.append(el("li", a)));
    parts.push(list);
  }
  if (fb.case?.code) {
    parts.push(el("p", "自己跑一遍这个用例（把下面的代码贴到你的函数后面）：", "fb-label"),
               el("pre", fb.case.code, "fb-code"));
  }
  if (fb.error?.traceback) parts.push(el("pre", fb.error.traceback, "fb-traceback"));
  if (fb.warnings?.length) fb.warnings.forEach((w) => parts.push(el("p", w, "fb-warning")));
  if (fb.output) parts.push(el("p", "你的代码打印了：", "fb-label"), el("pre", fb.output, "fb-output"));
  box.replaceChildren(...parts);
  box.dataset.status = fb.status;
}

// widgetsRuntime(): the widgets' runtime, booted (asked only to explain a check that had to end).
export function mount(root, widgetsRuntime) {
  const name = root.dataset.exercise;
  const box = root.querySelector("[data-part=code]");
  const feedback = root.querySelector("[data-part=feedback]");
  const hintsList = root.querySelector("[data-part=hints]");
  const solution = root.querySelector("[data-part=solution]");
  const status = root.querySelector(".exercise-status");
  const button = (action) => root.querySelector(`[data-action=${action}]`);
  const starter = box.value;
  const hintsTotal = Number(root.dataset.hints);
  const saved = load(name);
  let seed = saved.seed ?? Number(root.dataset.seed);
  let hintsShown = 0;
  let busy = false;
  if (saved.code !== undefined) box.value = saved.code;
  const editor = makeEditor(box, { onRun: () => check() });
  const session = readerSession({ timeLimit: () => Number(root.dataset.timeLimit), fresh: false });

  const say = (text) => { status.textContent = text; };
  const refresh = () => {
    const record = load(name);
    button("hint").textContent = hintsShown < hintsTotal ? `提示（还有 ${hintsTotal - hintsShown} 条）` : "没有更多提示了";
    button("hint").disabled = busy || hintsShown >= hintsTotal;
    button("solution").disabled = busy || !record.attempts;
    button("solution").title = record.attempts ? "" : "先检查一次，再看答案";
    button("check").disabled = busy;
    button("new-cases").disabled = busy;
    button("reset-code").disabled = busy;
    button("stop").hidden = !busy;
    say(record.passed ? "已通过 ✓" : record.attempts ? `已检查 ${record.attempts} 次` : "还没有检查过");
  };

  async function check() {
    if (busy) return;
    busy = true;
    root.setAttribute("aria-busy", "true");
    refresh();
    say("正在检查…");
    const source = box.value;
    try {
      const outcome = await session.run((python) =>
        python.exercise({ action: "check", id: name, source, seed }));
      const fb = outcome.result ?? await (await widgetsRuntime()).exercise({
        action: "interrupted", id: name, why: outcome.interrupted, seed,
        time_limit: Number(root.dataset.timeLimit) });
      const record = load(name);
      save(name, { code: source, seed, attempts: (record.attempts ?? 0) + 1,
                   passed: Boolean(record.passed || fb.passed),
                   ...(fb.passed && !record.passed ? { solved: source } : {}) });
      showFeedback(feedback, fb);
    } catch (err) {  // the page's or its runtime's failure, not the reader's code's: say so
      console.error("exercise check:", err);
      showFeedback(feedback, { status: "unfinished", title: "检查没能完成",
        message: `这次检查没有得出结论（${err.message}），这不是你的代码的问题。` +
                 "再按一次「检查」试试；如果还是这样，请刷新页面。" });
    } finally {  // a check always ends: the buttons come back whatever happened
      session.shown();
      busy = false;
      root.removeAttribute("aria-busy");
      root.dataset.checks = String(Number(root.dataset.checks ?? 0) + 1);  // tests see a check end
      refresh();
    }
  }

  async function ask(request) {
    const outcome = await session.run((python) => python.exercise({ id: name, ...request }));
    session.shown();  // the caller shows the reply before the next Python may start
    return outcome.result ?? null;
  }

  button("check").addEventListener("click", check);
  button("stop").addEventListener("click", () => session.stop());
  box.addEventListener("keydown", (event) => { if (event.key === "Escape" && busy) session.stop(); });
  button("hint").addEventListener("click", async () => {
    const reply = await ask({ action: "hint", n: hintsShown });
    if (!reply) return;
    hintsList.append(el("li", reply.hint));
    hintsShown += 1;
    refresh();
  });
  button("solution").addEventListener("click", async () => {
    const reply = await ask({ action: "solution" });
    if (!reply) return;
    solution.querySelector("code").textContent = reply.solution;
    solution.hidden = false;
    solution.open = true;
  });
  button("new-cases").addEventListener("click", () => {
    seed += 1;
    save(name, { seed });
    say(`换了一批随机用例（种子 ${seed}），再检查一次`);
  });
  button("reset-code").addEventListener("click", () => {
    box.value = starter;
    editor.draw();
    save(name, { code: starter });
  });
  box.addEventListener("input", () => save(name, { code: box.value }));
  box.addEventListener("focus", () => session.prepare(), { once: true });
  root.dataset.state = "live";
  refresh();
}
