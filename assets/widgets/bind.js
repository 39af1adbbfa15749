// Binding a view (pycore's numbers and geometry) into a widget's DOM: the DOM contract of
// docs/widgets.md. Nothing here computes or formats: every value comes from the view, at a
// path, and every number's text from the view's texts (below).
//   data-bind="path" [data-digits=d]   the element's text (a number written with d decimals)
//   data-sci="path"                   the text in e-notation (tiny check numbers)
//   data-attr="name=path name=path"   attributes: SVG geometry (x, y, width, height, d, ...),
//                                     colour classes (data-seq, data-div), readouts (data-say);
//                                     true/false set or remove the attribute
//   table[data-matrix="path"][data-digits=d]  one td per entry, row-major
//
// A number's text is written in Python, by the formatter that wrote the build's page
// (pycore/fmt.py), so that it reads the same before and after the runtime boots: a request
// names the texts the widget shows (textsWanted: "path:digits", "path:e" for data-sci) and the
// view brings them under TEXTS, {"path:digits": text, matrix: {text, title, shade}}.
export const TEXTS = "$text";

// The texts a root's elements show of a view (see above), for pycore.widgets.call_json: its
// bound elements' (found once, as the bindings are) and its tables' (looked up at every
// update, as bindAll does).
export function textsWanted(root) {
  const wanted = new Set(boundWants(root));
  for (const table of root.querySelectorAll("table[data-matrix]")) wanted.add(matrixBinding(table).want);
  return [...wanted];
}

const boundWants = cached((root) => {
  const wanted = new Set();
  const walk = (node) => {
    for (const b of node.bound) if (b.want) wanted.add(b.want);
    node.next.forEach(walk);
  };
  walk(treeOf(root));
  return wanted;
});

// A number without its text: the request that brought the view did not name it (textsWanted).
function untold(want) {
  throw new Error(`the view brings no text for ${want}: ask with textsWanted(root)`);
}

export function lookup(view, path) {
  return at(view, path.split("."));
}

function at(view, keys) {
  let v = view;
  for (const key of keys) v = v?.[key];
  return v;
}

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
  if (d.bind) made.push({ el, kind: "text", keys: d.bind.split("."),
                          want: d.digits === undefined ? null : `${d.bind}:${d.digits}` });
  if (d.sci) made.push({ el, kind: "text", keys: d.sci.split("."), want: `${d.sci}:e` });
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

// texts: the view's TEXTS. A string is shown as it is; a number by its text.
function write(b, value, texts) {
  if (value === b.value) return;
  b.value = value;
  if (b.kind === "attr") setAttr(b.el, b, attrText(value));
  else setText(b.el, b, typeof value === "string" ? value : texts?.[b.want] ?? untold(b.want));
}

function bindTree(node, value, texts) {
  for (const b of node.bound) write(b, value, texts);
  for (const [key, next] of node.next) {
    const v = value?.[key];
    if (v !== undefined) bindTree(next, v, texts);
  }
}

const matrixBinding = cached((table) => ({ keys: table.dataset.matrix.split("."),
                                           want: `${table.dataset.matrix}:${table.dataset.digits}`,
                                           shaded: "shaded" in table.dataset }));
const cellValues = new WeakMap();  // td -> the matrix entry it shows (its row may be rebuilt)

// Write every bound text, attribute and matrix cell of root from a view. The tables are looked
// up at every update: a widget's JS may make one (vit-patches, a table per patch size).
export function bindAll(root, view) {
  const texts = view?.[TEXTS];
  bindTree(treeOf(root), view, texts);
  for (const table of root.querySelectorAll("table[data-matrix]")) {
    const { keys, want, shaded } = matrixBinding(table);
    const m = at(view, keys);
    if (!m) continue;
    const told = texts?.[want] ?? untold(want);
    const rows = table.tBodies[0]?.rows ?? [];
    for (let i = 0; i < rows.length; i++) {
      const tds = rows[i].getElementsByTagName("td");
      for (let j = 0; j < tds.length; j++) {
        const td = tds[j], v = m[i][j];
        if (cellValues.get(td) === v) continue;
        cellValues.set(td, v);
        const text = told.text[i][j];
        if (td.textContent !== text) td.textContent = text;
        const title = told.title[i][j];
        if (td.title !== title) td.title = title;
        if (shaded) {
          const shade = told.shade[i][j];
          if (td.className !== shade) td.className = shade;
        }
      }
    }
  }
}
