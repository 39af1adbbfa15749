"""What every browser test needs: read a widget's numbers and compare them with pycore.

The DOM contract (docs/widgets.md): numbers are [data-bind="path"][data-digits=d] elements and
table[data-matrix="path"] cells; `path` indexes the view dict that pycore computes.
"""
from pycore.widgets import compute, module

LIVE = "[data-state=live]"


def lookup(view, path):
    for key in path.split("."):
        view = view[int(key)] if isinstance(view, list) else view[key]
    return view


def shown_numbers(root, skip=None):
    """[(path, text, digits)] for every bound number and every matrix cell inside root (but
    those inside an element matching the selector `skip`: a hidden panel left as it was)."""
    return root.evaluate("""(root, skip) => {
        const out = [], kept = (e) => !(skip && e.closest(skip));
        root.querySelectorAll('[data-bind]').forEach(e => kept(e) &&
            out.push([e.dataset.bind, e.textContent, Number(e.dataset.digits)]));
        root.querySelectorAll('table[data-matrix]').forEach(t => kept(t) &&
            t.querySelectorAll('tbody tr').forEach((tr, i) =>
                tr.querySelectorAll('td').forEach((td, j) =>
                    out.push([`${t.dataset.matrix}.${i}.${j}`, td.textContent,
                              Number(t.dataset.digits)]))));
        return out;
    }""", skip)


def assert_shows(root, view, *, min_count=1, skip=None):
    """Every number the widget shows equals pycore's view, to the digits it shows."""
    shown = shown_numbers(root, skip)
    assert len(shown) >= min_count, f"expected at least {min_count} numbers, found {len(shown)}"
    for path, text, digits in shown:
        expected = lookup(view, path)
        if isinstance(expected, str):
            assert text == expected, f"{path}: page shows {text!r}, pycore says {expected!r}"
            continue
        tolerance = 0.5 * 10 ** -digits + 1e-9
        assert abs(float(text) - expected) <= tolerance, \
            f"{path}: page shows {text}, pycore says {expected:.6f} (±{tolerance:g})"
    return len(shown)


def params_of(root):
    """The widget's current parameters, as the page would send them to pycore."""
    return root.evaluate("root => JSON.parse(root.dataset.params)")


def pycore_view(name, **changes):
    """pycore's view for the widget's defaults with some parameters changed."""
    params = {k: spec["default"] for k, spec in module(name).PARAMS.items()}
    params.update(changes)
    return compute(name, params)


def updates(root):
    return int(root.get_attribute("data-updates") or 0)


def after_update(root, act):
    """Do act() (type, click) and wait until the widget has drawn the view it asked for."""
    before = updates(root)
    act()
    # ...and any late part it left for later (pycore/view_parts.py LATE)
    root.page.wait_for_function("([r, n]) => Number(r.dataset.updates || 0) > n "
                                "&& !('later' in r.dataset)", arg=[root.element_handle(), before])


def page_names(site):
    """Every page a reader opens (index and chapters) plus two embed pages, one of a widget and
    one of a chapter: the other embed pages repeat those markups (tests/browser/test_embed.py
    covers embedding itself), and booting Pyodide on each of them would only cost time.
    Not print.html: the whole book for paper, its figures static for good (tests/test_downloads.py)."""
    names = sorted(p.name for p in site.glob("*.html") if p.name != "print.html")
    pages = [n for n in names if not n.startswith("embed-")]
    embeds = [n for n in names if n.startswith("embed-")]
    chapters = {n[len("embed-"):] for n in embeds} & set(pages)
    return pages + [n for n in embeds if n[len("embed-"):] not in chapters][:1] \
        + [n for n in embeds if n[len("embed-"):] in chapters and "data-widget" in
           (site / n).read_text(encoding="utf-8")][:1]


# The rules of axe's colour category that it runs by default (its AAA contrast rule is off by
# default): what a theme that changes only colours can change (book.css's dark theme sets
# custom properties and color-scheme, nothing else).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def run_axe(page, source, rules=None):
    """Load axe through the DevTools protocol (page.evaluate is not subject to the page's CSP,
    which stays enforced for the page itself), then run it: every rule it runs by default, or
    only `rules` (their ids)."""
    page.evaluate(source + "\n;true")
    return page.evaluate("""(rules) => axe.run(document, {resultTypes: ['violations'],
            ...(rules ? {runOnly: {type: 'rule', values: rules}} : {})})
        .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))""", rules)


def drawn_attributes(root, skip=None):
    """[(attribute, path, value on the page)] for every data-attr binding inside root (but
    those inside an element matching `skip`, as shown_numbers)."""
    return root.evaluate("""(root, skip) => {
        const out = [];
        root.querySelectorAll('[data-attr]').forEach(el => {
            if (skip && el.parentElement?.closest(skip)) return;
            for (const pair of el.dataset.attr.split(/\\s+/).filter(Boolean)) {
                const [name, path] = pair.split('=');
                out.push([name, path, el.hasAttribute(name) ? el.getAttribute(name) : null]);
            }
        });
        return out;
    }""", skip)


