// Cards that preview what a link leads to: a citation (its entry in the chapter's reference
// list), a cross-reference (the formula, figure or section), a glossary term (its definition,
// in data-def), a footnote (its text) and a link to another page of the book (the first lines
// of that section, from previews.json, written by the build and fetched when first needed).
// A mouse shows the card on hover, the keyboard on focus. A finger has no hover: its first tap
// on such a link opens the card (pinned, with the link inside it); a second tap on the link, or
// the card's own link, follows it; a tap elsewhere or Esc closes it. A link with nothing to
// preview is followed at the first tap.
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

// Where the card's own link says it goes (a tap on a pinned card).
function goLabel(a) {
  if (a.classList.contains("term")) return "到术语表 →";
  if (a.classList.contains("cite-ref")) return "到参考文献 →";
  if (a.closest(".footnote-ref")) return "到脚注 →";
  return "打开链接 →";
}

// Shows the card for link a; pinned: a touch's card, which stays until a tap elsewhere and
// holds the link. Resolves to whether there was anything to show.
async function show(a, pinned = false) {
  shownFor = a;
  const content = await contentFor(a);
  if (shownFor !== a || !content) return false;
  const el = cardElement();
  el.replaceChildren();
  el.classList.toggle("pinned", pinned);
  if (content.title) {
    const title = document.createElement("span");
    title.className = "popover-title";
    title.textContent = content.title;
    el.append(title);
  }
  if (content.node) el.append(content.node);
  if (content.text) el.append(document.createTextNode(content.text));
  if (pinned) {
    const go = document.createElement("a");
    go.className = "popover-go";
    go.href = a.href;
    go.textContent = goLabel(a);
    el.append(go);
  }
  el.hidden = false;
  const box = a.getBoundingClientRect();
  const left = Math.min(box.left, document.documentElement.clientWidth - el.offsetWidth - 8);
  el.style.left = `${Math.max(8, left) + scrollX}px`;
  el.style.top = `${box.bottom + 6 + scrollY}px`;
  a.setAttribute("aria-describedby", el.id);
  return true;
}

function hide() {
  shownFor?.removeAttribute("aria-describedby");
  shownFor = null;
  if (card) card.hidden = true;
}

let lastPointer = "mouse";  // the kind of pointer of the latest press (a click has none in some browsers)
let following = null;      // a link whose next click is let through (nothing to preview)

// A tap on a link that can show a card: the first opens it (the link is not followed), a
// second on the same link follows it.
function onTap(event) {
  if (event.target.closest?.(".popover-go")) {  // the card's own link: followed
    hide();
    return;
  }
  const a = event.target.closest?.(TRIGGERS);
  // a tap's click counts one press (detail); a key's (Enter) and a script's count none
  const touch = event.detail > 0 && (event.pointerType || lastPointer) === "touch";
  if (!a || !touch || event.button !== 0 || a === following) {
    following = null;
    return;
  }
  if (a === shownFor && card && !card.hidden) {
    hide();
    return;  // the second tap: followed
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  show(a, true).then((shown) => {
    if (shown) return;
    following = a;  // nothing to preview: follow it as the tap would have
    a.click();
  });
}

export function enablePopovers() {
  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType;
    // a tap outside the pinned card and its link closes it
    if (shownFor && !card?.contains(event.target) && !shownFor.contains(event.target)) hide();
  }, true);
  // before the page's own handlers (navigate.js) see the click
  document.addEventListener("click", onTap, true);
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return;
    const a = event.target.closest?.(TRIGGERS);
    if (a && a !== shownFor) show(a);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType === "touch") return;  // a finger leaves as it lifts: the card stays
    const a = event.target.closest?.(TRIGGERS);
    if (a && !a.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("focusin", (event) => {
    const a = event.target.closest?.(TRIGGERS);
    if (a && a !== shownFor && a.matches(":focus-visible")) show(a);
  });
  document.addEventListener("focusout", (event) => {
    if (!card?.contains(event.relatedTarget)) hide();  // focus into the card keeps it
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  document.addEventListener("tbook:page", hide);
}
