#!/usr/bin/env python3
"""Build speed: `python build.py` on the whole book vs `mkdocs build` on the same Markdown
chapters, in one run, alternating; then the incremental rebuild; then where the time goes.

    python3 benchmarks/build_speed.py [--runs 5] [--edits 12] [--chapter 04-attention.md]

mkdocs is only a yardstick (`pip install mkdocs`), not a dependency of the book. It gets a
temporary mkdocs.yml whose nav is book.toml's parts and chapters, and a temporary copy of
book/ (minus book.toml) as docs_dir, default theme and plugins (search). It does less than our
build: no formulas rendered, widget blocks left as code, no pre-computed widgets, no Pyodide.

Definitions (both tools alike, each build a new process started from here):
  cold  a first build right after installing: the build's own caches empty (TBOOK_CACHE =
        a new folder: no compiled chapters, Jinja bytecode or search terms), anything a
        library keeps in the temp folder gone (TMPDIR = a new empty folder), no output folder,
        and the project's own modules never compiled (ours runs from a fresh copy of build.py,
        bookbuild/, pycore/, templates/, assets/ and book/); installed libraries keep the
        bytecode pip wrote when installing them. Only the Pyodide runtime is there, as the
        first build on a machine sets it up, once, whatever the book: its pinned downloads
        and the site's versions derived from them (bookbuild/runtime/vendor.py: re-packed zips, boot
        modules compiled by Pyodide under Node.js; ~7 s, printed by that first build), linked
        into the new TBOOK_CACHE: downloading and setting up the runtime is not building.
  cold, no bytecode  the same with an empty bytecode cache for everything
        (PYTHONPYCACHEPREFIX = a new empty folder: every module, NumPy's and the standard
        library's included, is compiled again) -- harsher than any real first build.
  warm  the next build: every cache as the previous build left it, bytecode in the usual
        __pycache__ folders (no PYTHONPYCACHEPREFIX: with it, even a primed prefix folder made
        both tools ~0.4-0.5 s slower here, which hid mkdocs' real speed), output folder there.
Incremental: inside one process, bookbuild.pipeline.build with a `cache` dict (as the preview
server does), after appending a line to one chapter of a copy of book/: median over the edits.
"""
import argparse
import cProfile
import io
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, load_note, spread  # noqa: E402


def mkdocs_project(tmp):
    """mkdocs.yml + docs/ (a copy of book/ minus book.toml) in tmp; returns the yml path."""
    docs = tmp / "docs"
    shutil.copytree(ROOT / "book", docs, ignore=shutil.ignore_patterns("book.toml"))
    book = tomllib.loads((ROOT / "book" / "book.toml").read_text(encoding="utf-8"))
    lines = [f"site_name: {book['title']}", f"docs_dir: {docs}", "nav:"]
    for part in book["parts"]:
        lines.append(f"  - '{part['title']}':")
        lines += [f"      - {chapter}" for chapter in part["chapters"]]
    yml = tmp / "mkdocs.yml"
    yml.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return yml


def run(cmd, env_extra=None):
    """Wall time (s) of a command in a new process; raises if it fails."""
    env = {**os.environ, **(env_extra or {})}
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{done.stderr}")
    return elapsed


def cold_env(folder, bytecode):
    """Environment of a cold build: empty build and temp caches in `folder` (with only the set-up
    runtime -- downloads and derived files -- linked into its runtime cache); no bytecode at all
    unless `bytecode`."""
    from bookbuild.runtime.vendor import PINS, REPACK_FORMAT, runtime_cache
    runtime = runtime_cache()
    cold_runtime = runtime_cache(folder / "tbook")
    derived = f"stored-{REPACK_FORMAT}"
    (cold_runtime / derived).mkdir(parents=True)
    for name in list(PINS) + [f"{derived}/{p.name}" for p in (runtime / derived).iterdir()]:
        os.link(runtime / name, cold_runtime / name)
    (folder / "tmp").mkdir()
    env = {"TBOOK_CACHE": str(folder / "tbook"), "TMPDIR": str(folder / "tmp")}
    if not bytecode:
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def fresh_copy(folder):
    """The project's build as checked out, never run: its modules have no bytecode yet."""
    for name in ("bookbuild", "pycore", "templates", "assets", "book"):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "build.py", folder / "build.py")
    return folder / "build.py"


MODES = ("cold", "cold, no bytecode", "warm")


def compare(tmp, runs):
    yml = mkdocs_project(tmp)
    ours_out, theirs_out = tmp / "site-ours", tmp / "site-mkdocs"
    tools = {
        "ours": lambda build_py=ROOT / "build.py": [sys.executable, str(build_py),
                                                   "--out", str(ours_out)],
        "mkdocs": lambda build_py=None: [sys.executable, "-m", "mkdocs", "build", "-q", "-f",
                                         str(yml), "-d", str(theirs_out)],
    }
    outs = {"ours": ours_out, "mkdocs": theirs_out}
    times = {(tool, mode): [] for tool in tools for mode in MODES}
    for tool in tools:  # prime: bytecode, caches and an output folder for each tool
        run(tools[tool]())
    for i in range(runs):
        order = list(tools) if i % 2 == 0 else list(tools)[::-1]  # alternate who goes first
        for tool in order:
            for mode, bytecode in (("cold", True), ("cold, no bytecode", False)):
                shutil.rmtree(outs[tool], ignore_errors=True)
                cold = Path(tempfile.mkdtemp(dir=tmp, prefix="cold-"))
                build_py = fresh_copy(cold / "project") if tool == "ours" else None
                times[(tool, mode)].append(run(tools[tool](build_py), cold_env(cold, bytecode)))
                shutil.rmtree(cold)
            times[(tool, "warm")].append(run(tools[tool]()))
    return times


