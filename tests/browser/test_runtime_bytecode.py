"""The site's runtime boots without compiling Python: every module of the standard library and
NumPy that a page imports (Pyodide's boot, NumPy, and every widget's view) arrives as bytecode
(bookbuild/runtime/bytecode.py). A view that starts importing a new module makes this test name it:
add it to WARM in bookbuild/runtime/bytecode_pyodide.py."""
import json

from bookbuild.stages.widgets import known_widgets
from pycore import widgets

# Runs in the page's Python (the runtime's worker) through the code lab's view (the reader's code runs there too).
PROBE = """
import json, sys, numpy
from_source = sorted(
    name for name, m in list(sys.modules.items())
    if (getattr(m, "__file__", None) or "").endswith(".py")
    and getattr(m.__spec__, "origin", None) != "frozen"      # in Pyodide's binary already
    and not name.startswith("pycore")                         # the book's own, built each time
    and name != "__main__")
print(json.dumps({
    "from_source": from_source,
    "numpy_file": numpy.__file__,
    "json_doc": json.__doc__,
    "mean_doc": (numpy.mean.__doc__ or "")[:60],
}))
"""


def test_every_boot_module_arrives_as_bytecode(book_pages):
    page = book_pages("scaling-variance").page
    names = known_widgets()
    files = sorted({f for n in names for f in getattr(widgets.module(n), "DATA_FILES", ())})
    raw = page.evaluate("""async ([names, files, probe]) => {
        const { bootRuntime } = await import(new URL('assets/runtime.js', document.baseURI).href);
        const runtime = await bootRuntime();
        await runtime.addDataFiles(files);
        for (const name of names) await runtime.compute(name, {});  // every view, with its defaults
        return (await runtime.compute('code-lab', { seed: 0, causal: true, code: probe })).stdout;
    }""", [names, files, PROBE])
    report = json.loads(raw)
    assert "vit-patches" in names and "code-lab" in names
    assert report["from_source"] == []
    assert report["numpy_file"].endswith("/numpy/__init__.pyc")
    assert report["json_doc"] is None  # the standard library's boot modules leave docstrings out
    assert report["mean_doc"].strip()  # NumPy's are its documentation: kept
