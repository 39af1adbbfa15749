// The "在 Jupyter 中打开" button of every widget (the frame macro) and the chapter's
// "下载本节的 Jupyter notebook" link (page.html): each downloads a Jupyter notebook with the
// numbers the reader sees. The build writes the notebooks for the blocks' parameters
// (site/notebooks/<widget id or chapter>.ipynb, bookbuild/renderers/notebooks.py); the page fetches one,
// writes each widget's current parameters (with the reader's edited running example, for a
// widget over it: common.js currentParams) into its params cell and, where the book is served
// over HTTP, the pycore wheel's address here into the install cell and a link to the widget
// into its heading, and saves it from a Blob. Nothing leaves the browser; the cells to
// rewrite say so in their metadata.

import { currentParams, flushUrlState } from "./widgets/common.js";

const siteRoot = new URL(document.querySelector('meta[name="tbook-root"]').content,
                         document.baseURI);

// A parameter value as Python source, as bookbuild/renderers/notebooks.py py_literal writes it.
export function pyLiteral(value) {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a parameter value: ${value}`);
    return String(value);  // 1e+21 and 0.001 are Python literals too
  }
  if (typeof value === "string") return JSON.stringify(value);
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`)
    .join(", ")}}`;
}

function lines(text) {  // nbformat's source: lines that keep their "\n"
  return text.split(/(?<=\n)/);
}

// The host's address goes into the notebook as it is, and a path may hold what a shell or
// Markdown reads specially ($ ( ) ; ' are left as they are in a URL): %pip hands its line to a
// shell, so the address is one quoted argument (as bookbuild/renderers/notebooks.py writes it, with
// Python's shlex.quote), and a link's parentheses are %28 %29, which cannot end it early.
function shellQuote(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'"'"'`)}'`;
}

function encodeParen(c) {
  return c === "(" ? "%28" : "%29";
}

// The template notebook with each widget's parameters (paramsOf(widget id), or undefined to
// keep the block's), and where the book is served over HTTP, the wheel's address and links
// to the widgets on this host.
export function fillNotebook(nb, paramsOf, base = siteRoot) {
  const out = structuredClone(nb);
  const params = {};
  for (const cell of out.cells) {
    const meta = cell.metadata?.tbook ?? {};
    if (meta.role === "params") {
      params[meta.widget] = paramsOf(meta.widget);
      if (params[meta.widget] === undefined) delete params[meta.widget];
      else cell.source = lines(`params = ${pyLiteral(params[meta.widget])}`);
    }
    if (!/^https?:$/.test(base.protocol)) continue;  // file://: keep the local instructions
    if (meta.role === "install") {
      cell.source = lines(`%pip install ${shellQuote(new URL(meta.wheel, base).href)}`);
    }
    if (meta.role === "about") {
      const link = `[书中的这一处](${new URL(meta.page, base).href.replace(/[()]/g, encodeParen)})`;
      cell.source = lines([].concat(cell.source).join("").replace(meta.where, link));
    }
  }
  out.metadata.tbook = { params };  // by widget id: what the reader had set
  return out;
}

// The parameters on screen of the widget with this id in `container`, if it is there.
function paramsIn(container) {
  return (id) => {
    const selector = `[data-widget][id="${CSS.escape(id)}"]`;
    const root = container.matches?.(selector) ? container : container.querySelector(selector);
    return root ? currentParams(root) : undefined;
  };
}

async function download(control, href, filename, container) {
  flushUrlState();
  const label = control.textContent;
  control.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(new URL(href, siteRoot), { cache: "no-cache" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const nb = fillNotebook(await response.json(), paramsIn(container));
    const blob = new Blob([JSON.stringify(nb, null, 1) + "\n"],
                          { type: "application/x-ipynb+json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);  // once the download has begun
  } catch (failed) {  // offline, and the notebook is not kept for offline reading
    console.warn(`${filename} could not be fetched:`, failed);
    control.textContent = "下载失败（需要联网）";
    setTimeout(() => { control.textContent = label; }, 4000);
  } finally {
    control.removeAttribute("aria-busy");
  }
}

function wire(container) {
  container.querySelectorAll("button[data-notebook]").forEach((button) => {
    const root = button.closest("[data-widget]");
    button.hidden = false;
    button.addEventListener("click", () =>
      download(button, button.dataset.notebook, `${root.id}.ipynb`, root));
  });
  // without this script the link still downloads the notebook at the blocks' parameters
  container.querySelectorAll("a.notebook-link").forEach((link) => {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      download(link, link.getAttribute("href"), link.getAttribute("href").split("/").pop(),
               container);
    });
  });
}

wire(document);
// navigate.js swaps in the next chapter's <main> (with its own widgets) in place
document.addEventListener("tbook:page", (event) => wire(event.detail.main));
