// The "在 Jupyter 中打开" button of every widget (the frame macro): it downloads the widget's
// Jupyter notebook with the numbers the reader sees. The build writes the notebook for the
// block's parameters (site/notebooks/<id>.ipynb, bookbuild/notebooks.py); the page fetches
// it, writes the widget's current parameters into its params cell and, where the book is
// served over HTTP, the pycore wheel's address here into its install cell, and saves it from
// a Blob. Nothing leaves the browser; the cells to rewrite say so in their metadata.

import { currentParams, flushUrlState } from "./widgets/common.js";

const siteRoot = new URL(document.querySelector('meta[name="tbook-root"]').content,
                         document.baseURI);

// A parameter value as Python source, as bookbuild/notebooks.py py_literal writes it.
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

// The template notebook with these parameters, and where the book is served over HTTP, the
// wheel's address and a link to the widget on this host.
export function fillNotebook(nb, params, base = siteRoot) {
  const out = structuredClone(nb);
  for (const cell of out.cells) {
    const role = cell.metadata?.tbook?.role;
    if (role === "params") cell.source = lines(`params = ${pyLiteral(params)}`);
    if (!/^https?:$/.test(base.protocol)) continue;  // file://: keep the local instructions
    const meta = cell.metadata.tbook;
    if (role === "install") cell.source = lines(`%pip install ${new URL(meta.wheel, base).href}`);
    if (role === "about") {
      const text = [].concat(cell.source).join("").replace(meta.where,
                                                `[书中的这一处](${new URL(meta.page, base).href})`);
      cell.source = lines(text);
    }
  }
  out.metadata.tbook = { params };
  return out;
}

async function download(button) {
  const root = button.closest("[data-widget]");
  flushUrlState();
  const label = button.textContent;
  button.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(new URL(button.dataset.notebook, siteRoot), { cache: "no-cache" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const nb = fillNotebook(await response.json(), currentParams(root));
    const blob = new Blob([JSON.stringify(nb, null, 1) + "\n"],
                          { type: "application/x-ipynb+json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `${root.id}.ipynb`;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);  // once the download has begun
  } catch (failed) {  // offline, and the notebook is not kept for offline reading
    console.warn(`${root.id}: the notebook could not be fetched:`, failed);
    button.textContent = "下载失败（需要联网）";
    setTimeout(() => { button.textContent = label; }, 4000);
  } finally {
    button.removeAttribute("aria-busy");
  }
}

function wire(container) {
  container.querySelectorAll("button[data-notebook]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => download(button));
  });
}

wire(document);
// navigate.js swaps in the next chapter's <main> (with its own widgets) in place
document.addEventListener("tbook:page", (event) => wire(event.detail.main));
