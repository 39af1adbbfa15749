"""Contributors' commands beside the build: a new widget's parts, the parameter reference in
the docs, the watch for a newer Pyodide, the vit-patches photo."""
