"""Stage 5 -- write: assets, the pycore archive and the pages go into a staging folder that
replaces the previous site only when everything succeeded (a failed build changes nothing)."""
import base64
import functools
import hashlib
import io
import os
import shutil
import zipfile
from contextlib import contextmanager
from pathlib import Path

from . import chapter_cache
from .vendor import RECIPE


ROOT = Path(__file__).resolve().parent.parent


def pycore_archive(dest_dir):
    """Zip pycore/'s Python (the very source the build just ran) for Pyodide's unpackArchive;
    its data files (DATA_FILES of the widgets that read them) go to assets/pycore-data/, for
    the pages that show those widgets to fetch.

    Deterministic bytes; the name carries a content hash so browsers may cache it forever.
    """
    paths = sorted(p for p in (ROOT / "pycore").rglob("*.py"))
    name, data = _zip_pycore(tuple((p, *_stamp(p)) for p in paths))
    (dest_dir / name).write_bytes(data)
    (dest_dir / "pycore-data").mkdir(exist_ok=True)
    for path in sorted(p for p in (ROOT / "pycore").iterdir() if p.is_file() and p.suffix != ".py"):
        shutil.copyfile(path, dest_dir / "pycore-data" / path.name)
    return name


def _stamp(path):
    st = path.stat()
    return st.st_size, st.st_mtime_ns


@functools.lru_cache(maxsize=4)  # keyed on every file's size and mtime: rebuilt when one changes
def _zip_pycore(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path, *_ in files:
            info = zipfile.ZipInfo(path.relative_to(ROOT).as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    data = buf.getvalue()
    return f"pycore-{hashlib.sha256(data).hexdigest()[:12]}.zip", data


def copy_assets(dest_dir):
    """assets/ -> site/assets/, with every other stylesheet (search.css, widgets/<name>.css)
    appended to book.css: one request per page, and each part's styles live beside its code."""
    shutil.copytree(ROOT / "assets", dest_dir, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.css"))
    assets = ROOT / "assets"
    parts = [assets / "book.css"] + sorted(p for p in assets.glob("*.css") if p.name != "book.css")
    css = [p.read_text(encoding="utf-8") for p in parts + sorted((assets / "widgets").glob("*.css"))]
    (dest_dir / "book.css").write_text("\n".join(css), encoding="utf-8")
    css = chapter_cache.pygments_css()
    (dest_dir / "pygments.css").write_text(css, encoding="utf-8")


def integrity(site_dir):
    """Subresource Integrity values ("sha384-...") of the files pages reference directly:
    every asset and the runtime's entry module, keyed by their path in the site."""
    files = sorted(p for p in (site_dir / "assets").rglob("*") if p.suffix in (".js", ".css"))
    files.append(site_dir / "pyodide" / "pyodide.mjs")
    return {p.relative_to(site_dir).as_posix(): _sri(p.read_bytes()) for p in files}


@functools.lru_cache(maxsize=512)  # the preview server hashes the same files on every rebuild
def _sri(data):
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def write_pages(site_dir, pages):
    for rel, html in pages:
        path = site_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")


def write_service_worker(site_dir, render_sw):
    """site/sw.js, listing every file of the site; its version changes with any file.
    render_sw(version, files) -> the text of sw.js (templates/sw.js)."""
    files, h = [], hashlib.sha256(f"runtime {RECIPE}".encode())  # the site's runtime files change
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(site_dir).as_posix()
        files.append(rel)
        h.update(rel.encode())
        if not rel.startswith("pyodide/"):  # the runtime is pinned by hash already
            h.update(path.read_bytes())
    version = "book-" + h.hexdigest()[:16]
    (site_dir / "sw.js").write_text(render_sw(version, files), encoding="utf-8")


@contextmanager
def staging(out_dir):
    """Yield a fresh folder beside out_dir; on success it becomes out_dir, else it vanishes."""
    out_dir = Path(out_dir).resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_dir.parent / f".{out_dir.name}.building-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if out_dir.exists():
        os.rename(out_dir, old)
    os.rename(tmp, out_dir)
    shutil.rmtree(old, ignore_errors=True)
