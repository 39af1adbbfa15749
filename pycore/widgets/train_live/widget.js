// Widget train-live: a smaller model trained in the page. pycore:
// pycore/widgets/train_live/__init__.py (the run lives in pycore/gpt/live_runs.py, in the worker's
// Python, between calls; the view in parts: the pictures' grids come once);
// pycore/widgets/train_live/template.html.
// What is special: training is a loop of views. While the reader trains, the page asks for
// `steps` a few steps further, waits for that view, draws it, and asks again: at most ten
// calls a second, each sized to about TARGET_MS of the worker's time, so other widgets'
// requests are never held up long. Python runs in the worker: the page itself stays free.
// It starts only on the reader's click: a link's `steps` is dropped, so opening one never
// trains; changing the seed or resetting stops it and goes back to step 0; a page the reader
// leaves (hidden) pauses, so that it costs the worker, shared by every tab, nothing. One loop
// at most trains: each start begins a loop of its own generation, and a loop whose
// generation is over (a pause, or a start after it) ends at its next view, touching nothing.
import { liveWidget } from "./common.js";

const MIN_INTERVAL_MS = 100;  // from one call to the next: at most 10 calls per second
const TARGET_MS = 120;        // the training one call should take
const MAX_CHUNK = 40;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A shared link carries the seed, head and sentence, never the training itself.
function dropSteps(root) {
  const url = new URL(location.href);
  const raw = url.searchParams.get(root.id);
  if (!raw) return;
  try {
    const saved = JSON.parse(raw);
    if (!("steps" in saved)) return;
    delete saved.steps;
    if (Object.keys(saved).length) url.searchParams.set(root.id, JSON.stringify(saved));
    else url.searchParams.delete(root.id);
    history.replaceState(history.state, "", url);
  } catch (malformed) {
    // liveWidget ignores a malformed state
  }
}

export function mount(root, runtime) {
  dropSteps(root);
  const run = root.querySelector("[data-action=run]");
  const one = root.querySelector("[data-action=step]");
  const rate = root.querySelector("[data-rate]");
  const max = Number(root.querySelector("[data-max-steps]").dataset.maxSteps);
  let running = false;
  let generation = 0;  // the loop that may train; a start or a pause ends the others
  let chunk = 2;
  let speed = null;  // steps per second, smoothed

  const show = () => {
    const done = widget.state.steps >= max;
    run.textContent = running ? "暂停" : done ? "训练完了" : widget.state.steps ? "继续训练" : "开始训练";
    run.setAttribute("aria-pressed", String(running));
    if (root.dataset.state === "live") {
      run.disabled = done && !running;
      one.disabled = running || done;
    }
  };
  // another seed is asked only at the click: asked at a press, its view would train a run
  const widget = liveWidget(root, runtime, { sync: show, ahead: (changes) => !("seed" in changes) });

  async function loop(mine) {
    while (mine === generation && widget.state.steps < max) {
      const from = widget.state.steps;
      const n = Math.min(chunk, max - from);
      const started = performance.now();
      const view = await widget.update({ steps: from + n });
      const took = performance.now() - started;
      if (mine !== generation) return;  // paused (and maybe started again) meanwhile
      if (view.step !== from + n) break;  // refused, or reset meanwhile
      const now = (n * 1000) / took;
      speed = speed === null ? now : 0.7 * speed + 0.3 * now;
      rate.textContent = speed.toFixed(1);
      chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round((n * TARGET_MS) / took)));
      if (took < MIN_INTERVAL_MS) await sleep(MIN_INTERVAL_MS - took);
    }
    if (mine !== generation) return;
    running = false;
    show();
  }
  const start = () => {
    if (running) return;
    running = true;
    show();
    loop(++generation);
  };
  const stop = () => {
    if (!running) return;
    running = false;
    generation++;
    show();
  };

  run.addEventListener("click", () => (running ? stop() : start()));
  document.addEventListener("visibilitychange", () => { if (document.hidden) stop(); });
  one.addEventListener("click", () => {
    if (!running && widget.state.steps < max) widget.update({ steps: widget.state.steps + 1 });
  });
  root.querySelector("[data-action=reset]")?.addEventListener("click", stop);
  // A new seed is a new run: back to step 0 first (the stepper's own handler, which sets the
  // seed, runs after this one, and its request merges with this one's or follows it).
  root.querySelector("[data-control=seed]").addEventListener("click", (event) => {
    if (!event.target.closest("[data-step]")) return;
    stop();
    if (widget.state.steps) widget.update({ steps: 0 });
  }, { capture: true });
  root.querySelector("[data-control=seed]").addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    stop();
    if (widget.state.steps) widget.update({ steps: 0 });
  }, { capture: true });
}
