// The page's side of the Python runtime. Pyodide + NumPy + pycore run in a worker
// (runtime-worker.js), off the page's main thread; every widget computes through
// runtime.compute(name, params, texts, held), which resolves to pycore.widgets.call_json's view
// -- the same view functions the build ran in CPython -- with the texts of its numbers that
// `texts` names (bind.js textsWanted), written by the formatter that wrote the build's page, and
// only the parts of the view the page does not hold (`held`, pycore/view_parts.py).
//
// Two kinds of runtime:
// - the widgets' runtime (connect, bootRuntime): a SharedWorker serves every page of the book
//   and survives the navigation to the next chapter, whose widgets then go live at once; where
//   SharedWorker is missing or refused, the page gets a dedicated Worker of its own. A page
//   with widgets starts it from its <head> (runtime-start.js), so Python boots while the
//   chapter is still being parsed.
// - a reader's runtime (readerRuntime): a dedicated Worker of its own for code the reader
//   wrote, apart from the widgets' Python, so that nothing that code does (an endless loop,
//   gigabytes of arrays, patching pycore, os._exit) reaches the widgets; the page can end it
//   at any moment (terminate), and its memory goes with it.
//
// A runtime that fails to boot retires: the worker closes itself (runtime-worker.js), pages
// that open it later get a new one, and retry() here starts again.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content;
const HELLO_MS = 8000;  // a live worker answers "hello" at once, even while it boots
// A view takes milliseconds, the first of a widget a second or so, queued behind a chapter's
// others a few; a request of the widgets' runtime still unanswered this long after the boot
// never will be (a message the worker could not read arrives there as nothing, with no id to
// answer): it fails, and the widget falls back as for any error instead of waiting for good.
const ANSWER_MS = 60_000;

let connection = null;
let attempts = 0;          // retries of the widgets' runtime on this page
let inflight = 0;          // requests sent and not yet answered (see settled())
let idle = [];
const settleOne = () => {
  if (--inflight === 0) idle.splice(0).forEach((resolve) => resolve());
};

// The error a runtime's request rejects with; `exit` is set when Python itself ended
// (os._exit, sys.exit outside the widget's code), `stopped` when the page ended the worker.
class RuntimeError extends Error {
  constructor(message, { exit = null, stopped = false, boot = false } = {}) {
    super(message);
    Object.assign(this, { exit, stopped, boot });
  }
}

// Starts `expire` ANSWER_MS after `booted` resolves; returns what stops it.
function answerTimer(booted, expire) {
  let timer = 0;
  let answered = false;
  booted.then(() => { if (!answered) timer = setTimeout(expire, ANSWER_MS); }, () => {});
  return () => { answered = true; clearTimeout(timer); };
}

// Each request's id is drawn at random. A reader runtime runs code the reader wrote, which may
// post messages of its own to the page (from js import postMessage): a reply is taken only when
// it names a request the page is waiting for, and that id cannot be guessed.
const newId = () => Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join("-");

