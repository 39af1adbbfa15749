#!/usr/bin/env python3
"""Build the interactive Transformer book from book/ into site/, or build and serve it.

    python build.py            # build site/
    python build.py serve      # build, serve site/ on http://127.0.0.1:<port>/, and rebuild +
                               # reload the open pages whenever book/, pycore/, templates/ or
                               # assets/ change (--no-watch: just serve)
    python build.py new-widget <name> [--chapter book/NN-x.md]
                               # create a new widget's parts from templates (docs/contributing.md)
    python build.py docs       # regenerate the parameter reference in docs/contributing.md
                               # (--check: only say whether it is up to date)
    python build.py pdf        # build site/ and the whole book as site/book.pdf (Chromium)
    python build.py epub       # build site/ and the book as site/book.epub (EPUB 3)
    python build.py pdf epub   # both (the landing page offers what was made)
"""
import argparse
import sys
from pathlib import Path

from bookbuild.errors import BuildError
from bookbuild.pipeline import build

HERE = Path(__file__).resolve().parent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("command", nargs="?", choices=["build", "serve", "new-widget", "docs", "pdf",
                                                   "epub"], default="build")
    ap.add_argument("name", nargs="?", help="new-widget: the widget's name, e.g. layer-norm; "
                                            "after pdf: epub (and after epub: pdf)")
    ap.add_argument("--book", type=Path, default=HERE / "book", help="chapters folder (book/)")
    ap.add_argument("--out", type=Path, default=HERE / "site", help="output folder (site/)")
    ap.add_argument("--pyodide-dist", type=Path, default=None,
                    help="use this official Pyodide 0.27.7 folder instead of fetching one "
                         "(also: env PYODIDE_DIST)")
    ap.add_argument("--port", type=int, default=8000, help="preferred port for serve")
    ap.add_argument("--no-watch", action="store_true", help="serve without rebuilding on changes")
    ap.add_argument("--chapter", type=Path, default=None,
                    help="new-widget: append the widget's block to this chapter (created as a "
                         "scratch chapter if missing)")
    ap.add_argument("--check", action="store_true",
                    help="docs: exit 1 if docs/contributing.md is out of date, change nothing")
    args = ap.parse_args(argv)
    downloads = []
    if args.command in ("pdf", "epub"):
        downloads = [args.command] + ([args.name] if args.name else [])
        if args.name not in (None, "pdf", "epub") or len(set(downloads)) != len(downloads):
            ap.error("pdf and epub may be given together: build.py pdf epub")
    elif (args.name is None) != (args.command != "new-widget"):
        ap.error("new-widget takes a widget name (and only new-widget takes one)")
    if args.command in ("new-widget", "docs"):
        return tool(args)
    if args.command == "serve" and not args.no_watch:
        from bookbuild.dev.watch import serve_and_watch
        serve_and_watch(args.book, args.out, port=args.port, dist_dir=args.pyodide_dist,
                        log=lambda msg: print(msg, flush=True))
        return 0
    try:
        build(args.book, args.out, dist_dir=args.pyodide_dist, downloads=downloads)
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        print("the previous site/ (if any) was left unchanged", file=sys.stderr)
        return 1
    if args.command == "serve":
        from bookbuild.dev.serve import free_port, make_server
        server = make_server(args.out, port=free_port(preferred=args.port))
        print(f"serving the book at http://127.0.0.1:{server.server_port}/  (Ctrl-C to stop)",
              flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def tool(args):
    """The contributor commands: new-widget and docs."""
    from bookbuild.tools import docsgen, scaffold
    try:
        if args.command == "new-widget":
            scaffold.new_widget(args.name, root=HERE, chapter=args.chapter)
        elif args.check:
            if not docsgen.is_current():
                print("docs/contributing.md is out of date: run python build.py docs",
                      file=sys.stderr)
                return 1
        else:
            changed = docsgen.update()
            print("docs/contributing.md " + ("updated" if changed else "is up to date"))
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
