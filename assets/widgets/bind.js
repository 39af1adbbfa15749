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

// Write only what changed: an unchanged cell costs no style recalculation or layout.
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function setAttr(el, name, value) {
  if (value === false || value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const text = value === true ? "" : String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

// Each bound element's data-* read and its paths split once, not at every update (a widget
// binds hundreds of elements, and every update walks them all): one map per kind of binding
// (an element may carry several, data-bind and data-attr say), element -> its binding.
function cached(make) {
  const made = new WeakMap();
  return (el) => {
    let b = made.get(el);
    if (!b) {
      b = make(el.dataset);
      made.set(el, b);
    }
    return b;
  };
}
const textBinding = cached((d) => ({ keys: d.bind.split("."), digits: Number(d.digits) }));
const sciBinding = cached((d) => d.sci.split("."));
const attrBinding = cached((d) => d.attr.split(/\s+/).filter(Boolean).map((pair) => {
  const [name, path] = pair.split("=");
  return [name, path.split(".")];
}));
const matrixBinding = cached((d) => ({ keys: d.matrix.split("."), digits: Number(d.digits),
                                       shaded: "shaded" in d }));

// Write every bound text, attribute and matrix cell of root from a view.
export function bindAll(root, view) {
  for (const el of root.querySelectorAll("[data-bind]")) {
    const { keys, digits } = textBinding(el);
    const value = at(view, keys);
    if (value === undefined) continue;
    setText(el, typeof value === "string" ? value : fmt(value, digits));
  }
  for (const el of root.querySelectorAll("[data-sci]")) {
    const value = at(view, sciBinding(el));
    if (value !== undefined) setText(el, sci(value));
  }
  for (const el of root.querySelectorAll("[data-attr]")) {
    for (const [name, keys] of attrBinding(el)) {
      const value = at(view, keys);
      if (value !== undefined) setAttr(el, name, value);
    }
  }
  for (const table of root.querySelectorAll("table[data-matrix]")) {
    const { keys, digits, shaded } = matrixBinding(table);
    const m = at(view, keys);
    if (!m) continue;
    const rows = table.tBodies[0]?.rows ?? [];
    for (let i = 0; i < rows.length; i++) {
      const tds = rows[i].getElementsByTagName("td");
      for (let j = 0; j < tds.length; j++) {
        const td = tds[j], v = m[i][j];
        setText(td, fmt(v, digits));
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
