// Binding a view (pycore's numbers and geometry) into a widget's DOM: the DOM contract of
// docs/widgets.md. Nothing here computes: every value comes from the view, at a path.
//   data-bind="path" [data-digits=d]   the element's text (a number formatted to d digits)
//   data-sci="path"                   the text in e-notation (tiny check numbers)
//   data-attr="name=path name=path"   attributes: SVG geometry (x, y, width, height, d, ...),
//                                     colour classes (data-seq, data-div), readouts (data-say);
//                                     true/false set or remove the attribute
//   table[data-matrix="path"]         one td per entry, row-major

// The book's one number format; bookbuild/render.py num() and pycore/figure.py fmt() match it.
export function fmt(value, digits) {
  return Number(value).toFixed(digits);
}

// e-notation as Python's "%.2e" prints it (1.17e-15, 0.00e+00): for tiny check numbers whose
// last digits differ between CPython and Pyodide (data-sci="path"; tests check their size).
export function sci(x) {
  const [mantissa, exponent] = Number(x).toExponential(2).split("e");
  const e = Number(exponent);
  return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

export function lookup(view, path) {
  return at(view, path.split("."));
}

function at(view, keys) {
  let v = view;
  for (const key of keys) v = v?.[key];
  return v;
}

const shadeClass = (v) => `s${Math.min(9, Math.max(0, Math.round(v * 9)))}`;

const UNSEEN = Symbol("unseen");  // nothing written yet: the page shows the build's value

// Write only what changed: an unchanged text or attribute costs no style recalculation or
// layout. Before a binding's first write the element shows the build's text: read once from
// the DOM, never after (see the bindings below).
function setText(el, b, text) {
  if (text === b.text) return;
  if (b.text !== UNSEEN || el.textContent !== text) el.textContent = text;
  b.text = text;
}

// An attribute's text for a value: true sets it empty, false and null remove it (null).
const attrText = (value) => value === true ? "" : value === false || value === null ? null
  : String(value);

function setAttr(el, b, text) {
  if (text === b.text) return;
  if (b.text !== UNSEEN || el.getAttribute(b.name) !== text) {
    if (text === null) el.removeAttribute(b.name);
    else el.setAttribute(b.name, text);
  }
  b.text = text;
}

// Each bound element's data-* read and its paths split once, not at every update (a widget
// binds hundreds of elements). A binding also keeps the value it last wrote and its text
// (`value`, `text`): a view's unchanged value then costs a comparison, not a formatting and a
// read of the DOM (textContent, getAttribute). Most of an update's values are unchanged, and
// reading them back was most of a quiet update's time (the trained model's 1,300 bound
// elements, given the view they show: 3.2 ms, 0.6-0.9 ms with the values kept). So an
// element's bound text or attribute is written by bindAll only (docs/widgets.md). The
// bindings are kept per element: an element inside two roots that are bound (a widget and a
// part its JS rebinds) shares what it last wrote.
function cached(make) {  // el -> make(el), made once per element
  const made = new WeakMap();
  return (el) => {
    let b = made.get(el);
    if (!b) {
      b = make(el);
      made.set(el, b);
    }
    return b;
  };
}

const bindingsOf = cached((el) => {
  const d = el.dataset;
  const made = [];
  if (d.bind) made.push({ el, kind: "text", keys: d.bind.split("."), digits: Number(d.digits) });
  if (d.sci) made.push({ el, kind: "sci", keys: d.sci.split(".") });
  for (const pair of (d.attr ?? "").split(/\s+/).filter(Boolean)) {
    const [name, path] = pair.split("=");
    made.push({ el, kind: "attr", name, keys: path.split(".") });
  }
  return made.map((b) => ({ ...b, value: UNSEEN, text: UNSEEN }));
});

// A root's bindings as a tree of their paths (a node: the bindings whose path ends there, and
// the next key -> node), found once: a template draws every mark a view can bind, so a
// widget's bound elements stay the same (a widget's JS that adds some binds their container
// itself, as vit-patches does). An update walks the tree along its view, and a part the view
// leaves out (pycore sends only what changed) is not visited at all: the trained model's
// 1,213 bindings cost 0.5-0.6 ms to visit one by one for a view that brings none of them,
// 0.02-0.03 ms as a tree (benchmarks/bind_cost.py).
const node = () => ({ bound: [], next: new Map() });

const treeOf = cached((root) => {
  const tree = node();
  for (const el of root.querySelectorAll("[data-bind], [data-sci], [data-attr]")) {
    for (const b of bindingsOf(el)) {
      let here = tree;
      for (const key of b.keys) {
        if (!here.next.has(key)) here.next.set(key, node());
        here = here.next.get(key);
      }
      here.bound.push(b);
    }
  }
  return tree;
});

function write(b, value) {
  if (value === b.value) return;
  b.value = value;
  if (b.kind === "attr") setAttr(b.el, b, attrText(value));
  else if (b.kind === "sci") setText(b.el, b, sci(value));
  else setText(b.el, b, typeof value === "string" ? value : fmt(value, b.digits));
}

function bindTree(node, value) {
  for (const b of node.bound) write(b, value);
  for (const [key, next] of node.next) {
    const v = value?.[key];
    if (v !== undefined) bindTree(next, v);
  }
}

const matrixBinding = cached((table) => ({ keys: table.dataset.matrix.split("."),
                                           digits: Number(table.dataset.digits),
                                           shaded: "shaded" in table.dataset }));
const cellValues = new WeakMap();  // td -> the matrix entry it shows (its row may be rebuilt)

// Write every bound text, attribute and matrix cell of root from a view. The tables are looked
// up at every update: a widget's JS may make one (vit-patches, a table per patch size).
export function bindAll(root, view) {
  bindTree(treeOf(root), view);
  for (const table of root.querySelectorAll("table[data-matrix]")) {
    const { keys, digits, shaded } = matrixBinding(table);
    const m = at(view, keys);
    if (!m) continue;
    const rows = table.tBodies[0]?.rows ?? [];
    for (let i = 0; i < rows.length; i++) {
      const tds = rows[i].getElementsByTagName("td");
      for (let j = 0; j < tds.length; j++) {
        const td = tds[j], v = m[i][j];
        if (cellValues.get(td) === v) continue;
        cellValues.set(td, v);
        const text = fmt(v, digits);
        if (td.textContent !== text) td.textContent = text;
        const title = fmt(v, 4);
        if (td.title !== title) td.title = title;
        if (shaded) {
          const shade = shadeClass(v);
          if (td.className !== shade) td.className = shade;
        }
      }
    }
  }
}
