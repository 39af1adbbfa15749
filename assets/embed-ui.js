// The "嵌入" buttons of a chapter page (one per widget, from the frame macro, and one for the
// chapter, from page.html): each opens the page's <dialog> with an HTML snippet that another
// site pastes to show that widget or chapter. The snippet is an <iframe> on the embed page
// (embed-<id>.html, templates/embed.html) plus a small script for the host page: the embed
// page posts its height (assets/embed.js) and the script resizes the iframe, after checking
// that the message comes from that very iframe and from the book's origin.

import { flushUrlState } from "./widgets/common.js";

const MESSAGE = "tbook-embed-height";  // assets/embed.js posts {type: MESSAGE, id, height}
const HEIGHT = { widget: 520, chapter: 900 };  // the iframe's height until the first message

const siteRoot = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);

function escapeAttr(text) {
  return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;")
    .replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// The embed page's absolute URL, computed where the book is hosted now. It keeps the URL
// state (?<widget id>=JSON, see widgets/common.js) of the widgets it shows, so a reader who
// set a widget up embeds it as they see it.
export function embedUrl(id, widgetIds, search = location.search) {
  const url = new URL(`embed-${id}.html`, siteRoot);
  const here = new URLSearchParams(search);
  widgetIds.forEach((wid) => { if (here.has(wid)) url.searchParams.set(wid, here.get(wid)); });
  return url.href;
}

// The snippet a blog pastes: the iframe, then the script that sizes it. The script finds its
// iframe as the element just before it and takes the expected origin from the iframe's src.
export function snippet(src, title, height) {
  return [
    `<iframe src="${escapeAttr(src)}" title="${escapeAttr(title)}" loading="lazy" width="100%" ` +
      `height="${height}" style="border:0"></iframe>`,
    "<script>",
    "(function (frame) {",
    "  var origin = new URL(frame.src).origin;",
    '  addEventListener("message", function (event) {',
    "    var data = event.data;",
    "    if (event.origin !== origin || event.source !== frame.contentWindow) return;",
    `    if (data && data.type === "${MESSAGE}" && data.height > 0) {`,
    '      frame.style.height = Math.ceil(data.height) + "px";',
    "    }",
    "  });",
    "})(document.currentScript.previousElementSibling);",
    "</script>",
  ].join("\n");
}

// What a button embeds: the embed page's id, the widgets it shows, the iframe's title.
function target(button, container, bookTitle) {
  if (button.dataset.embedKind === "chapter") {
    const ids = [...container.querySelectorAll("[data-widget]")].map((root) => root.id);
    return { id: button.dataset.embed, kind: "chapter", widgetIds: ids,
             title: `《${bookTitle}》${button.dataset.embedTitle}`,
             what: `本节「${button.dataset.embedTitle}」，连同其中的小部件` };
  }
  const root = button.closest("[data-widget]");
  const name = root.getAttribute("aria-label") || root.dataset.widget;
  return { id: button.dataset.embed, kind: "widget", widgetIds: [root.id],
           title: `《${bookTitle}》小部件：${name}`, what: `小部件「${name}」（当前的设置会一起带上）` };
}

// The buttons and the dialog inside `container` (the page's <main>).
function wire(container) {
  const dialog = container.querySelector("#tbook-embed");
  if (!dialog) return;
  const code = dialog.querySelector("textarea");
  const status = dialog.querySelector("[role=status]");
  let opener = null;

  function open(button) {
    const t = target(button, container, dialog.dataset.bookTitle);
    opener = button;
    dialog.querySelector(".embed-what").textContent = `嵌入的是${t.what}。`;
    flushUrlState();  // the snippet carries the widgets' settings as the reader sees them
    code.value = snippet(embedUrl(t.id, t.widgetIds), t.title, HEIGHT[t.kind]);
    status.textContent = "";
    dialog.showModal();
    code.focus();
    code.select();
    code.scrollTop = 0;
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = "已复制到剪贴板。";
    } catch (unavailable) {  // no clipboard API here (plain http, or permission refused)
      code.focus();
      code.select();
      status.textContent = "代码已全部选中，请按 Ctrl+C（Mac 上按 ⌘C）复制。";
    }
  }

  container.querySelectorAll("button[data-embed]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => open(button));
  });
  dialog.querySelector("[data-embed-copy]").addEventListener("click", copy);
  dialog.querySelector("[data-embed-close]").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => { opener?.focus(); opener = null; });
}

wire(document);
// navigate.js swaps in the next chapter's <main> (with its own buttons and dialog) in place
document.addEventListener("tbook:page", (event) => wire(event.detail.main));
