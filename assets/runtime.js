// The Python runtime of the page: Pyodide + NumPy + pycore, all served by the site itself.
// Booted once per page; every widget computes through runtime.compute(name, params), which
// calls pycore.widgets.call_json -- the same view functions the build ran in CPython.

const meta = (name) => document.querySelector(`meta[name="${name}"]`).content;

let booting = null;

// The files beside pycore that some views read (DATA_FILES in pycore/widgets/<name>.py, such as
// the ViT photo) are not in the archive every page downloads: a page fetches the ones its
// widgets name in data-files, while the runtime boots, and each only once.
const dataFiles = new Map();

export function fetchDataFiles(names) {
  return Promise.all(names.map((name) => {
    if (!dataFiles.has(name)) {
      const url = new URL(`pycore-data/${name}`, new URL(meta("tbook-pycore"), document.baseURI));
      const data = fetch(url).then((r) => {
        if (!r.ok) throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
        return r.arrayBuffer();
      });
      data.catch(() => dataFiles.delete(name));  // a later page may try again
      dataFiles.set(name, data);
    }
    return dataFiles.get(name);
  }));
}

export function bootRuntime() {
  booting ??= boot();
  return booting;
}

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

async function boot() {
  if (typeof WebAssembly !== "object") throw new Error("这个浏览器不支持 WebAssembly");
  performance.mark("tbook:boot");  // the marks let benchmarks/boot.py --trace split the boot
  const indexURL = new URL(meta("tbook-runtime"), document.baseURI).href;
  const pycoreURL = new URL(meta("tbook-pycore"), document.baseURI).href;
  // Start fetching pycore while Pyodide and NumPy load.
  const archive = fetch(pycoreURL).then((r) => {
    if (!r.ok) throw new Error(`cannot fetch ${pycoreURL}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const watch = wasmFailure();
  let py;
  try {
    py = await Promise.race([loadPyodide({ indexURL, packages: ["numpy"] }), watch.failed]);
  } finally {
    watch.restore();
  }
  performance.mark("tbook:pyodide");
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  py.unpackArchive(await archive, "zip", { extractDir: sitePackages });
  const callJson = py.pyimport("pycore.widgets").call_json;
  performance.mark("tbook:pycore");
  const written = new Set();
  return {
    compute(name, params) {
      return JSON.parse(callJson(name, JSON.stringify(params)));
    },
    // Put the named data files where pycore reads them (beside its modules).
    async addDataFiles(names) {
      const buffers = await fetchDataFiles(names);
      names.forEach((name, i) => {
        if (written.has(name)) return;
        py.FS.writeFile(`${sitePackages}/pycore/${name}`, new Uint8Array(buffers[i]));
        written.add(name);
      });
    },
  };
}
