// Reading aids that need a script (the layout never does: it is final before this runs).
// - 本节目录: the section being read is marked (aria-current="location") as the reader scrolls.
// - Keyboard shortcuts, as in mdBook: ← and → go to the previous and next chapter, ? shows
//   the list (the dialog #tbook-keys); / (search.js) jumps to the search box. Never while the
//   reader types, holds a modifier, or works a widget (whose arrow keys are its own).

const TYPING = "input, textarea, select, [contenteditable], [role=radiogroup], [role=spinbutton], " +
  "[role=slider], [role=listbox], [data-roving], .widget";

function markCurrentSection() {
  const links = [...document.querySelectorAll(".page-toc a[href^='#']")];
  if (!links.length || !("IntersectionObserver" in window)) return () => {};
  const byId = new Map();
  links.forEach((a) => {
    let id;
    try { id = decodeURIComponent(a.hash.slice(1)); } catch (malformed) { return; }
    const heading = document.getElementById(id);
    if (heading) byId.set(heading, id);
  });
  const show = () => {
    const headings = [...byId.keys()];
    // the last heading above the middle of the screen is the section being read
    const above = headings.filter((h) => h.getBoundingClientRect().top < innerHeight * 0.4);
    const current = above.length ? byId.get(above[above.length - 1]) : null;
    links.forEach((a) => {
      let id = null;
      try { id = decodeURIComponent(a.hash.slice(1)); } catch (malformed) { /* skip */ }
      if (id === current) a.setAttribute("aria-current", "location");
      else a.removeAttribute("aria-current");
    });
  };
  const observer = new IntersectionObserver(show, { rootMargin: "0px 0px -60% 0px" });
  byId.forEach((_, heading) => observer.observe(heading));
  addEventListener("scroll", show, { passive: true });
  // no show() now: measuring the headings while the page's modules load would force the whole
  // chapter's first layout inside that task; the observer's first report comes once the
  // browser has laid the page out anyway
  return () => { observer.disconnect(); removeEventListener("scroll", show); };
}

function shortcuts() {
  const dialog = document.getElementById("tbook-keys");
  const openKeys = () => { if (dialog && !dialog.open) dialog.showModal(); };
  document.querySelector("[data-action=keys]")?.addEventListener("click", openKeys);
  dialog?.querySelector("[data-action=keys-close]")?.addEventListener("click", () => dialog.close());
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.(TYPING) || dialog?.open) return;
    const go = (rel) => document.querySelector(`.pager a[rel=${rel}]`)?.click();
    if (event.key === "ArrowLeft") go("prev");
    else if (event.key === "ArrowRight") go("next");
    else if (event.key === "?") openKeys();
    else return;
    event.preventDefault();
  });
}

let unmark = () => {};
// A region that scrolls sideways (a wide formula or table on a phone, a widget's 数值 opened)
// is one Tab stop while it scrolls, so that a keyboard reader can scroll it with the arrow
// keys; one that fits is no stop at all. Watched for its size: a fold that opens, a window
// that turns. (The regions with overflow-x: auto of book.css and figures.css.)
const SCROLLERS = ".display-formula, .formula, .chapter > table, .scroll, .ex-main";
// Every region is measured before any is marked: a mark changes an attribute, and a
// measurement after it would lay the page out again (once per region, as the chapter's first
// report holds dozens of them). A region not drawn (in a closed 数值 fold: its box is empty) is
// not measured: that would lay out the fold's tables, a third of a chapter's elements, for
// nothing; it is reported again when the fold opens.
const scrollStops = new ResizeObserver((entries) => {
  const measured = entries.map(({ target: el, contentRect: box }) =>
    [el, box.width > 0 && el.scrollWidth > el.clientWidth + 1]);
  for (const [el, scrolls] of measured) {
    if (scrolls && !el.hasAttribute("tabindex")) {
      el.tabIndex = 0;
      el.dataset.scrollStop = "";
    } else if (!scrolls && "scrollStop" in el.dataset) {
      el.removeAttribute("tabindex");
      delete el.dataset.scrollStop;
    }
  }
});

function watchScrollers() {
  scrollStops.disconnect();
  document.querySelectorAll(SCROLLERS).forEach((el) => scrollStops.observe(el));
}

export function enableReading() {
  shortcuts();
  unmark = markCurrentSection();
  watchScrollers();
  document.addEventListener("tbook:page", () => {
    unmark();
    unmark = markCurrentSection();
    watchScrollers();
  });
}
