// The Python runtime of the page: Pyodide + NumPy + pycore, all served by the site itself.
// Booted once per page; every widget computes through runtime.compute(name, params), which
// calls pycore.widgets.call_json -- the same view functions the build ran in CPython.

const meta = (name) => document.querySelector(`meta[name="${name}"]`).content;

let booting = null;

export function bootRuntime() {
  booting ??= boot();
  return booting;
}

async function boot() {
  const indexURL = new URL(meta("tbook-runtime"), document.baseURI).href;
  const pycoreURL = new URL(meta("tbook-pycore"), document.baseURI).href;
  // Start fetching pycore while Pyodide and NumPy load.
  const archive = fetch(pycoreURL).then((r) => {
    if (!r.ok) throw new Error(`cannot fetch ${pycoreURL}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const py = await loadPyodide({ indexURL, packages: ["numpy"] });
  const sitePackages = py.runPython("import site; site.getsitepackages()[0]");
  py.unpackArchive(await archive, "zip", { extractDir: sitePackages });
  const callJson = py.pyimport("pycore.widgets").call_json;
  return {
    compute(name, params) {
      return JSON.parse(callJson(name, JSON.stringify(params)));
    },
  };
}