function open({ shared, attempt = 0 }) {
  // The worker's name carries the pycore archive and the worker's version (runtime-worker.js);
  // a retry gets a name of its own, so that it never meets the failed worker while it retires.
  const url = new URL(meta("tbook-worker"), document.baseURI);
  const name = meta("tbook-worker-name") + (shared ? "" : " reader") +
    (attempt ? ` retry-${attempt}-${Date.now()}` : "");
  const waiting = new Map();  // id -> {message, resolve, reject}
  let answered = false;
  let broken = null;
  let dedicatedWorker = null;
  const fail = (err) => {
    broken ??= err;
    waiting.forEach((p) => { p.stopTimer?.(); p.reject(broken); settleOne(); });
    waiting.clear();
  };
  let bootAnswered;
  const booted = new Promise((resolve) => { bootAnswered = resolve; });
  const onmessage = ({ data }) => {
    const arrived = performance.now();
    answered = true;
    const pending = waiting.get(data?.id);
    if (!pending) return;
    waiting.delete(data.id);
    pending.stopTimer?.();
    if (data.ok) pending.resolve({ ...data, sent: pending.sent, arrived });
    else pending.reject(new RuntimeError(data.error, data));
    queueMicrotask(settleOne);  // after the awaiting widget has sent its next request, if any
  };

  // A dedicated worker: for a reader's code; and where SharedWorker is missing, or refused (a
  // page of the book framed by another site, in a browser that keeps shared storage from
  // third-party frames).
  let port;
  const resend = () => waiting.forEach(({ message }, id) => port.postMessage({ id, ...message }));
  const dedicated = () => {
    dedicatedWorker = new Worker(url, { type: "module", name });
    dedicatedWorker.onmessage = onmessage;
    dedicatedWorker.onerror = () => fail(new RuntimeError("运行时的 worker 没能启动", { boot: true }));
    port = dedicatedWorker;
    resend();
  };
  // The head's connection first (runtime-start.js), then new ones.
  let early = shared && !attempt ? window.tbookRuntimeWorker : null;
  window.tbookRuntimeWorker = null;
  const sharedWorker = () => {
    const worker = early ?? new SharedWorker(url, { type: "module", name, extendedLifetime: true });
    early = null;
    worker.onerror = () => {
      worker.onerror = null;
      if (!answered && !broken) dedicated();
    };
    port = worker.port;
    port.onmessage = onmessage;
    resend();
  };
  if (shared && typeof SharedWorker === "function") sharedWorker();
  else dedicated();

  // A view or an exercise's reply of the widgets' runtime is bounded (ANSWER_MS); a reader
  // runtime's requests run the reader's code, which the page ends itself (reader.js).
  const bounded = (op) => shared && (op === "compute" || op === "exercise");
  const request = (message) => {
    if (broken) return Promise.reject(broken);
    inflight++;
    const id = newId();
    return new Promise((resolve, reject) => {
      const pending = { message, resolve, reject, sent: performance.now() };
      waiting.set(id, pending);
      port.postMessage({ id, ...message });
      if (!bounded(message.op)) return;
      pending.stopTimer = answerTimer(booted, () => {
        if (waiting.get(id) !== pending) return;
        waiting.delete(id);
        reject(new RuntimeError(`运行时 ${ANSWER_MS / 1000} 秒内没有回答这个请求`));
        settleOne();
      });
    });
  };

  const runtime = {
    // held: the keys of the view's parts the page holds ({part: key}): pycore sends the others
    async compute(name, params, texts = [], held = {}) {
      const reply = await request({ op: "compute", name, params, texts, held });
      const view = JSON.parse(reply.view);
      runtime.onTiming?.(timing(name, reply));
      return view;
    },
    // Diagnostics (benchmarks/interaction.py): a function called with the times of every
    // view computed (see timing below).
    onTiming: null,
    // An exercise's check, hint or solution (pycore/exercises/page.py).
    async exercise(what) {
      return JSON.parse((await request({ op: "exercise", request: what })).reply);
    },
    // Have the worker fetch the named data files and put them where pycore reads them.
    async addDataFiles(names) {
      if (names.length) await request({ op: "files", names });
    },
    // Diagnostics (tests, benchmarks): the URLs the worker fetched; its WebAssembly memory;
    // its resources and marks on the page's clock.
    async requests() { return (await request({ op: "requests" })).urls; },
    async memory() { return request({ op: "memory" }); },
    async timeline() { return (await request({ op: "timeline", origin: performance.timeOrigin })).entries; },
    // Tests: the worker's training runs, {page: this page's number, runs: [[page, seed, step]]}.
    async runs() { const { page, runs } = await request({ op: "runs" }); return { page, runs }; },
    // A reader's runtime only: end the worker now, whatever it is doing; its memory goes with
    // it, and every waiting request rejects with err.stopped set.
    terminate(why = "stopped") {
      dedicatedWorker?.terminate();
      fail(new RuntimeError(why, { stopped: true }));
    },
    get broken() { return broken; },
  };
  // A live worker answers "hello" at once. One that closed itself after a failed boot just as
  // another tab connected never does: connect once more (a closed worker's name gives a new
  // worker), and only then give up.
  let silent = 0;
  const awaitHello = (again) => {
    silent = setTimeout(() => {
      if (again && !dedicatedWorker) {
        sharedWorker();
        awaitHello(false);
      } else {
        fail(new RuntimeError("运行时没有回应", { boot: true }));
      }
    }, HELLO_MS);
  };
  awaitHello(shared);
  request({ op: "hello" }).then(() => clearTimeout(silent), () => clearTimeout(silent));
  if (shared) holdPageLock(request);
  if (shared) performance.mark("tbook:boot");  // benchmarks/boot.py --trace splits the boot
  const ready = request({ op: "boot" }).then(({ bootSeconds }) => {
    if (shared) performance.mark("tbook:runtime", { detail: { bootSeconds } });
    bootAnswered();
    return runtime;
  }, (err) => {
    fail(err);
    throw err;
  });
  ready.catch(() => {});  // reported by whoever awaits it
  return { runtime, ready };
}

