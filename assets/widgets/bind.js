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
  return path.split(".").reduce((v, key) => v?.[key], view);
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

// data-attr parsed once per element: [[attribute, path], ...]
const attrLists = new WeakMap();
function attrsOf(el) {
  let list = attrLists.get(el);
  if (!list) {
    list = el.dataset.attr.split(/\s+/).filter(Boolean).map((pair) => pair.split("="));
    attrLists.set(el, list);
  }
  return list;
}

// Write every bound text, attribute and matrix cell of root from a view.
export function bindAll(root, view) {
  root.querySelectorAll("[data-bind]").forEach((el) => {
    const value = lookup(view, el.dataset.bind);
    if (value === undefined) return;
    setText(el, typeof value === "string" ? value : fmt(value, Number(el.dataset.digits)));
  });
  root.querySelectorAll("[data-sci]").forEach((el) => {
    const value = lookup(view, el.dataset.sci);
    if (value !== undefined) setText(el, sci(value));
  });
  root.querySelectorAll("[data-attr]").forEach((el) => {
    for (const [name, path] of attrsOf(el)) {
      const value = lookup(view, path);
      if (value !== undefined) setAttr(el, name, value);
    }
  });
  root.querySelectorAll("table[data-matrix]").forEach((table) => {
    const m = lookup(view, table.dataset.matrix);
    if (!m) return;
    const digits = Number(table.dataset.digits);
    const shaded = table.hasAttribute("data-shaded");
    table.querySelectorAll("tbody tr").forEach((tr, i) => {
      tr.querySelectorAll("td").forEach((td, j) => {
        const v = m[i][j];
        setText(td, fmt(v, digits));
        const title = fmt(v, 4);
        if (td.title !== title) td.title = title;
        if (shaded && td.className !== shadeClass(v)) td.className = shadeClass(v);
      });
    });
  });
}
