// Starts the book's Python runtime (assets/runtime-worker.js) from the <head> of a page with
// widgets, before the chapter below is parsed: a classic script, so it runs as soon as it
// arrives, and the worker boots on another thread while this one parses and lays out the page.
// runtime.js takes this very connection (window.tbookRuntimeWorker) rather than opening a
// second one later: a worker that fails to boot closes itself (runtime-worker.js), and a
// connection opened after that could land in the closing worker, which never answers.
// The name carries the pycore archive and the worker's version (runtime-worker.js). Where
// SharedWorker is missing, runtime.js starts a dedicated worker itself.
(() => {
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content;
  const [url, name] = [meta("tbook-worker"), meta("tbook-worker-name")];
  if (!url || !name || typeof SharedWorker !== "function") return;
  try {
    window.tbookRuntimeWorker = new SharedWorker(new URL(url, document.baseURI),
                                                 { type: "module", name, extendedLifetime: true });
  } catch (err) {
    console.warn("runtime worker:", err);  // runtime.js tries again and reports
  }
})();
