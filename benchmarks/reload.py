#!/usr/bin/env python3
"""Edit a chapter -> the open page shows the change: the preview server's rebuild-and-reload
time, measured in Chromium (median and max over N edits, on a copy of book/). Each edit is
made once the page is live again, as a contributor reading the result would.

    python3 benchmarks/reload.py [--edits 15] [--chapter 04-attention]
"""
import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser.conftest import CHROMIUM_FLAGS, find_chromium  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=15)
    ap.add_argument("--chapter", default="04-attention")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "book"
        shutil.copytree(ROOT / "book", book)
        proc = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "serve", "--book", str(book),
                                 "--out", str(Path(tmp) / "site"), "--port", "0"],
                                stdout=subprocess.PIPE, text=True)
        try:
            url = None
            for line in proc.stdout:
                if "serving the book at" in line:
                    url = line.split("at ", 1)[1].split()[0]
                    break
            chapter = book / f"{args.chapter}.md"
            original = chapter.read_text(encoding="utf-8")
            times = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=find_chromium(),
                                            args=CHROMIUM_FLAGS + ["--no-sandbox"])
                page = browser.new_page()
                page.goto(url + f"{args.chapter}.html")
                page.wait_for_selector("[data-widget][data-state=live]", timeout=60_000)
                time.sleep(0.5)
                for i in range(args.edits):
                    marker = f"reload-marker-{i}"
                    start = time.perf_counter()
                    chapter.write_text(original + f"\n\n{marker}\n", encoding="utf-8")
                    page.wait_for_selector(f"text={marker}", timeout=30_000)
                    times.append(1000 * (time.perf_counter() - start))
                    # a contributor reads the result before the next edit: let the page go live
                    page.wait_for_selector("[data-widget][data-state=live]", timeout=60_000)
                browser.close()
        finally:
            proc.terminate()
            proc.wait()
    print(f"edits: {len(times)}; edit -> page shows the change (ms)")
    print(f"median {statistics.median(times):.0f} ms, max {max(times):.0f} ms, "
          f"all: {' '.join(f'{t:.0f}' for t in times)}")


if __name__ == "__main__":
    main()
