// Moving between chapters without reloading the page: the Python runtime stays booted, so the
// next chapter's widgets go live at once (no second boot of Pyodide). A link to another page
// of the book fetches that page, swaps in its <main> and title, and announces a new page;
// anything unusual (another origin, a modified click, an embed page, a page of another
// build, a failed fetch) falls back to an ordinary navigation.

import { flushUrlState } from "./widgets/common.js";

let shownPath = location.pathname;  // the page whose <main> is on screen

// The build a page belongs to (its modules, styles and pycore): a page moves in place only to
// a page of the same build, so new markup never meets the modules of an older build.
const buildOf = (doc) => doc.querySelector('meta[name="tbook-build"]')?.content;

function isBookPage(url) {
  return url.origin === location.origin && url.pathname.endsWith(".html")
    && !url.pathname.split("/").pop().startsWith("embed-");
}

function markCurrent(url) {
  document.querySelectorAll("#toc-chapters a").forEach((a) => {
    if (new URL(a.href).pathname === url.pathname) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
}

// The element a URL's #fragment names; none for a malformed one (#%E0%A4%A).
function fragmentTarget(hash) {
  if (!hash) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch (malformed) {
    return null;
  }
}

function scrollTo(url) {
  const target = fragmentTarget(url.hash);
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

// The parts of a page outside <main> that belong to its chapter: its sections' rail, its
// description. Swapped with <main>.
function swapChapterParts(doc) {
  const rail = doc.querySelector(".page-toc.rail");
  document.querySelector(".page-toc.rail")?.remove();
  if (rail) document.querySelector("main").after(document.adoptNode(rail));
  const description = doc.querySelector('meta[name="description"]')?.content;
  const mine = document.querySelector('meta[name="description"]');
  if (mine && description !== undefined) mine.content = description;
}

async function go(url, onPage, { push, refresh = false, scrollY = null }) {
  flushUrlState();  // the widgets' pending URL state belongs to the page being left
  // Back must return here, not to the top: the position goes with this history entry.
  if (push) history.replaceState({ ...history.state, scrollY: window.scrollY }, "");
  let doc;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    doc = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch (failed) {
    location.assign(url);
    return;
  }
  const main = doc.querySelector("main");
  if (!main || buildOf(doc) !== buildOf(document)) {
    location.assign(url);
    return;
  }
  document.querySelector("main").replaceWith(document.adoptNode(main));
  swapChapterParts(doc);
  document.title = doc.title;
  if (push) history.pushState(null, "", url);
  shownPath = url.pathname;
  markCurrent(url);
  onPage(main);
  document.dispatchEvent(new CustomEvent("tbook:page", { detail: { main } }));
  // Scrolled only now: wiring the page shows its widgets' 嵌入 and notebook buttons, which
  // can give a caption a second line; a position restored before would land short of it.
  if (!refresh) {  // a new page: at its top, its anchor or where the reader left it
    if (scrollY !== null) window.scrollTo(0, scrollY);
    else scrollTo(url);
    const heading = main.querySelector("h1");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }
}

export function enableNavigation(onPage) {
  document.documentElement.dataset.navigation = "on";
  // the preview server's "refresh": the same page, rebuilt, keeping the scroll position
  document.addEventListener("tbook:refresh", () => {
    go(new URL(location.href), onPage, { push: false, refresh: true });
  });
  document.addEventListener("click", (event) => {
    const a = event.target.closest("a[href]");
    if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
        || event.shiftKey || event.altKey || (a.target && a.target !== "_self")
        || a.hasAttribute("download")) return;
    const url = new URL(a.href, location.href);
    if (!isBookPage(url) || url.pathname === location.pathname) return;  // same page: anchors
    event.preventDefault();
    go(url, onPage, { push: true });
  });
  addEventListener("popstate", (event) => {
    const url = new URL(location.href);
    if (url.pathname !== shownPath) {  // not a mere #anchor
      go(url, onPage, { push: false, scrollY: event.state?.scrollY ?? null });
    }
  });
  // Leaving for another page altogether (a reload, another site): keep the position too.
  addEventListener("pagehide", () => {
    history.replaceState({ ...history.state, scrollY: window.scrollY }, "");
  });
}
