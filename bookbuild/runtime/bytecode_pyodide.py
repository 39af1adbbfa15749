"""Runs inside Pyodide 0.27.7 (Python 3.12) under Node.js, started by bookbuild/runtime/bytecode.py.

Pyodide ships Python source only, so every page compiles the ~250 modules it imports while it
boots (the standard library's and NumPy's), every time: more than half of its boot. This
script compiles exactly those modules once, at build time, and puts the bytecode in the site's
zips in place of their source.

/work/in/ holds python_stdlib.zip and the NumPy wheel (already re-packed, stored members);
the same names are written to /work/out/, with every boot module's ``x.py`` replaced by
``x.pyc``: unchecked hash-based bytecode (nothing is compared with a clock or a source), which
zipimport and the file importer load without compiling anything. /work/out/hot.json lists them.
"""
import ast
import base64
import csv
import hashlib
import importlib
import importlib.util
import io
import json
import os
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

# What a page imports besides Pyodide's own boot and `import numpy`: pycore's imports
# (runtime.js imports pycore.widgets; the widgets' views import numpy.random and json).
WARM = ("numpy", "numpy.random", "json", "importlib.readers", "importlib.resources.readers")
STDLIB = "/lib/python312.zip/"  # where Pyodide mounts python_stdlib.zip
SITE = "/lib/python3.12/site-packages/"  # where it installs the wheel
# Docstrings of Pyodide's own packages are read at run time (to document its JS API): kept.
KEEP_DOCSTRINGS = ("_pyodide/", "pyodide/")


def boot_modules() -> set[str]:
    """The source files of every module imported by now (Pyodide booted, NumPy loaded) and by
    WARM."""
    for name in WARM:
        importlib.import_module(name)
    return {m.__file__ for m in list(sys.modules.values())
            if (getattr(m, "__file__", None) or "").endswith(".py")}


def drop_docstrings(tree: ast.Module) -> ast.Module:
    """What `python -OO` leaves out of the standard library (docstrings), not what -O does
    (assert statements stay). They are a third of its bytecode, and only help() reads them."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass(lineno=body[0].lineno, col_offset=0)]
    return tree


def bytecode(source: bytes, filename: str, docstrings: bool) -> bytes:
    """A .pyc file for ``source``: co_filename is the path the page imports it from."""
    tree = ast.parse(source, filename)
    code = compile(tree if docstrings else drop_docstrings(tree), filename, "exec",
                   dont_inherit=True)
    return _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)


def renew_record(record: bytes, renamed: dict[str, tuple[str, bytes]]) -> bytes:
    """A wheel's RECORD (CSV: path, hash, size) with the line of every renamed file made anew
    for its new name and body; every other line kept byte for byte."""
    lines = []
    for line in record.decode("utf-8").splitlines(keepends=True):
        path = next(csv.reader([line]), [""])[0]
        if path in renamed:
            name, body = renamed[path]
            digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=")
            line = f"{name},sha256={digest.decode()},{len(body)}\n"
        lines.append(line)
    return "".join(lines).encode("utf-8")


def rewrite(name: str, prefix: str, hot: set[str], docstrings: bool) -> list[str]:
    """/work/in/<name> -> /work/out/<name>: members in the same order with the same metadata,
    stored; each hot ``.py`` becomes its ``.pyc`` (and so does its line in a wheel's RECORD)."""
    with zipfile.ZipFile(f"/work/in/{name}") as src:
        members = [(info, src.read(info)) for info in src.infolist()]
    renamed = {}
    for info, body in members:
        if info.filename.endswith(".py") and prefix + info.filename in hot:
            keep = docstrings or info.filename.startswith(KEEP_DOCSTRINGS)
            pyc = bytecode(body, prefix + info.filename, keep)
            renamed[info.filename] = (info.filename + "c", pyc)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info, body in members:
            new_name = info.filename
            if info.filename in renamed:
                new_name, body = renamed[info.filename]
            elif info.filename.endswith(".dist-info/RECORD"):
                body = renew_record(body, renamed)
            new = zipfile.ZipInfo(new_name, date_time=info.date_time)
            new.external_attr, new.create_system = info.external_attr, info.create_system
            out.writestr(new, body, compress_type=zipfile.ZIP_STORED)
    with open(f"/work/out/{name}", "wb") as f:
        f.write(buf.getvalue())
    return sorted(prefix + n for n in renamed)


def main() -> None:
    hot = boot_modules()
    wheel = next(n for n in os.listdir("/work/in") if n.endswith(".whl"))
    compiled = rewrite("python_stdlib.zip", STDLIB, hot, docstrings=False)
    compiled += rewrite(wheel, SITE, hot, docstrings=True)  # NumPy's are its documentation
    with open("/work/out/hot.json", "w") as f:
        json.dump(compiled, f, indent=0)


main()
