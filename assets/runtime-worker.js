// The book's Python runtime, in a worker: Pyodide + NumPy + pycore, all served by the site.
// Pages talk to it through assets/runtime.js. As a SharedWorker it is one runtime for every
// page of the book open in the browser, and it outlives a navigation from one chapter to the
// next (extendedLifetime), so the next page finds Python booted. Where SharedWorker is missing
// or refused, it runs as a dedicated Worker of the page: booted per page, still off the main
// thread.
//
// Its name, "tbook-runtime <pycore archive> <version of this file>" (templates/_head.html),
// says which pycore to load, and keeps workers apart: a rebuilt book with another pycore or
// another version of this file gets another worker, never a stale one. (Not the URL's query:
// offline, the service worker answers with the cached script, whose URL has none.)
//
// Messages, page -> worker: {id, op: "hello"} | {id, op: "boot"} | {id, op: "files", names} |
//   {id, op: "page", lock} (see below) |
//   {id, op: "compute", name, params, texts, held} | {id, op: "exercise", request} (reply: JSON
//   text), and
//   for tests and benchmarks {id, op: "requests"} |
//   {id, op: "memory"} | {id, op: "timeline", origin} | {id, op: "runs"}.
// Worker -> page: {id, ok: true, view?, python?, received, posted, origin, ...} |
// {id, error, exit, boot} (a failed boot answers
// every request with its error, boot: true; exit: the status when Python itself ended).
// `view` is pycore's JSON text, parsed on the page.
//
// Each connection is a page, with a number of its own: a view that keeps state between calls
// (train-live's training runs) keeps it per page (pycore.widgets.call_json), so that two tabs
// of a chapter never train, or undo, each other's run; and a page that goes away (closed, or
// gone on to another page) takes its state with it. A port does not say when its page has gone
// (Chromium fires no "close" on it), a Web Lock does: the page holds a lock of its own name as
// long as it lives and names it ({op: "page", lock}); the worker asks for the same lock, which
// it gets once the page has gone.

const indexURL = new URL("../pyodide/", self.location).href;
const pycoreURL = new URL(self.name.split(" ")[1], self.location).href;

// Pyodide 0.27 reports a failed fetch or instantiation of its WebAssembly only through
// console.warn("wasm instantiation failed!") and then never settles loadPyodide's promise.
// Turn that report into a rejection, so the page can say the runtime is unavailable.
function wasmFailure() {
  const warn = console.warn;
  let restore;
  const failed = new Promise((_, reject) => {
    console.warn = (...args) => {
      warn.apply(console, args);
      if (String(args[0]).includes("wasm instantiation failed")) {
        reject(new Error("WebAssembly 运行时下载或实例化失败"));
      }
    };
    restore = () => { console.warn = warn; };
  });
  return { failed, restore };
}

const fetchBytes = (url) => fetch(url).then((r) => {
  if (!r.ok) throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
});

// Pyodide asks for its files one after another (its module, then the WebAssembly and the
// standard library, then the lock file, then NumPy's wheel once Python runs). Ask for all of
// them at once instead, and hand each response to Pyodide's fetch when it asks for that URL.
// This is for real networks, where each step of that chain costs a round trip; from
// localhost, where the boot is bound by the CPU, it measures neutral (docs/performance.md).
// A download that fails fails the boot at once, with its reason: Pyodide itself does not
// always settle (see wasmFailure).
const early = new Map();
let downloadFailed;
const downloadsFailed = new Promise((_, reject) => { downloadFailed = reject; });
downloadsFailed.catch(() => {});
function prefetch(url) {
  const response = fetch(url);
  early.set(url, response);
  response.then((r) => {
    if (!r.ok) downloadFailed(new Error(`运行时文件 ${url.split("/").pop()} 下载失败（HTTP ${r.status}）`));
  }, (err) => downloadFailed(new Error(`运行时文件 ${url.split("/").pop()} 下载失败（${err.message}）`)));
  return response;
}
function startDownloads() {
  prefetch(indexURL + "pyodide.asm.wasm");
  prefetch(indexURL + "python_stdlib.zip");
  prefetch(indexURL + "pyodide-lock.json")
    .then((r) => r.clone().json())
    .then((lock) => prefetch(indexURL + lock.packages.numpy.file_name))
    .catch(() => {});  // reported by the lock file's own prefetch
  const fetchNow = self.fetch;
  self.fetch = (input, init) => {
    const url = new URL(input.url ?? input, self.location).href;
    const response = early.get(url);
    if (!response) return fetchNow(input, init);
    early.delete(url);  // once: a later fetch of the same URL goes to the network
    return response;
  };
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new Error("这个浏览器不支持 WebAssembly");
  const archive = fetchBytes(pycoreURL);  // while Pyodide and NumPy load
  archive.catch(() => {});  // reported below, once awaited
  startDownloads();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  performance.mark("tbook-worker:pyodide.mjs");  // the marks: boot.py --trace
  const watch = wasmFailure();
  let py;
  try {
    py = await Promise.race([loadPyodide({ indexURL, packages: ["numpy"], enableRunUntilComplete: false }), watch.failed,
                             downloadsFailed]);
  } finally {
    watch.restore();
  }
  performance.mark("tbook-worker:pyodide+numpy");
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  py.unpackArchive(await archive, "zip", { extractDir: sitePackages });
  performance.mark("tbook-worker:pycore");
  const widgets = py.pyimport("pycore.widgets");
  return { py, sitePackages, callJson: widgets.call_json, pageClosed: widgets.page_closed };
}

