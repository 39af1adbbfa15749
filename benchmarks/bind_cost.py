#!/usr/bin/env python3
"""What bind.js costs a live widget on its page: ms per bindAll(root, view), in Chromium.

For every widget of every chapter (or those of --only), once it is live:
  bound    its bound elements (data-bind, data-sci, data-attr)
  nothing  bindAll with a view that brings none of them: what walking the bindings costs
           (a lean view, one that leaves out most parts, is close to this)
  again    bindAll with its first live view again (what pycore sends when the page shows
           the build's view): every value is unchanged, so this is the cost of visiting and
           comparing the bindings that view reaches
Each figure is the median of --rounds rounds of --repeat calls. To compare two versions of
bind.js, run this script from a checkout of each, one after the other (it builds the book of
its own checkout).

    python3 benchmarks/bind_cost.py [--only trained-model,attention] [--rounds 5]
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import built_site, chapters_with_widgets, launch, load_note, serving, wait_all_live  # noqa: E402

BIND_JS = r"""
async ({ id, repeat }) => {
  const root = document.getElementById(id);
  const base = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
  const { bindAll } = await import(new URL("assets/widgets/bind.js", base).href);
  const { firstView } = await import(new URL("assets/widgets/common.js", base).href);
  const view = await firstView(root);
  const time = (v) => {
    const t = performance.now();
    for (let i = 0; i < repeat; i++) bindAll(root, v);
    return (performance.now() - t) / repeat;
  };
  time(view);  // the bindings are made at a widget's first bind: long done on a live page
  return { bound: root.querySelectorAll("[data-bind], [data-sci], [data-attr]").length,
           nothing: time({}), again: time(view) };
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated widget names")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=100, help="calls per round")
    args = ap.parse_args()
    only = {w for w in args.only.split(",") if w}
    from playwright.sync_api import sync_playwright

    print(f"# bindAll on a live page; {load_note()}")
    print(f"{'widget (id)':<45} {'bound':>6} {'nothing ms':>11} {'again ms':>9}")
    with built_site() as site, serving(site) as base, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        for page_name, names in chapters_with_widgets(site):
            if only and not set(names) & only:
                continue
            page.goto(base + page_name)
            wait_all_live(page)
            ids = page.eval_on_selector_all(
                "[data-widget]", "els => els.map(e => [e.id, e.dataset.widget])")
            for wid, name in ids:
                if only and name not in only:
                    continue
                rounds = [page.evaluate(BIND_JS, {"id": wid, "repeat": args.repeat})
                          for _ in range(args.rounds)]
                med = {k: statistics.median(r[k] for r in rounds) for k in ("nothing", "again")}
                print(f"{wid:<45} {rounds[0]['bound']:>6} {med['nothing']:>11.3f} "
                      f"{med['again']:>9.3f}")
        browser.close()


if __name__ == "__main__":
    main()
