// The reader's edited running example: one per page, shared by every widget that uses it
// (their roots carry data-example), and carried to the next chapter. It lives in the page's
// URL as ?example=<JSON> (a copied link reopens it) and in the browser's storage (the next
// chapter opens with it); 重置 in the example editor clears both.
//
// This module only keeps and passes the reader's dict on: pycore checks it
// (pycore.example.checked_example) and shows the book's example in place of junk, so a
// hand-edited link never breaks a page.

const PARAM = "example";
const KEY = "tbook-example";
const listeners = new Map();  // widget root -> what it does when the example changes

function storage() {
  try {
    return window.localStorage;  // refused in some framed (embedded) pages
  } catch (refused) {
    return null;
  }
}

function parse(raw) {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch (malformed) {
    return null;
  }
}

let current = parse(new URLSearchParams(location.search).get(PARAM))
  ?? parse(storage()?.getItem(KEY));

function save() {
  const url = new URL(location.href);
  if (current) url.searchParams.set(PARAM, JSON.stringify(current));
  else url.searchParams.delete(PARAM);
  if (url.href !== location.href) history.replaceState(history.state, "", url);
  try {
    if (current) storage()?.setItem(KEY, JSON.stringify(current));
    else storage()?.removeItem(KEY);
  } catch (full) { /* storage full or refused: the URL still keeps the example */ }
}

// The example to send with a view request: the reader's dict, or null for the book's.
export function currentExample() {
  return current;
}

// A new example for the page: every widget that follows it recomputes.
export function setExample(example) {
  current = example;
  save();
  listeners.forEach((listener, root) => {
    if (root.isConnected) listener();
    else listeners.delete(root);  // a widget of a page the reader moved away from
  });
}

// What pycore accepted of the example `sent` (its canonical form, null = the book's): stored
// without recomputing, so a refused or redundant link is cleaned from the URL and the
// storage. A view of an example the page no longer has (the reader moved on) changes nothing.
export function settleExample(sent, canonical) {
  if (JSON.stringify(sent ?? null) !== JSON.stringify(current)) return;
  if (JSON.stringify(canonical) === JSON.stringify(current)) return;
  current = canonical;
  save();
}

export function onExampleChange(root, listener) {
  listeners.set(root, listener);
}

// an example from the storage shows in the URL too; one that is not even JSON leaves it
if (current || new URLSearchParams(location.search).has(PARAM)) save();

// A chapter opened in place (navigate.js) keeps the reader's latest example and shows it in
// its URL, also when it comes back from history with an older one: 重置 stays reset.
document.addEventListener("tbook:page", save);