const started = performance.now();
const python = boot();
let bootSeconds = null;
python.then(() => { bootSeconds = (performance.now() - started) / 1000; }, () => retire());

// A runtime that cannot boot (a download failed, say) or whose Python ended closes itself: a
// page that opens the book later gets a new worker, which tries again, instead of this one's
// error for as long as the browser runs. It waits a moment first, answering with its error:
// pages that connected already (from their <head>) may not have asked yet, and a message to a
// closed worker is never answered (runtime.js then connects again, after a wait).
const RETIRE_MS = 3000;
let retiring = false;
function retire() {
  if (retiring) return;
  retiring = true;
  setTimeout(() => self.close(), RETIRE_MS);
}

let exerciseJson = null;  // imported on the first exercise request

// Python ended the whole interpreter (os._exit): Pyodide throws its "Exit" and is unusable.
const exitStatus = (err) => (err?.name === "Exit" ? err.status ?? 0 : null);

// The files beside pycore that some views read (DATA_FILES in pycore/widgets/<name>.py, such
// as the ViT photo) are not in the archive: fetched when a page names them, each only once.
// A page names them as "photo224.rgb?v=<content hash>", the address of that file's version.
const dataFiles = new Map();
function addDataFile(file) {
  if (!dataFiles.has(file)) {
    const name = file.split("?")[0];
    const written = Promise.all([fetchBytes(new URL(`pycore-data/${file}`, pycoreURL)), python])
      .then(([bytes, { py, sitePackages }]) => {
        py.FS.writeFile(`${sitePackages}/pycore/${name}`, new Uint8Array(bytes));
      });
    written.catch(() => dataFiles.delete(file));  // a later page may try again
    dataFiles.set(file, written);
  }
  return dataFiles.get(file);
}

// `page`: the asking page's connection, {number, closed}.
async function answer(data, page) {
  if (data.op === "hello") return {};  // at once, even while booting: the worker is alive
  if (data.op === "page") {
    navigator.locks?.request(data.lock, () => pageGone(page));
    return {};
  }
  if (data.op === "files") {
    await Promise.all(data.names.map(addDataFile));
    return {};
  }
  // What this worker fetched (Resource Timing): tests check that it never left the origin.
  if (data.op === "requests") return { urls: performance.getEntriesByType("resource").map((e) => e.name) };
  // Its resources and marks, in ms since the page's time origin (boot.py --trace).
  if (data.op === "timeline") {
    const shift = performance.timeOrigin - data.origin;
    const at = (e) => [e.startTime + shift, (e.responseEnd ?? e.startTime) + shift, e.name, e.transferSize ?? 0];
    return { entries: [...performance.getEntriesByType("resource"), ...performance.getEntriesByType("mark")].map(at) };
  }
  const { py, callJson } = await python;
  if (data.op === "boot") return { bootSeconds };
  if (data.op === "memory") return { wasmBytes: py._module.HEAP8.buffer.byteLength };
  // The training runs kept, [[page, seed, step]], and the asking page's number (tests).
  if (data.op === "runs") {
    const table = py.runPython("import json; from pycore.gpt import live_runs; "
                               + "json.dumps(live_runs.table())");
    return { page: page.number, runs: JSON.parse(table) };
  }
  if (data.op === "exercise") {  // a reader's answer checked, or a hint (pycore/exercises/page.py)
    exerciseJson ??= py.pyimport("pycore.exercises.page").call_json;
    try {
      return { reply: exerciseJson(JSON.stringify(data.request)) };
    } catch (err) {
      if (exitStatus(err) !== null) retire();
      throw err;
    }
  }
  if (data.op === "compute") {
    if (page.closed) throw new Error("the page went away");  // its state would outlive it
    try {
      const start = performance.now();
      const view = callJson(data.name, JSON.stringify(data.params), page.number,
                            JSON.stringify(data.texts ?? []), JSON.stringify(data.held ?? {}));
      return { view, python: [start, performance.now()] };
    } catch (err) {
      if (exitStatus(err) !== null) retire();
      throw err;
    }
  }
  throw new Error(`unknown request ${data.op}`);
}

// Every answer says when it was received and posted (and a view when its Python ran) on this
// worker's clock, with the clock's origin: runtime.js puts them on the page's clock (onTiming).
// The answer goes out through the port's postMessage as it was when the page connected: code a
// reader runtime runs may replace self.postMessage, and would then see and rewrite the answers.
let pages = 0;  // connections so far: each page's number
function serve(port) {
  const page = { number: ++pages, closed: false };
  const post = port.postMessage.bind(port);
  port.onmessage = ({ data }) => {
    if (page.closed) return;  // sent just before the page went: nobody to answer
    // A message nested too deep for the browser to pass on arrives as null: there is no id to
    // answer, and the page's request times out (runtime.js).
    if (data === null || typeof data !== "object") return;
    const received = performance.now();
    answer(data, page).then(
      (reply) => post({ id: data.id, ok: true, ...reply, received,
                        posted: performance.now(), origin: performance.timeOrigin }),
      (err) => post({ id: data.id, error: String(err.message ?? err),
                      exit: exitStatus(err), boot: bootSeconds === null }));
  };
}

function pageGone(page) {
  page.closed = true;
  python.then(({ pageClosed }) => pageClosed(page.number), () => {});
}

if (typeof SharedWorkerGlobalScope === "function" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (event) => serve(event.ports[0]);
} else {
  serve(self);
}
