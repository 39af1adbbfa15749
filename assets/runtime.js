// The page's side of the Python runtime. Pyodide + NumPy + pycore run in a worker
// (runtime-worker.js), off the page's main thread; every widget computes through
// runtime.compute(name, params), which resolves to pycore.widgets.call_json's view -- the same
// view functions the build ran in CPython.
//
// A page with widgets starts the worker from its <head> (runtime-start.js), so Python boots
// while the chapter is still being parsed. A SharedWorker serves every page of the book and
// survives the navigation to the next chapter, whose widgets then go live at once; where
// SharedWorker is missing or refused, the page gets a dedicated Worker of its own.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content;

let connection = null;
let inflight = 0;          // requests sent and not yet answered (see settled())
let idle = [];

function open() {
  // The worker's name carries the pycore archive and the worker's version (runtime-worker.js).
  const url = new URL(meta("tbook-worker"), document.baseURI);
  const name = meta("tbook-worker-name");
  const waiting = new Map();  // id -> {message, resolve, reject}
  let next = 1;
  let answered = false;
  let broken = null;
  const settle = () => {
    if (--inflight === 0) idle.splice(0).forEach((resolve) => resolve());
  };
  const fail = (err) => {
    broken = err;
    waiting.forEach((p) => { p.reject(err); settle(); });
    waiting.clear();
  };
  const onmessage = ({ data }) => {
    answered = true;
    const pending = waiting.get(data.id);
    if (!pending) return;
    waiting.delete(data.id);
    if (data.ok) pending.resolve(data);
    else pending.reject(new Error(data.error));
    queueMicrotask(settle);  // after the awaiting widget has sent its next request, if any
  };

  // A dedicated worker: where SharedWorker is missing, or refused (a page of the book framed
  // by another site, in a browser that keeps shared storage from third-party frames).
  let port;
  const dedicated = () => {
    const worker = new Worker(url, { type: "module", name });
    worker.onmessage = onmessage;
    worker.onerror = () => fail(new Error("运行时的 worker 没能启动"));
    port = worker;
    waiting.forEach(({ message }, id) => port.postMessage({ id, ...message }));
  };
  if (typeof SharedWorker === "function") {
    const shared = new SharedWorker(url, { type: "module", name, extendedLifetime: true });
    shared.onerror = () => {
      shared.onerror = null;
      if (!answered && !broken) dedicated();
    };
    port = shared.port;
    port.onmessage = onmessage;
  } else {
    dedicated();
  }

  const request = (message) => {
    if (broken) return Promise.reject(broken);
    inflight++;
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { message, resolve, reject });
      port.postMessage({ id, ...message });
    });
  };

  const runtime = {
    async compute(name, params) {
      return JSON.parse((await request({ op: "compute", name, params })).view);
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
  };
  performance.mark("tbook:boot");  // benchmarks/boot.py --trace splits the boot with these
  const ready = request({ op: "boot" }).then(({ bootSeconds }) => {
    performance.mark("tbook:runtime", { detail: { bootSeconds } });
    return runtime;
  });
  return { runtime, ready };
}

// Start the worker (once per page) and send requests before it has booted.
export function connect() {
  connection ??= open();
  return connection.runtime;
}

// The runtime once booted; rejects with the reason if it cannot boot.
export function bootRuntime() {
  connect();
  return connection.ready;
}

// Resolves once no request to the runtime is waiting for its answer (tests and benchmarks wait
// on it after an input, as a reader waits to see the result).
export async function settled() {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (inflight === 0) return;
    await new Promise((resolve) => idle.push(resolve));
  }
}
