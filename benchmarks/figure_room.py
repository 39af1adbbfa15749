#!/usr/bin/env python3
"""How much room the widgets take and give their pictures, at 1280 x 900: every widget's
height, how many are taller than the screen, and the share of its box its pictures (the book's
figures and canvases, no legend, nothing in a closed fold) cover. The measure is the layout
test's (tests/browser/test_layout.py MEASURE).

    python3 benchmarks/figure_room.py            # build the book, measure it
    python3 benchmarks/figure_room.py --site DIR # measure a site already built (another branch's)
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import built_site, chapters_with_widgets, launch, serving, wait_all_live  # noqa: E402
from tests.browser.test_layout import DESKTOP, MEASURE  # noqa: E402


def measure(site):
    from playwright.sync_api import sync_playwright
    rows = []
    with serving(site) as base, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport=DESKTOP)
        for name, _ in chapters_with_widgets(site):
            page.goto(base + name)
            wait_all_live(page)
            rows += [{**w, "page": name} for w in page.evaluate(MEASURE)]
        browser.close()
    return rows


def report(rows):
    for w in rows:
        print(f"{w['page'][:24]:24} {w['name']:22} {w['height']:6.0f} px tall, "
              f"pictures {w['span']:4.0f} px wide (text {w['column']:.0f}), {w['area']:4.0%} of the box")
    heights = [w["height"] for w in rows]
    pictured = [w for w in rows if w["span"]]
    print(f"{len(rows)} widgets: mean height {statistics.mean(heights):.0f} px, "
          f"{sum(h > DESKTOP['height'] for h in heights)} taller than {DESKTOP['height']} px; "
          f"pictures cover {statistics.mean(w['area'] for w in rows):.0%} of a widget's box "
          f"on average ({statistics.mean(w['area'] for w in pictured):.0%} of those with one); "
          f"{sum(w['span'] >= w['column'] - 1 for w in pictured)} of {len(pictured)} "
          f"span the text column or more")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--site", type=Path, help="a built site to measure (default: build book/)")
    args = ap.parse_args()
    if args.site:
        report(measure(args.site))
        return
    with built_site() as site:
        report(measure(site))


if __name__ == "__main__":
    main()
