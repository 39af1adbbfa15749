#!/usr/bin/env python3
"""Full-text search, the book's own against Pagefind: bytes a first search fetches, time to the
first results, relevance, on this book (16 chapters) and on the book copied ten times over
(160 chapters: every chapter again under a new file name and title, labels renamed).

    python3 benchmarks/search.py [--baseline COMMIT] [--books 1,10] [--engines book,pagefind]
                                 [--json out.json]

Engines:
  book      the site's own search box (assets/search.js), driven through the page: focus, type,
            wait until the list shows hits (or says there are none);
  pagefind  Pagefind (`pip install "pagefind[extended]"`), its index built over the same site's
            chapters with --force-language zh-cn (the chapter text only: widgets, exercises and
            the permalinks left out, as the book's own index does); its JS API on the same page
            (under the book's CSP): search, then the data of the first 8 results (what a list
            of hits shows). A hit's section is its best sub-result (most weight of matches);
  baseline  with --baseline COMMIT: the book's search as it was at that commit (exported with
            `git archive`, built with that commit's own build.py), driven like `book`.

Each query runs once as a first search: a new browser context (empty HTTP cache, service worker
blocked, so that only what the search itself asks for is fetched) on the landing page; every
file the server sends from the focus of the box to the results counts (raw: as this server
sends it, uncompressed; gzip: what a host compressing with gzip -6 would send, files already
gzipped as they are). Then all queries run again in one context, warm, for the time of a query
once its files are there. The search module itself (assets/search.js) comes with every page
and is not counted for `book`; pagefind.js, its worker and WebAssembly are counted.

Relevance: a query's expected page (and, when given, words its #anchor must hold) is written
by hand below; on the 160-chapter book any copy of the expected chapter counts. Reported: the
first hit is the expected page, the first hit is the expected section, and the mean reciprocal
rank of the expected page among the first 8 hits.
"""
import argparse
import gzip
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, launch, load_note, serving  # noqa: E402
from weight import CountingHandler  # noqa: E402
from tests.browser.test_search import QUERIES as TEST_QUERIES  # noqa: E402

# (query, expected page, words its #anchor must hold or None, what it tries)
NEW_QUERIES = [
    ("√d", "04-attention.html", "sec:why-scale", "formula"),
    ("d_k", "04-attention.html", "sec:why-scale", "formula as TeX"),
    ("n²", "04-attention.html", "sec:attention-cost", "formula"),
    ("参数量计算器", "10-parameters.html", None, "widget title"),
    ("移位窗口", "11-vit.html", "swin", "widget title"),
    ("lr-schedule", "13-training.html", "sec:lr-schedule", "widget name"),
    ("学习率预热", "13-training.html", "sec:lr-schedule", "Chinese, not verbatim"),
    ("梯度裁剪", "13-training.html", "梯度裁剪", "Chinese"),
    ("余弦相似度", "01-dot-product.html", "余弦相似度", "Chinese"),
    ("交叉熵", "13-training.html", "sec:next-token", "Chinese"),
    ("正弦位置编码", "06-positional-encoding.html", "sec:sinusoidal", "phrase"),
    ("缩放点积注意力", "04-attention.html", None, "phrase"),
    ("因果掩码的开与关", "15-code-lab.html", None, "phrase (a heading)"),
    ("小猫没有过马路", "00-overview.html", None, "the running example"),
    ("learning rate warmup", "13-training.html", "sec:lr-schedule", "English words"),
    ("FlashAttention", "04-attention.html", "sec:attention-cost", "English"),
    ("GQA", "05-multi-head.html", "sec:mqa-gqa", "English"),
    ("Pre-LN", "07-encoder-layer.html", "sec:pre-post-ln", "English"),
    ("softmx", "02-softmax.html", None, "typo"),
    ("Chinchila", "13-training.html", None, "typo"),
    ("位置编吗", "06-positional-encoding.html", None, "typo (Chinese)"),
]


def queries():
    seen, out = set(), []
    for q, page, anchor, *kind in [(*t, "test") for t in TEST_QUERIES] + NEW_QUERIES:
        if q not in seen:
            seen.add(q)
            out.append((q, page, anchor, kind[0]))
    return out


# ---------------------------------------------------------------- the books

LABEL = re.compile(r"\b(eq|fig|sec):([A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9_])")
CHAPTER_LINK = re.compile(r"\((\d\d[a-z]?-[a-z0-9-]+\.md)")
EXERCISE = re.compile(r"^```exercise ([a-z0-9-]+)\n", re.M)
EXERCISE_ANCHOR = re.compile(r"#exercise-([a-z0-9-]+)")
GIVEN_ID = re.compile(r'^id = "([^"]+)"', re.M)
COPY = re.compile(r"^c\d+-")


