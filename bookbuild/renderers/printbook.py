"""The whole book as one page (site/print.html, like mdBook's print.html), and its PDF.

Every chapter in book order, each starting on a new page, with a table of contents; every
widget as its figure in its default state (the pre-rendered SVG and its key numbers, numbered
图 N.k; its controls and its 数值 tables are not printed); formulas numbered as in the book.
Chapters share one page here, so each chapter's ids get its name in front (04-attention--x)
and every link between chapters becomes a link inside the page.

`python3 build.py pdf` prints that page to a PDF with the same Chromium the tests use
(`chromium --headless --print-to-pdf`); no Chromium, and it says how to get one.
"""
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

from .. import pagenames
from ..errors import BuildError

PAGE = pagenames.PRINT
ID_ATTRS = ("id", "for", "aria-labelledby", "aria-describedby", "aria-controls", "headers")
ATTR = re.compile(r'\s(%s)="([^"]*)"' % "|".join(ID_ATTRS))
HREF = re.compile(r'\shref="([^"]*)"')
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def scoped(html, chapter, pages):
    """A chapter's HTML for the one-page book: ids prefixed with its slug, links to another
    chapter (pages: {href: slug}) or to one of its anchors turned into in-page links."""
    prefix = chapter.slug + "--"

    def ids(m):
        name, value = m.groups()
        return f' {name}="' + " ".join(prefix + v for v in value.split()) + '"'

    def href(m):
        value = m.group(1)
        page, hash_, anchor = value.partition("#")
        if not page and hash_:
            return f' href="#{prefix}{anchor}"'
        if page in pages:
            target = pages[page]
            return f' href="#{target}--{anchor}"' if anchor else f' href="#chapter-{target}"'
        return m.group(0)  # another site, the glossary, an image: as it is
    return HREF.sub(href, ATTR.sub(ids, str(html)))


def chapters(book, number_of):
    """[(chapter, number, its one-page HTML)] in book order."""
    pages = {c.href: c.slug for c in book.chapters}
    return [(c, number_of(c), scoped(c.html, c, pages)) for c in book.chapters]


def find_chromium():
    """A Chromium to print with: $CHROMIUM, else one on PATH."""
    given = os.environ.get("CHROMIUM")
    if given:
        return given
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    raise BuildError("no Chromium found to print the PDF with: install one (Debian: "
                     "apt-get install chromium fonts-noto-cjk) or set CHROMIUM=/path/to/chrome")


def print_pdf(site, out_name, *, timeout=300):
    """site/print.html -> site/<out_name> with headless Chromium; returns the PDF's path. The
    page is served over HTTP on 127.0.0.1 for the while (from file:// a browser would refuse
    the stylesheets' integrity checks and the page's policy)."""
    from ..dev.serve import make_server
    chrome = find_chromium()
    out = Path(site) / out_name
    server = make_server(site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    args = [chrome, "--headless=new", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--run-all-compositor-stages-before-draw", "--virtual-time-budget=10000",
            f"--print-to-pdf={out}", f"http://127.0.0.1:{server.server_port}/{PAGE}"]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")
    try:
        run = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BuildError(f"Chromium ({chrome}) could not print the PDF: {e}")
    finally:
        server.shutdown()
        server.server_close()
    if run.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
        raise BuildError(f"Chromium ({chrome}) could not print the PDF (exit {run.returncode}): "
                         f"{run.stderr.strip()[-300:]}")
    return out
