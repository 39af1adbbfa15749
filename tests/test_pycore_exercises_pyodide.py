"""The checker inside the official Pyodide 0.27.7 (Python 3.12, NumPy 2.0.2, WebAssembly),
run by Node.js: every solution passes, every starter is "not written yet", and a few readers'
troubles (overflow, endless recursion, SystemExit, a patched pycore) get the same answers as
in CPython, except that NumPy there cannot warn about overflow (WebAssembly keeps no
floating-point flags). Skipped when Node.js or the verified runtime cache (filled by the first build) is
missing."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bookbuild.runtime import vendor
from pycore.exercises import check, ids
from tests.test_pycore_exercises_answers import digits_rounded, first_wrong_answer

REPO = Path(__file__).resolve().parent.parent
RUNTIME = vendor.runtime_cache()
NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (RUNTIME / "pyodide.mjs").is_file()
    or not (RUNTIME / NUMPY_WHEEL).is_file(),
    reason="needs Node.js and the Pyodide runtime cache (run `python3 build.py` once)")

RUNNER = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [runtime, repo, script] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${runtime}/pyodide.mjs`).href);
const py = await loadPyodide({ indexURL: `${runtime}/`, stdout: (l) => console.log(l),
                               stderr: (l) => console.error(l) });
await py.loadPackage("numpy", { messageCallback: () => {} });
py.FS.mkdir("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, { root: repo }, "/repo");
py.globals.set("WRONG", readFileSync(process.argv[5], "utf8"));  // {exercise: source}
py.runPython(readFileSync(script, "utf8"));
"""

PROGRAM = r'''
import json, sys
sys.path.insert(0, "/repo")
import numpy as np
import pycore.softmax
from pycore.exercises import check, get, ids

H = "import numpy as np\n"
out = {"numpy": np.__version__, "python": sys.version.split()[0]}
out["solutions"] = {i: check(i, get(i).solution)["status"] for i in ids()}
out["starters"] = {i: check(i, get(i).starter)["status"] for i in ids()}
r = check("softmax", H + "def softmax(z, temperature=1.0):\n"
          "    e = np.exp(z / temperature)\n    return e / e.sum(axis=-1, keepdims=True)\n")
out["overflow"] = [r["status"], r["mistake"], r["warnings"]]
r = check("softmax", "def softmax(z, temperature=1.0):\n    return softmax(z, temperature)\n")
out["recursion"] = [r["status"], r["error"]["type"]]
r = check("dot-product", "def dot(a, b):\n    raise SystemExit(1)\n")
out["exit"] = [r["status"], r["error"]["type"], r["error"]["line"]]
r = check("softmax", "import pycore.softmax\npycore.softmax.softmax = None\n")
out["patched"] = [r["status"], pycore.softmax.softmax is not None]
wrong = json.loads(WRONG)
out["wrong"] = {i: [check(i, source, seed=0)[k] for k in ("status", "message")]
                for i, source in wrong.items()}
print("RESULT " + json.dumps(out, ensure_ascii=False, allow_nan=False))
'''


def test_the_checker_in_pyodide(tmp_path):
    (tmp_path / "run.mjs").write_text(RUNNER, encoding="utf-8")
    (tmp_path / "program.py").write_text(PROGRAM, encoding="utf-8")
    wrong = {i: first_wrong_answer(i)[1] for i in ids()}  # every exercise's first
    (tmp_path / "wrong.json").write_text(json.dumps(wrong, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(["node", str(tmp_path / "run.mjs"), str(RUNTIME), str(REPO),
                           str(tmp_path / "program.py"), str(tmp_path / "wrong.json")],
                          capture_output=True, text=True, timeout=300)
    lines = [l for l in done.stdout.splitlines() if l.startswith("RESULT ")]
    assert lines, done.stdout[-2000:] + done.stderr[-2000:]
    out = json.loads(lines[-1][len("RESULT "):])
    assert (out["numpy"], out["python"][:4]) == ("2.0.2", "3.12")
    assert set(out["solutions"].values()) == {"passed"}, out["solutions"]
    assert set(out["starters"].values()) == {"not_implemented"}, out["starters"]
    assert out["overflow"][:2] == ["not_finite", "no-max-shift"]
    assert out["overflow"][2] == []  # WebAssembly has no floating-point flags: no warnings
    assert out["recursion"] == ["error", "RecursionError"]
    assert out["exit"] == ["error", "SystemExit", 2]
    assert out["patched"] == ["missing_function", True]
    # every exercise's first typical wrong answer: the status and the very message of CPython
    assert set(out["wrong"]) == set(ids()) == set(wrong)
    for exercise, source in wrong.items():
        here = check(exercise, source, seed=0)
        status, message = out["wrong"][exercise]
        assert status == here["status"], exercise
        assert digits_rounded(message) == digits_rounded(here["message"]), exercise
