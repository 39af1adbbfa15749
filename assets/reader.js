// Runs of code the reader wrote (the code lab's block, an exercise's answer), each in a reader
// runtime (runtime.js readerRuntime): a Python of its own, apart from the widgets'. run(ask)
// resolves to {result} when the code finished (ask(runtime) is what to ask that Python), else to
// {interrupted}: "stopped" (stop()), "timeout" (timeLimit() seconds), "exit:<status>" (the code
// ended Python), "crashed" or "boot" (no Python booted: below); the worker is gone then. With
// fresh: true every run gets a new Python (the code lab: nothing a run leaves behind reaches the
// next); otherwise the Python is kept for the next run while it behaves (an exercise's checker
// puts pycore back itself).
// The next run's Python starts booting on prepare(), or once the page has shown how a run
// ended: the caller says so with shown(), and the worker starts after the frame that shows
// it. Starting a worker holds the main thread for milliseconds, and the answer that explains
// an ending comes from the widgets' runtime after the run: a worker started at once would
// delay that answer.
//
// A Python that has not booted bootLimit() ms after the run asked for it is taken for stuck
// (WebKit, on a busy machine, was seen to leave a reader's Pyodide never settling while its
// worker answered): it is ended and one new Python boots in its place; if that one does not
// boot in time either, the run ends as {interrupted: "boot"}, and the next run starts afresh.
// The reader waits, and can press 停止, but is never left waiting for good.
import { readerRuntime } from "./runtime.js";

const BOOT_MS = 40_000;
// a test may shorten it (tests/browser/test_reader_code.py)
const bootLimit = () => globalThis.tbookReaderBootMs ?? BOOT_MS;

// Resolves to true once `ready` resolves, to false after ms; rejects if the boot fails.
function bootedWithin(ready, ms) {
  let timer = 0;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  return Promise.race([ready.then(() => true), late]).finally(() => clearTimeout(timer));
}

export function readerSession({ timeLimit, fresh = true }) {
  let next = null;     // {runtime, ready}: the Python the next run will use
  let current = null;  // the runtime of the run in progress
  const prepare = () => { next ??= readerRuntime(); };
  async function run(ask) {
    prepare();
    let session = next;
    next = null;
    let { runtime } = session;
    current = runtime;
    let timer = 0;
    let ended = fresh;
    try {
      if (!(await bootedWithin(session.ready, bootLimit()))) {
        runtime.terminate("boot");  // stuck: this Python goes, a new one takes its place
        session = readerRuntime();
        runtime = current = session.runtime;
        if (!(await bootedWithin(session.ready, bootLimit()))) {
          ended = true;  // the finally ends this one too
          return { interrupted: "boot" };
        }
      }
      timer = setTimeout(() => runtime.terminate("timeout"), timeLimit() * 1000);
      return { result: await ask(runtime) };
    } catch (err) {  // the reader's code's errors are answers: this is the worker's end
      console.warn("reader code:", err);
      ended = true;
      if (err.stopped) return { interrupted: err.message };
      return { interrupted: err.exit != null ? `exit:${err.exit}` : "crashed" };
    } finally {
      clearTimeout(timer);
      current = null;
      if (ended) {
        runtime.terminate("stopped");  // this Python goes, with its memory
      } else {
        next = session;
      }
    }
  }
  const shown = () => requestAnimationFrame(() => setTimeout(prepare, 0));
  return { prepare, run, shown, stop: () => current?.terminate("stopped") };
}
