"""Stage 5 -- write: assets, the pycore archive and the pages go into a staging folder that
replaces the previous site only when everything succeeded (a failed build changes nothing)."""
import base64
import functools
import hashlib
import io
import json
import os
import re
import shutil
import time
import zipfile
from contextlib import contextmanager
from pathlib import Path

from .. import chapter_cache, widget_parts
from ..runtime.vendor import RECIPE


ROOT = Path(__file__).resolve().parents[2]
PYCORE_ARCHIVE = re.compile(r"^assets/pycore-[0-9a-f]+\.zip$")


def pycore_archive(dest_dir):
    """Zip pycore/'s Python (the very source the build just ran) for Pyodide's unpackArchive;
    its data files (DATA_FILES of the widgets that read them) go to assets/pycore-data/, for
    the pages that show those widgets to fetch.

    Deterministic bytes; the name carries a content hash so browsers may cache it forever.
    """
    paths = sorted(p for p in (ROOT / "pycore").rglob("*.py") if widget_parts.shipped(p))
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
    """assets/ -> site/assets/, and each widget's script from its folder to
    assets/widgets/<name>.js; every other stylesheet (search.css, each widget's widget.css)
    appended to book.css: one request per page, and each part's styles live beside its code."""
    shutil.copytree(ROOT / "assets", dest_dir, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.css"))
    widgets = widget_parts.site_assets()
    for src, rel in widgets:
        if rel.endswith(".js"):
            shutil.copyfile(src, dest_dir / rel)
    assets = ROOT / "assets"
    parts = [assets / "book.css"] + sorted(p for p in assets.glob("*.css") if p.name != "book.css")
    parts += [src for src, rel in widgets if rel.endswith(".css")]
    css = [p.read_text(encoding="utf-8") for p in parts]
    (dest_dir / "book.css").write_text("\n".join(css), encoding="utf-8")
    css = chapter_cache.pygments_css()
    (dest_dir / "pygments.css").write_text(css, encoding="utf-8")


def fingerprints(site_dir):
    """Every file under site/assets/ (and the runtime's entry module) by its path in the site:
    {"v": a short content hash, the ?v= of its URL; "sri": its Subresource Integrity value}.

    Pages ask for assets/x?v=<hash>, never for assets/x alone, so a browser's HTTP cache (a
    static host sends Last-Modified and lets browsers guess a lifetime) can never hand a new
    page an older build's file: a changed file is a new URL."""
    files = sorted(p for p in (site_dir / "assets").rglob("*") if p.is_file())
    files.append(site_dir / "pyodide" / "pyodide.mjs")
    return {p.relative_to(site_dir).as_posix(): _fingerprint(p.read_bytes()) for p in files}


@functools.lru_cache(maxsize=512)  # the preview server hashes the same files on every rebuild
def _fingerprint(data):
    return {"v": hashlib.sha256(data).hexdigest()[:12],
            "sri": "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()}


def source_version(path):
    """The ?v= of a file of assets/ as the source holds it ('assets/images/photo-224.png'):
    the same bytes the site gets, known before the site is written."""
    widgets = {f"assets/{rel}": src for src, rel in widget_parts.site_assets()}
    return file_version(widgets.get(path, ROOT / path))


def file_version(file):
    """The ?v= of any file the site copies as it is (a book image, a file of assets/)."""
    return _version_of(Path(file), *_stamp(file))


@functools.lru_cache(maxsize=256)  # keyed on size and mtime: hashed again when it changes
def _version_of(file, *_):
    return _fingerprint(file.read_bytes())["v"]


def import_map(prints):
    """The pages' import map: each module of assets/ imported under its versioned URL (book.js's
    `import "./runtime.js"` gets runtime.js?v=<hash>), so a module graph is one build's."""
    imports = {f"./{path}": f"./{path}?v={f['v']}" for path, f in prints.items()
               if path.startswith("assets/") and path.endswith(".js")}
    return json.dumps({"imports": imports}, separators=(",", ":"))


def write_pages(site_dir, pages):
    for rel, html in pages:
        path = site_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")


def build_version(runtime):
    """One name for the front-end a page was built with (its modules, styles and pycore): a
    page moving in place to another chapter (navigate.js) does so only within one build."""
    return hashlib.sha256(json.dumps([runtime["importmap"], runtime["pycore"],
                                      runtime["files"]["assets/book.css"]["v"]]).encode()
                          ).hexdigest()[:12]


# The search index's parts (bookbuild/renderers/search.py): named with a hash of their content (the
# index's version), as the pycore archive is; meta.json, which gives it, is fetched past the
# HTTP cache.
SEARCH_PART = re.compile(r"^search/[a-z]+[0-9]+\.[0-9a-f]{10}\.json$")


def site_url(rel, site_dir):
    """The address pages use for a site file: pages, the runtime (pinned by hash), the
    content-named pycore archive and search index parts as they are; every other file with ?v=<its content hash>."""
    if rel.endswith(".html") or rel.startswith("pyodide/") or PYCORE_ARCHIVE.match(rel) \
            or SEARCH_PART.match(rel) \
            or rel in ("search/meta.json", "previews.json"):  # fetched past the HTTP cache
        return rel
    return f"{rel}?v={file_version(site_dir / rel)}"


# Files a reader fetches on purpose (the whole book to print, its PDF and EPUB, notebooks):
# not precached for offline reading, where they would cost every reader their megabytes.
# The runtime's own wheels (pyodide/) are not among them: every widget needs NumPy offline.
ON_DEMAND = re.compile(r"^print\.html$|\.(pdf|epub|ipynb)$|^(?!pyodide/).*\.whl$")


# What the service worker keeps, by how the reader asked for it (templates/sw.js):
# - "install": what any opened page needs to work offline, fetched once the worker installs:
#   the runtime (pyodide/, the pycore archive), the shared assets and the offline page;
# - "book": the rest of the book, fetched only when the reader chooses to keep the whole book
#   (chapter pages, search index, widget data files and images, previews);
# - neither: embed pages (a copy of a chapter's widget, for other sites) and the on-demand
#   files, cached only when opened.
EMBED_PAGE = re.compile(r"^embed-[^/]*\.html$")
PAGE_FILE = re.compile(r"^assets/(pycore-data|images)/")  # one page's, not every page's


def offline_group(rel, offline_page):
    if ON_DEMAND.search(rel) or EMBED_PAGE.match(rel) or rel == "sw.js":
        return None
    if rel.startswith("pyodide/") or rel == offline_page or \
            rel.startswith("assets/") and not PAGE_FILE.match(rel):
        return "install"
    return "book"


def files_of(html):
    """The files of assets/ only some pages need that this page loads, as site paths: its
    widgets' data files (data-files attributes) and its images."""
    data = {f"assets/pycore-data/{name.split('?')[0]}"
            for names in re.findall(r'data-files="([^"]*)"', html) for name in names.split()}
    return sorted(data | set(re.findall(r'(?:src|href)="(assets/images/[^"?]+)', html)))


def write_service_worker(site_dir, render_sw, offline_page):
    """site/sw.js: the address (site_url) of every file it keeps, by offline_group, the data
    files each page needs, and the bytes the whole book takes; its version changes with any
    file. render_sw(version, offline) -> the text of sw.js (templates/sw.js)."""
    groups, sizes = {"install": [], "book": []}, {}
    page_files, h = {}, hashlib.sha256(f"runtime {RECIPE}".encode())  # the runtime files change
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(site_dir).as_posix()
        group = offline_group(rel, offline_page)
        if group:
            groups[group].append(site_url(rel, site_dir))
            sizes[rel] = path.stat().st_size
        if rel.endswith(".html") and group is not None or EMBED_PAGE.match(rel):
            needs = files_of(path.read_text(encoding="utf-8"))
            if needs:
                page_files[rel] = [site_url(n, site_dir) for n in needs]
        h.update(rel.encode())
        if not rel.startswith("pyodide/"):  # the runtime is pinned by hash already
            h.update(path.read_bytes())
    version = h.hexdigest()[:16]
    offline = {**groups, "pageFiles": page_files, "bookBytes": sum(sizes.values())}
    (site_dir / "sw.js").write_text(render_sw(version, offline), encoding="utf-8")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def remove_leftovers(out_dir, hours=24):
    """Remove the staging folders of builds that were killed (their process is gone, or they
    are a day old): .site.building-<pid> and .site.old-<pid> beside site/."""
    pattern = re.compile(rf"^\.{re.escape(out_dir.name)}\.(building|old)-(\d+)$")
    for entry in out_dir.parent.iterdir():
        m = pattern.match(entry.name)
        if not m or not entry.is_dir() or entry.is_symlink():
            continue
        age = time.time() - entry.stat().st_mtime
        if int(m.group(2)) != os.getpid() and (not _alive(int(m.group(2))) or age > hours * 3600):
            shutil.rmtree(entry, ignore_errors=True)


RENAME_EXCHANGE = 2  # linux/fs.h


def _exchange(a, b):
    """Swap two folders in one step (Linux renameat2), so a reader of the site never finds it
    missing; False where the system cannot."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        at_fdcwd = -100
        return libc.renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b),
                              RENAME_EXCHANGE) == 0
    except (OSError, AttributeError):  # not Linux, or a libc without renameat2
        return False


@contextmanager
def staging(out_dir):
    """Yield a fresh folder beside out_dir; on success it becomes out_dir, else it vanishes.
    The new site replaces the old in one atomic exchange where the system allows it (else two
    renames, with a moment in between when out_dir is missing)."""
    out_dir = Path(out_dir).resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out_dir)
    tmp = out_dir.parent / f".{out_dir.name}.building-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out_dir.is_dir() and not out_dir.is_symlink() and _exchange(tmp, out_dir):
        shutil.rmtree(tmp, ignore_errors=True)  # it now holds the previous site
        return
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if out_dir.exists():
        os.rename(out_dir, old)
    os.rename(tmp, out_dir)
    shutil.rmtree(old, ignore_errors=True)


def write_sitemap(site_dir, book, pages):
    """site/sitemap.xml (and robots.txt naming it) when book.toml gives the book's base_url:
    the landing page, every chapter, the glossary and the bibliography. Without a base_url a
    sitemap could only hold wrong addresses, so there is none."""
    if not book.base_url:
        return
    from xml.sax.saxutils import escape
    urls = "".join(f"<url><loc>{escape(book.base_url + p)}</loc></url>" for p in pages)
    (site_dir / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
        f'schemas/sitemap/0.9">{urls}</urlset>\n', encoding="utf-8")
    (site_dir / "robots.txt").write_text(f"Sitemap: {book.base_url}sitemap.xml\n",
                                         encoding="utf-8")
