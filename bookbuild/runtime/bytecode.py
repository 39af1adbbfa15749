"""Bytecode for the modules a page imports while it boots, compiled once at build time.

Pyodide ships its standard library and NumPy as Python source, and a browser keeps nothing
Python compiles: each page spends more than half of its boot compiling the same ~250 modules.
`compile_boot_modules` has them compiled by Pyodide's own Python 3.12 (the build's Python may
be another version, whose bytecode Pyodide cannot read), run under Node.js -- which the first
build already needs for `npm pack` -- by bytecode.mjs and bytecode_pyodide.py.
Without Node.js the site keeps the source and boots as stock Pyodide does.
"""
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from bookbuild.errors import BuildError

HERE = Path(__file__).resolve().parent


def node() -> str | None:
    return shutil.which("node")


def compile_boot_modules(runtime: Path, zips: dict[str, bytes]
                         ) -> tuple[dict[str, bytes], list[str]]:
    """``zips`` (python_stdlib.zip and the NumPy wheel, stored members) with every module a
    page imports while it boots turned from source into bytecode, and the list of those
    modules' paths. ``runtime`` is the verified official Pyodide folder that compiles them."""
    with tempfile.TemporaryDirectory(prefix="tbook-bytecode-") as work:
        (Path(work) / "in").mkdir()
        (Path(work) / "out").mkdir()
        for name, data in zips.items():
            (Path(work) / "in" / name).write_bytes(data)
        cmd = [node() or "node", str(HERE / "bytecode.mjs"), str(Path(runtime).resolve()), work,
               str(HERE / "bytecode_pyodide.py")]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise BuildError(f"compiling the runtime's boot modules with Pyodide under Node.js "
                             f"failed (exit code {done.returncode}):\n{done.stderr[-2000:]}")
        out = {name: (Path(work) / "out" / name).read_bytes() for name in zips}
        compiled = json.loads((Path(work) / "out" / "hot.json").read_text(encoding="utf-8"))
    return out, compiled