def copy_book(dest, times):
    """book/ copied into dest with every chapter `times` times: copy k of NN-name.md is
    ck-NN-name.md, its title ends in （第 k 册）, its labels, widget and exercise ids end in -ck
    (ids are unique in a book) and its links go to the other chapters of copy k."""
    dest = Path(dest)
    shutil.copytree(ROOT / "book", dest)
    toml = (dest / "book.toml").read_text(encoding="utf-8")
    names = [n for part in tomllib.loads(toml)["parts"] for n in part["chapters"]]
    for k in range(2, times + 1):
        copies = []
        for name in names:
            s = (ROOT / "book" / name).read_text(encoding="utf-8")
            s = LABEL.sub(lambda m: f"{m[1]}:{m[2]}-c{k}", s)
            s = CHAPTER_LINK.sub(lambda m: f"(c{k}-{m[1]}", s)
            s = GIVEN_ID.sub(lambda m: f'id = "{m[1]}-c{k}"', s)
            s = EXERCISE.sub(lambda m: f'```exercise {m[1]}\nid = "exercise-{m[1]}-c{k}"\n', s)
            s = EXERCISE_ANCHOR.sub(lambda m: f"#exercise-{m[1]}-c{k}", s)
            s = re.sub(r"^# (.+)$", lambda m: f"# {m[1]}（第 {k} 册）", s, count=1, flags=re.M)
            (dest / f"c{k}-{name}").write_text(s, encoding="utf-8")
            copies.append(f"c{k}-{name}")
        toml += f"\n[[parts]]\ntitle = \"第 {k} 册\"\nchapters = {json.dumps(copies)}\n"
    (dest / "book.toml").write_text(toml, encoding="utf-8")
    return dest


# Run in the tree that builds (this one or the baseline's export): build the site, then time
# the search stage alone on the compiled book, without its cache.
BUILD = """
import json, sys, tempfile, time
from pathlib import Path
from bookbuild.renderers import search
from bookbuild.pipeline import build
book = build(sys.argv[1], sys.argv[2], log=lambda *a: None)
with tempfile.TemporaryDirectory() as tmp:
    search._LAST.clear()
    start = time.perf_counter()
    search.write_index(Path(tmp), book, cache_dir=Path(tmp) / "cache")
    print(json.dumps({"index_s": time.perf_counter() - start}))
"""


