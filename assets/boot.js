// Starts the runtime as early as the page allows: this module is loaded `async` from the head,
// so Pyodide, NumPy and pycore begin loading while the chapter is still being parsed, instead
// of after it (book.js, a deferred module, waits for the whole document). book.js then picks up
// the same boot through bootRuntime() and reports any failure.
import { bootRuntime } from "./runtime.js";

bootRuntime().catch(() => {});