def incremental(tmp, edits, chapter_name):
    """Median and all times (ms) of build() with a cache after editing one chapter."""
    from bookbuild.pipeline import build
    book = tmp / "book-edit"
    shutil.copytree(ROOT / "book", book)
    out = tmp / "site-edit"
    cache = {}
    quiet = lambda *a: None  # noqa: E731
    build(book, out, cache=cache, log=quiet)
    chapter = book / chapter_name
    original = chapter.read_text(encoding="utf-8")
    edited, unchanged = [], []
    for i in range(edits):
        chapter.write_text(original + f"\n\n第 {i} 次编辑的一行。\n", encoding="utf-8")
        start = time.perf_counter()
        build(book, out, cache=cache, log=quiet)
        edited.append(1000 * (time.perf_counter() - start))
        start = time.perf_counter()
        build(book, out, cache=cache, log=quiet)  # nothing changed since: every chapter cached
        unchanged.append(1000 * (time.perf_counter() - start))
    return edited, unchanged, (book, out, cache)


STAGES = [  # (label, module file suffix, function name) of bookbuild.pipeline.build's stages
    ("load book.toml + chapters", "load.py", "load_book"),
    ("parse + check + widgets + render chapters", "pipeline.py", "compile_chapter"),
    ("  of which widget blocks + views (pycore)", "widgets.py", "expand_widgets"),
    ("  of which widget templates (render_widget)", "pages.py", "render_widget"),
    ("  of which formulas", "markdown.py", "render_math"),
    ("check links", "markdown.py", "check_links"),
    ("vendor runtime (verify + link Pyodide)", "vendor.py", "vendor_runtime"),
    ("  of which sha256 of the runtime", "vendor.py", "sha256_of"),
    ("copy assets", "output.py", "copy_assets"),
    ("copy images", "markdown.py", "copy_images"),
    ("pycore archive", "output.py", "pycore_archive"),
    ("render + write pages", "output.py", "write_pages"),
    ("search index", "search.py", "write_index"),
    ("service worker (hash of the site)", "output.py", "write_service_worker"),
    ("staging swap", "output.py", "staging"),
    ("across stages: compiling Jinja templates", "environment.py", "compile"),
    ("across stages: pycore views (compute)", "__init__.py", "compute"),
]


def profile_build(tmp):
    """cProfile of one warm build in this process (out folder exists, no chapter cache)."""
    from bookbuild.pipeline import build
    out = tmp / "site-profile"
    quiet = lambda *a: None  # noqa: E731
    build(ROOT / "book", out, log=quiet)  # warm: modules imported, out/ present
    prof = cProfile.Profile()
    start = time.perf_counter()
    prof.enable()
    build(ROOT / "book", out, log=quiet)
    prof.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(prof)
    print(f"\none warm build in this process under cProfile: {wall * 1000:.0f} ms wall "
          "(profiling adds overhead; shares matter more than absolute times)")
    print("stages (cumulative time, ms):")
    for label, suffix, func in STAGES:
        hits = [(key, value) for key, value in stats.stats.items()
                if key[0].endswith(suffix) and key[2] == func]
        if hits:
            cum = sum(value[3] for _, value in hits)
            print(f"  {label:<45} {cum * 1000:8.0f}")
    for order in ("cumulative", "tottime"):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats(order).print_stats(10)
        text = buf.getvalue()
        start_at = text.find("   ncalls")
        print(f"\ncProfile top 10 by {order}:")
        print(text[start_at:].rstrip())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="cold and warm builds per tool (>= 5)")
    ap.add_argument("--edits", type=int, default=12, help="incremental edits (>= 10)")
    ap.add_argument("--chapter", default="04-attention.md", help="the chapter edited")
    ap.add_argument("--no-profile", action="store_true")
    args = ap.parse_args()
    try:
        import mkdocs  # noqa: F401  (only to say how to get it)
    except ImportError:
        raise SystemExit("mkdocs is the yardstick of this benchmark: pip install mkdocs")
    print(f"# build benchmark; {load_note()}")
    with tempfile.TemporaryDirectory(prefix="tbook-build-bench-") as tmp:
        tmp = Path(tmp)
        times = compare(tmp, args.runs)
        print(f"whole book, {args.runs} runs each, alternating (seconds, new process per build):")
        for mode in MODES:
            ours, theirs = times[("ours", mode)], times[("mkdocs", mode)]
            print(f"  {mode:<17}  python build.py  {spread(ours, ' s')}")
            print(f"  {mode:<17}  mkdocs build     {spread(theirs, ' s')}")
            pairs = [a / b for a, b in zip(ours, theirs)]
            print(f"  {mode:<17}  ratio ours/mkdocs {statistics.median(ours) / statistics.median(theirs):.2f} "
                  f"(of medians; per run pair: {' '.join(f'{r:.2f}' for r in pairs)})   goal <= 0.5")
        os.sync()  # the 30 builds above leave writes in flight: let them land first
        time.sleep(2)
        edited, unchanged, _ = incremental(tmp, args.edits, args.chapter)
        print(f"\nincremental rebuild in one process after editing {args.chapter} "
              f"(build() with the preview server's cache):")
        print(f"  after an edit    {spread(edited, ' ms', 0)}   goal < 100 ms")
        print(f"  nothing changed  {spread(unchanged, ' ms', 0)}")
        print(f"  all edits (ms): {' '.join(f'{t:.0f}' for t in edited)}")
        if not args.no_profile:
            profile_build(tmp)


if __name__ == "__main__":
    main()
