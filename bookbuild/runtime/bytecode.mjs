// Runs bookbuild/runtime/bytecode_pyodide.py inside the official Pyodide (Python 3.12) under Node.js,
// for bookbuild/runtime/bytecode.py: only Pyodide's own Python writes bytecode Pyodide can read.
//   node bytecode.mjs <verified runtime folder> <work folder> <python file>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, work, script] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
// PYTHONNODEBUGRANGES: no column tables in the code objects (the tracebacks' ^^^ markers),
// which would make the bytecode a fifth larger and are useless without the source.
const py = await loadPyodide({
  indexURL: `${runtime}/`,
  env: { HOME: "/home/pyodide", PYTHONNODEBUGRANGES: "1" },
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
await py.loadPackage("numpy", { messageCallback: () => {} });  // as a page does: same imports
py.FS.mkdir("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/work");
py.runPython(readFileSync(script, "utf8"), { filename: script });
