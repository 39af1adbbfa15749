// Cards that preview what a link leads to, on hover with a mouse and on keyboard focus (never
// on touch: a tap follows the link): a citation (its entry in the chapter's reference list),
// a cross-reference (the formula, figure or section), a glossary term (its definition, in
// data-def), a footnote (its text) and a link to another page of the book (the first lines of
// that section, from previews.json, written by the build and fetched on the first hover).
// Everything shown is the book's own text, put in as text (a formula: its own MathML).

const root = new URL(document.querySelector('meta[name="tbook-root"]')?.content ?? "./",
                     document.baseURI);
const TRIGGERS = "a.cite-ref, a.xref, a.term, .footnote-ref a, .chapter a[href]:not(.anchor)";
let card = null;
let previews = null;
let shownFor = null;

function cardElement() {
  if (!card) {
    card = document.createElement("div");
    card.className = "popover";
    card.id = "tbook-popover";
    card.setAttribute("role", "tooltip");
    card.hidden = true;
    document.body.append(card);
  }
  return card;
}

function loadPreviews() {
  previews ??= fetch(new URL("previews.json", root), { cache: "no-cache" })
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  return previews;
}

function samePage(url) {
  return url.origin === location.origin && url.pathname === location.pathname;
}

function byHash(url) {
  try {
    return document.getElementById(decodeURIComponent(url.hash.slice(1)));
  } catch (malformed) {
    return null;
  }
}

// The card's content for a link, or null (nothing worth showing).
async function contentFor(a) {
  if (a.classList.contains("term")) return { text: a.dataset.def };
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.endsWith(".html")) return null;
  const target = samePage(url) ? byHash(url) : null;
  if (target?.matches("li")) {  // a reference list entry, a footnote
    const copy = target.cloneNode(true);
    copy.querySelectorAll(".footnote-backref").forEach((b) => b.remove());
    return { text: copy.textContent.trim() };
  }
  if (target?.classList.contains("equation")) {
    return { title: a.textContent, node: target.querySelector("math").cloneNode(true) };
  }
  if (samePage(url) && !url.hash) return null;
  let key;
  try {
    key = decodeURIComponent(url.pathname.split("/").pop() + url.hash);
  } catch (malformed) {
    return null;
  }
  const preview = (await loadPreviews())[key];
  if (!preview) return null;
  return { title: preview.title, text: preview.text };
}

async function show(a) {
  shownFor = a;
  const content = await contentFor(a);
  if (shownFor !== a || !content) return;
  const el = cardElement();
  el.replaceChildren();
  if (content.title) {
    const title = document.createElement("span");
    title.className = "popover-title";
    title.textContent = content.title;
    el.append(title);
  }
  if (content.node) el.append(content.node);
  if (content.text) el.append(document.createTextNode(content.text));
  el.hidden = false;
  const box = a.getBoundingClientRect();
  const left = Math.min(box.left, document.documentElement.clientWidth - el.offsetWidth - 8);
  el.style.left = `${Math.max(8, left) + scrollX}px`;
  el.style.top = `${box.bottom + 6 + scrollY}px`;
  a.setAttribute("aria-describedby", el.id);
}

function hide() {
  shownFor?.removeAttribute("aria-describedby");
  shownFor = null;
  if (card) card.hidden = true;
}

export function enablePopovers() {
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return;
    const a = event.target.closest?.(TRIGGERS);
    if (a && a !== shownFor) show(a);
  });
  document.addEventListener("pointerout", (event) => {
    const a = event.target.closest?.(TRIGGERS);
    if (a && !a.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("focusin", (event) => {
    const a = event.target.closest?.(TRIGGERS);
    if (a && a.matches(":focus-visible")) show(a);
  });
  document.addEventListener("focusout", hide);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  document.addEventListener("tbook:page", hide);
}