def assert_drawn(root, view, *, min_count=1, skip=None):
    """The picture is pycore's: every bound attribute (a bar's y and height, a cell's colour
    class, a curve's path and width) holds the view's value (pycore/figure.py)."""
    drawn = drawn_attributes(root, skip)
    assert len(drawn) >= min_count, f"expected at least {min_count} drawn attributes, found {len(drawn)}"
    for name, path, shown in drawn:
        expected = lookup(view, path)
        if isinstance(expected, bool):
            assert (shown is not None) == expected, f"{name}={path}: page {shown!r}, pycore {expected}"
        elif isinstance(expected, (int, float)):
            assert shown is not None and abs(float(shown) - expected) <= 1e-6 * max(1, abs(expected)), \
                f"{name}={path}: page {shown!r}, pycore {expected!r}"
        else:
            assert shown == str(expected), f"{name}={path}: page {shown!r}, pycore {expected!r}"
    return len(drawn)


def heat_cells(root, svg="svg.heat"):
    """[(data-tokens or None, colour class (an int) or "masked")] per pointing cell, in the
    page's order (the view's), for a heatmap drawn as one path per class
    (figure.heatmap(paths=True), _marks.html heatmap): each square of the paths
    is matched with the cell at the same place. Every cell must be drawn by exactly one
    square, of the cell's size."""
    drawn = root.evaluate("""(root, svg) => {
        const fig = root.querySelector(svg);
        const cells = [...fig.querySelectorAll('rect.cell.hit')];
        const at = new Map(cells.map((c, k) =>
            [`${c.getAttribute('x')} ${c.getAttribute('y')} ${c.getAttribute('width')}`, k]));
        const out = cells.map(() => null), errors = [];
        for (const p of fig.querySelectorAll('path.cells')) {
            const cls = p.hasAttribute('data-masked') ? 'masked'
                : Number(p.dataset.seq ?? p.dataset.div);
            for (const sq of (p.getAttribute('d') || '').split('M').slice(1)) {
                const [, x, y, side] = sq.match(/^(\\S+) (\\S+)h(\\S+)v/);
                const k = at.get(`${x} ${y} ${side}`);
                if (k === undefined) errors.push(`not a cell: M${sq}`);
                else if (out[k] !== null) errors.push(`twice: M${sq}`);
                else out[k] = cls;
            }
        }
        return { out: cells.map((c, k) => [c.dataset.tokens ?? null, out[k]]), errors };
    }""", svg)
    assert not drawn["errors"], f"squares that are not one cell each: {drawn['errors'][:3]}"
    missing = [k for k, (_, cls) in enumerate(drawn["out"]) if cls is None]
    assert not missing, f"cells not drawn: {missing[:5]}"
    return [tuple(x) for x in drawn["out"]]


def assert_heat(root, heat, *, svg="svg.heat"):
    """The heatmap's colours are pycore's: every cell of the view's heatmap() is drawn with its
    class, or as masked (heat_cells reads the page)."""
    shown = heat_cells(root, svg)
    assert [cls for _, cls in shown] == \
        ["masked" if c["masked"] else c["c"] for c in heat["cells"]]
    return shown


# Recording a page's requests (tests of a press that asks ahead): the page's runtime
# (assets/runtime.js), as `runtime`.
RUNTIME = """
    const base = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
    const { bootRuntime } = await import(new URL('assets/runtime.js', base).href);
    const runtime = await bootRuntime();"""
# Every request the page's runtime sends, kept in window.__asked (restored by STOP): its
# parameters, the keys of the parts the page held and, once answered, the parts that came
# (pycore/view_parts.py).
RECORD = "async () => {" + RUNTIME + """
    window.__asked = [];
    window.__compute = runtime.compute;
    runtime.compute = function (name, params, texts, held = {}) {
        const asked = { name, params: structuredClone(params), held: { ...held }, came: null };
        window.__asked.push(asked);
        const view = window.__compute.call(this, name, params, texts, held);
        view.then((v) => { asked.came = Object.keys(v["$parts"] ?? {}).sort(); }, () => {});
        return view;
    };
}"""
STOP = "async () => {" + RUNTIME + "\n    runtime.compute = window.__compute;\n}"
# a main-button mouse press, for dispatch_event("pointerdown", PRESS)
PRESS = {"button": 0, "buttons": 1, "pointerType": "mouse", "pointerId": 1, "isPrimary": True}


def parts_came(root, move):
    """The parts of the view (pycore/view_parts.py) each request of the widget on root
    brought while `move()` ran, as sorted lists of part names: a move of one control brings
    the parts that read it and no other."""
    page, name = root.page, root.get_attribute("data-widget")
    page.evaluate(RECORD)
    try:
        move()
        page.wait_for_function("() => window.__asked.every((a) => a.came !== null) "
                               "&& !document.querySelector('[data-later]')")
        return [a["came"] for a in page.evaluate("() => window.__asked") if a["name"] == name]
    finally:
        page.evaluate(STOP)


# A reader's asyncio.run(): every call into the book's Python is synchronous, so no event loop
# runs to its end in it; Pyodide's stack switching (JSPI: Chromium has it, Safari has not) stays
# off, and every engine gives Python's own refusal (test_engines.py, test_reader_code.py).
ASYNC = "import asyncio\n\nasync def f():\n    return 42\n\nprint(asyncio.run(f()))\n"
ASYNC_REFUSED = "asyncio.run() cannot be called from a running event loop"
