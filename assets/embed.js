// Runs on the embed pages (embed-*.html, templates/embed.html) that other sites show in an
// <iframe>. book.js boots the runtime and makes the widgets live exactly as in the book; this
// module only (1) tells the host page how tall the content is, whenever that changes, so the
// snippet's script can size the iframe with no inner scrollbar, and (2) opens links that lead
// away from this page in a new tab instead of inside the iframe.
// The message is {type: "tbook-embed-height", id, height}: nothing in it is private, so it is
// posted to any origin; the host's script checks where it comes from (assets/embed-ui.js).

const id = document.querySelector('meta[name="tbook-embed"]').content;
const framed = window.parent !== window;

function contentHeight() {
  return Math.ceil(document.documentElement.getBoundingClientRect().height);
}

let sent = 0;
function report(force = false) {
  const height = contentHeight();
  if (height === sent && !force) return;
  sent = height;
  window.parent.postMessage({ type: "tbook-embed-height", id, height }, "*");
}

if (framed) {
  new ResizeObserver(() => report()).observe(document.documentElement);
  addEventListener("load", () => report(true));  // fonts and images are in by then
}

// In the capture phase, so the link has its target before book.js's navigation (navigate.js)
// looks at the click: it leaves links with a target to the browser.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[href]");
  if (!link || link.target) return;
  const url = new URL(link.href, document.baseURI);
  const samePage = url.origin === location.origin && url.pathname === location.pathname;
  if (samePage && url.hash) return;  // a permalink within the embedded chapter
  link.target = "_blank";
  link.rel = "noopener";
}, true);