// The widgets' worker serves every open page of the book, and keeps some state per page (the
// training runs of train-live). It learns that this page has gone when the Web Lock the page
// holds for as long as it lives is let go (runtime-worker.js, op "page").
function holdPageLock(request) {
  if (!navigator.locks || !self.crypto?.randomUUID) return;  // only in secure contexts
  const lock = `tbook-page ${crypto.randomUUID()}`;
  navigator.locks.request(lock, () => {
    request({ op: "page", lock }).catch(() => {});  // named once held: the worker waits for it
    return new Promise(() => {});  // held until the page goes
  }).catch(() => {});  // denied where the origin is opaque (an embed in a sandboxed frame): its
}                      // runs then go only when the worker's bound on runs pushes them out

// A view's round trip on the page's clock (ms since its time origin; the worker's own clock
// starts elsewhere): sent (the request posted), received by the worker, Python's start and end,
// posted back, arrived (the answer's message event runs on the page: until then it waited for
// the page's main thread), parsed (the view's JSON read); `bytes`: the JSON text's length.
function timing(name, { view, python, received, posted, origin, sent, arrived }) {
  const page = (t) => t + origin - performance.timeOrigin;
  return { name, sent, received: page(received), start: page(python[0]), end: page(python[1]),
           posted: page(posted), arrived, parsed: performance.now(), bytes: view.length };
}

// Start the widgets' worker (once per page) and send requests before it has booted.
export function connect() {
  connection ??= open({ shared: true, attempt: attempts });
  return connection.runtime;
}

// The widgets' runtime once booted; rejects with the reason if it cannot boot.
export function bootRuntime() {
  connect();
  return connection.ready;
}

// After a failed boot: forget that runtime; the next connect() starts a new worker.
export function retry() {
  if (connection?.runtime.broken) {
    connection = null;
    attempts++;
  }
}

// A new runtime for code the reader wrote: {runtime, ready} (see the top of this file).
export function readerRuntime() {
  return open({ shared: false });
}

// Work the page owes the runtime and will ask for soon (a widget off screen that recomputes in
// idle time, widgets/example.js): counted as a request in flight until release() is called.
export function owe() {
  inflight++;
  let owed = true;
  return () => {
    if (owed) settleOne();
    owed = false;
  };
}

// Resolves once no request to the runtime is waiting for its answer, nor owed (tests and
// benchmarks wait on it after an input, as a reader waits to see the result).
export async function settled() {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (inflight === 0) return;
    await new Promise((resolve) => idle.push(resolve));
  }
}
