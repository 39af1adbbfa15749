#!/usr/bin/env python3
"""Does chapter 13b's page stay responsive while train-live trains? The gaps between the page's
animation frames, first idle, then while the model trains (in the runtime's worker: were it
training on the page's own thread, most frames would wait for a whole chunk, about 120 ms).
Prints the 90th percentile of both, per round; a training p90 far over the idle one means the
page's thread does the training's work.

    python3 benchmarks/train_frames.py [--rounds 3] [--idle-ms 1000] [--busy-ms 2000]
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import built_site, launch, load_note, percentile, serving, wait_all_live  # noqa: E402

PAGE = "13b-trained-model.html"

# The times between the page's animation frames over `ms` milliseconds.
FRAME_GAPS = """(ms) => new Promise(done => {
    const gaps = []; let last, end;
    const tick = (now) => { gaps.push(now - last); last = now;
                            now < end ? requestAnimationFrame(tick) : done(gaps); };
    requestAnimationFrame((now) => { last = now; end = now + ms; requestAnimationFrame(tick); });
})"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--idle-ms", type=int, default=1000)
    ap.add_argument("--busy-ms", type=int, default=2000)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with built_site() as site, serving(site) as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        page.goto(url + PAGE)
        wait_all_live(page)
        root = page.locator('[data-widget="train-live"]').first
        run = root.locator("[data-action=run]")
        print(f"frame gaps on {PAGE}, p90 in ms ({load_note()})")
        for k in range(args.rounds):
            root.locator("[data-action=reset]").click()
            idle = page.evaluate(FRAME_GAPS, args.idle_ms)
            run.click()
            busy = page.evaluate(FRAME_GAPS, args.busy_ms)
            run.click()  # pause
            print(f"round {k + 1}: idle {percentile(idle, 90):.1f}, training "
                  f"{percentile(busy, 90):.1f} ({len(busy)} frames)")
        browser.close()


if __name__ == "__main__":
    main()