def build_site(tree, book, out):
    done = subprocess.run([sys.executable, "-c", BUILD, str(book), str(out)], cwd=tree,
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"build in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])["index_s"]


PAGEFIND = [sys.executable, "-m", "pagefind", "--force-language", "zh-cn", "--quiet",
            "--root-selector", "article.chapter", "--glob", "{[0-9][0-9],c*}-*.html",
            "--exclude-selectors", "figure[data-widget]", "--exclude-selectors",
            "section[data-exercise]", "--exclude-selectors", "a.anchor"]


def pagefind_index(site):
    start = time.perf_counter()
    done = subprocess.run(PAGEFIND + ["--site", str(site)], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"pagefind failed (pip install 'pagefind[extended]'):\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


def index_files(site, engine):
    """The files of an engine's index on disk: (count, bytes)."""
    if engine == "pagefind":
        files = [p for p in (site / "pagefind").rglob("*") if p.is_file()
                 and ("pagefind/index" in p.as_posix() or "pagefind/fragment" in p.as_posix()
                      or p.name in ("pagefind.js", "pagefind-worker.js", "pagefind-entry.json")
                      or p.suffix in (".pf_meta", ".pagefind"))]
    else:
        files = [site / "search-index.json"] if (site / "search-index.json").exists() else \
            [p for p in (site / "search").rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


# ---------------------------------------------------------------- one search in the page

BOOK_SEARCH = """async ([q, n]) => {
    const input = document.querySelector('#tbook-search');
    const list = document.querySelector('#tbook-search-results');
    const status = document.querySelector('.search-status');
    const before = list.querySelector('li[data-href]'), said = status.textContent;
    const t0 = performance.now();
    const parts = Boolean(document.querySelector('.search-more'));  // the index in parts
    const shown = () => {  // the list says whose hits it shows (a search in parts answers later)
        if (parts) return list.dataset.query === q.trim();
        const first = list.querySelector('li[data-href]');  // an older search.js: at once
        return (first && first !== before) ||
            (status.textContent !== said && /没有找到/.test(status.textContent));
    };
    const done = new Promise((resolve) => {
        const watch = new MutationObserver(() => { if (shown()) { watch.disconnect(); resolve(); } });
        watch.observe(list, { childList: true, subtree: true, attributes: true });
        watch.observe(status, { childList: true, characterData: true, subtree: true });
    });
    input.focus();
    input.value = q;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // an older search.js answers within the event once its index is there (two queries in a
    // row without hits change nothing on the page)
    const now = !parts && !/正在加载/.test(status.textContent);
    if (!now && !shown()) await done;
    const ms = performance.now() - t0;
    const hits = [...list.querySelectorAll('li[data-href]')].slice(0, n).map((li) => li.dataset.href);
    return { ms, hits };
}"""

PAGEFIND_SEARCH = """async ([q, n]) => {
    const t0 = performance.now();
    window.pagefindModule ??= await import(new URL('pagefind/pagefind.js', document.baseURI).href);
    const found = await window.pagefindModule.search(q);
    const data = await Promise.all(found.results.slice(0, n).map((r) => r.data()));
    const ms = performance.now() - t0;
    const weight = (s) => s.weighted_locations.reduce((a, l) => a + l.balanced_score, 0);
    const hits = data.map((d) => {
        const best = [...d.sub_results].sort((a, b) => weight(b) - weight(a))[0];
        return new URL(best ? best.url : d.url, document.baseURI).href;
    });
    return { ms, hits };
}"""


def gzip_size(path):
    data = path.read_bytes()
    return len(data) if data[:2] == b"\x1f\x8b" else len(gzip.compress(data, 6))


def run_search(page, engine, query):
    return page.evaluate(PAGEFIND_SEARCH if engine == "pagefind" else BOOK_SEARCH, [query, 8])


def open_landing(browser, base):
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "index.html", wait_until="networkidle")
    return context, page, errors


def measure(browser, base, site, engine, qs):
    """Every query as a first search (cold), then all of them warm in one page."""
    cold = []
    for q, *_ in qs:
        context, page, errors = open_landing(browser, base)
        CountingHandler.log_entries.clear()
        result = run_search(page, engine, q)
        page.wait_for_timeout(50)  # a request still finishing is counted too
        sent = [e for e in CountingHandler.log_entries if e["status"] == 200]
        files = [site / unquote(e["path"]).lstrip("/") for e in sent]
        result.update(requests=len(sent), raw=sum(e["bytes"] for e in sent),
                      gzip=sum(gzip_size(f) for f in files if f.is_file()), errors=errors,
                      files=sorted(e["path"] for e in sent))
        cold.append(result)
        context.close()
    context, page, errors = open_landing(browser, base)
    run_search(page, engine, qs[0][0])
    warm = [run_search(page, engine, q)["ms"] for q, *_ in qs]
    context.close()
    return cold, warm, errors


# ---------------------------------------------------------------- relevance

def chapter_of(href):
    path = urlsplit(href).path.rsplit("/", 1)[-1]
    return COPY.sub("", path), unquote(urlsplit(href).fragment).lower()


def judge(hits, page, anchor):
    """(first hit is the page, first hit is the section, reciprocal rank of the page, the page
    among the first 3)."""
    pages = (page,) if isinstance(page, str) else page  # a query two chapters answer
    found = [chapter_of(h) for h in hits]
    rank = next((i + 1 for i, (p, _) in enumerate(found) if p in pages), None)
    top = found[0] if found else (None, "")
    section = top[0] in pages and (anchor is None or anchor.lower() in top[1])
    return top[0] in pages, section, 1 / rank if rank else 0.0, bool(rank and rank <= 3)


# ---------------------------------------------------------------- report

def summary(cold, warm, qs):
    judged = [judge(c["hits"], page, anchor) for c, (_, page, anchor, _) in zip(cold, qs)]
    kb = lambda key: [c[key] / 1000 for c in cold]  # noqa: E731
    ms = [c["ms"] for c in cold]
    return {
        "first search KB raw (median / max)": f"{statistics.median(kb('raw')):.0f} / "
                                              f"{max(kb('raw')):.0f}",
        "first search KB gzip (median / max)": f"{statistics.median(kb('gzip')):.0f} / "
                                               f"{max(kb('gzip')):.0f}",
        "first search requests (median / max)": f"{statistics.median(c['requests'] for c in cold):.0f}"
                                                f" / {max(c['requests'] for c in cold)}",
        "first results, cold ms (median / max)": f"{statistics.median(ms):.0f} / {max(ms):.0f}",
        "a query, warm ms (median / max)": f"{statistics.median(warm):.1f} / {max(warm):.1f}",
        "first hit: expected page": f"{sum(j[0] for j in judged)} / {len(qs)}",
        "first hit: expected section": f"{sum(j[1] for j in judged)} / {len(qs)}",
        "expected page in the first 3": f"{sum(j[3] for j in judged)} / {len(qs)}",
        "first hit, test queries: page": "{} / {}".format(
            sum(j[0] for j, q in zip(judged, qs) if q[3] == "test"),
            sum(1 for q in qs if q[3] == "test")),
        "first hit, Chinese queries: page": "{} / {}".format(
            sum(j[0] for j, q in zip(judged, qs) if re.search(r"[\u4e00-\u9fff]", q[0])),
            sum(1 for q in qs if re.search(r"[\u4e00-\u9fff]", q[0]))),
        "MRR@8 of the expected page": f"{statistics.mean(j[2] for j in judged):.2f}",
    }, judged


def table(rows, columns):
    widths = [max(len(str(r[i])) for r in [columns] + rows) for i in range(len(columns))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"  # noqa
    return "\n".join([line(columns), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] +
                     [line(r) for r in rows])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", help="also measure the book's search at this commit")
    ap.add_argument("--books", default="1,10", help="copies of the book to measure (1,10)")
    ap.add_argument("--engines", default="book,pagefind")
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    qs = queries()
    engines = args.engines.split(",") + (["baseline"] if args.baseline else [])
    print(f"{len(qs)} queries ({sum(q[3] == 'test' for q in qs)} from the tests); {load_note()}")
    results, builds = {}, {}
    with tempfile.TemporaryDirectory(prefix="tbook-search-") as tmp, sync_playwright() as p:
        tmp = Path(tmp)
        trees = {"book": ROOT}
        if args.baseline:
            trees["baseline"] = tmp / "baseline"
            trees["baseline"].mkdir()
            archive = subprocess.run(["git", "archive", args.baseline], cwd=ROOT,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(trees["baseline"])], input=archive, check=True)
        browser = launch(p)
        for times in map(int, args.books.split(",")):
            book = ROOT / "book" if times == 1 else copy_book(tmp / f"book{times}", times)
            sites = {}
            for name in ["book"] + (["baseline"] if args.baseline else []):
                sites[name] = tmp / f"{name}{times}" / "site"
                start = time.perf_counter()
                index_s = build_site(trees[name], book, sites[name])
                builds[(name, times)] = {"build_s": time.perf_counter() - start, "index_s": index_s}
                print(f"built {times}x with {name} code in {builds[(name, times)]['build_s']:.1f} s "
                      f"(search stage {index_s:.2f} s)")
            if "pagefind" in engines:
                sites["pagefind"] = sites["book"]
                builds[("pagefind", times)] = {"index_s": pagefind_index(sites["pagefind"])}
                print(f"pagefind index of {times}x in {builds[('pagefind', times)]['index_s']:.1f} s")
            for engine in engines:
                site = sites[engine]
                with serving(site, handler=CountingHandler) as base:
                    cold, warm, errors = measure(browser, base, site, engine, qs)
                files = index_files(site, engine)
                results[(engine, times)] = {"cold": cold, "warm": warm, "errors": errors,
                                            "files": files, **builds[(engine, times)]}
                print(f"measured {engine} on {times}x")
        browser.close()

    columns = ["figure"] + [f"{e} {t}×" for e, t in results]
    sums = {k: summary(r["cold"], r["warm"], qs) for k, r in results.items()}
    rows = [[figure] + [sums[k][0][figure] for k in results] for figure in next(iter(sums.values()))[0]]
    rows.append(["index files / KB on disk"] + [f"{r['files'][0]} / {r['files'][1] / 1000:.0f}"
                                               for r in results.values()])
    rows.append(["index build s (search stage or pagefind)"] +
                [f"{r['index_s']:.2f}" for r in results.values()])
    rows.append(["console errors (CSP and others)"] +
                [str(len(r["errors"]) + sum(len(c["errors"]) for c in r["cold"]))
                 for r in results.values()])
    print()
    print(table(rows, columns))
    print()
    per_query = []
    for i, (q, page, anchor, kind) in enumerate(qs):
        row = [q, f"{page}{'#' + anchor if anchor else ''}", kind]
        for k in results:
            j = sums[k][1][i]
            rank = round(1 / j[2]) if j[2] else "–"
            mark = "✓" if j[1] else ("p" if j[0] else "✗")
            row.append(f"{mark} {rank} {results[k]['cold'][i]['raw'] / 1000:.0f}K")
        per_query.append(row)
    print("per query: ✓ first hit is the expected section, p its page only, ✗ neither; then the")
    print("rank of the expected page among the first 8 (– not there) and the first search's raw KB")
    print(table(per_query, ["query", "expected", "kind"] + columns[1:]))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {f"{e} {t}": r for (e, t), r in results.items()}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
