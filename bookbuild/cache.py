"""The build's cache folder, and every folder and file the build keeps in it between builds.

The root is $TBOOK_CACHE, else $XDG_CACHE_HOME/transformer-book, else
~/.cache/transformer-book. Everything in it may be deleted: the next build makes it again
(the runtime is then fetched again, which needs the network). Every other module asks this one
for its place in the cache; none derives it from another's.
"""
import os
from pathlib import Path


def root(cache_dir=None) -> Path:
    """The cache folder: `cache_dir` when given, else the environment's choice."""
    if cache_dir is None and os.environ.get("TBOOK_CACHE"):
        cache_dir = Path(os.environ["TBOOK_CACHE"])
    if cache_dir is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        cache_dir = Path(xdg) / "transformer-book"
    return Path(cache_dir).expanduser()


def runtime(version, cache_dir=None) -> Path:
    """The verified Pyodide runtime of that version (bookbuild/runtime/vendor.py)."""
    return root(cache_dir) / f"pyodide-{version}"


def sha256_stamps() -> Path:
    """The runtime files' sha256 by identity, size and time (bookbuild/runtime/vendor.py)."""
    return root() / "sha256-stamps.json"


def chapters() -> Path:
    """Compiled chapters, the last build's pages, pygments' stylesheet
    (bookbuild/chapter_cache.py)."""
    return root() / "chapters"


def jinja() -> Path:
    """Jinja's compiled templates (bookbuild/renderers/pages.py)."""
    return root() / "jinja"


def pycore_wheels() -> Path:
    """The pycore wheels the notebooks install, one per content (bookbuild/renderers/notebooks.py)."""
    return root() / "pycore-wheels"


def search() -> Path:
    """Whole search indexes, by their inputs (bookbuild/renderers/search.py)."""
    return root() / "search"


def write(path, data, keep=None):
    """Write a cache file atomically (builds may run side by side); with `keep`, leave at most
    about that many *.json files in its folder (the oldest go). An unwritable cache only costs
    time: errors are ignored."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        if isinstance(data, str):
            tmp.write_text(data, encoding="utf-8")
        else:
            tmp.write_bytes(data)
        tmp.replace(path)
        if keep is not None and len(os.listdir(path.parent)) > keep + keep // 4:  # now and then
            old = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime)
            for p in old[:-keep]:
                p.unlink(missing_ok=True)
    except OSError:
        pass
