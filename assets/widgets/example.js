// The reader's edited running example: one per page, shared by every widget that uses it
// (their roots carry data-example), and carried to the next chapter. It lives in the page's
// URL as ?example=<JSON> (a copied link reopens it) and in the browser's storage (the next
// chapter opens with it); 重置 in the example editor clears both.
//
// This module only keeps and passes the reader's dict on: pycore checks it
// (pycore.example.checked_example) and shows the book's example in place of junk, so a
// hand-edited link never breaks a page. Only one too large or nested too deep to be an example
// at all (saved-state.js) is dropped here, before any request carries it; the editor says so.
//
// An edit answers the reader first: the widgets on screen (or about to be) recompute at once;
// the others are marked stale and recompute when they come into view, or once the reader
// pauses editing, in idle time, one at a time: the next edit never queues behind a widget
// nobody is looking at. The URL and the storage are written then too (history.replaceState
// costs milliseconds), and at once when the reader leaves, hides or copies the page.
import { owe } from "../runtime.js";
import { isRecord, readSaved } from "./saved-state.js";

const PARAM = "example";
const KEY = "tbook-example";
// widget root -> {recompute, ahead}: what it does when the example changes, and how it asks
// ahead for its view of an example
const followers = new Map();
const near = new Set();       // follower roots on screen (any part of them)
const stale = new Set();      // follower roots that show an older example
const NEAR = "0px";  // on screen: a widget just off it catches up as it scrolls in
const idle = window.requestIdleCallback ?? ((task) => setTimeout(task, 50));
const IDLE_WAIT = { timeout: 400 };  // after the pause, idle or not, catch up by then

function storage() {
  try {
    return window.localStorage;  // refused in some framed (embedded) pages
  } catch (refused) {
    return null;
  }
}

// An example is {x: rows of numbers, pronoun: numbers, tokens: words}: three levels deep.
const DEPTH = 3;
let refused = false;  // the link or the storage held an example that is none, until an edit

function parse(raw) {
  if (!raw) return null;
  const value = readSaved(raw, DEPTH);
  if (isRecord(value)) return value;
  refused = true;
  return null;
}

let current = parse(new URLSearchParams(location.search).get(PARAM))
  ?? parse(storage()?.getItem(KEY));

function save() {
  saveDue = false;
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

// Whether the page set aside an example from the link or the storage that could not be one
// (the editor says so, as it does for one that pycore refuses), until the reader edits it.
export function exampleRefused() {
  return refused;
}

// The page's work owed after an edit (stale widgets, the URL), done once the reader has paused
// editing for QUIET ms, in idle time: a reader clicking one entry after another never waits
// behind a widget off screen (the runtime's worker answers one request at a time). While any
// work is owed, runtime.js settled() waits for it (tests and benchmarks read the page then).
const QUIET = 400;
let saveDue = false;
let debt = null;       // owe()'s release while work is owed
let working = false;   // a catch-up is scheduled or running
let lastEdit = 0;

function catchUp() {
  debt ??= owe();
  lastEdit = performance.now();
  if (working) return;
  working = true;
  setTimeout(() => idle(step, IDLE_WAIT), QUIET);
}

function step() {
  const since = performance.now() - lastEdit;
  if (since < QUIET) {  // edited again meanwhile: wait for the next pause
    setTimeout(() => idle(step, IDLE_WAIT), QUIET - since);
    return;
  }
  const root = stale.values().next().value;
  if (root === undefined) {
    if (saveDue) save();
    working = false;
    debt?.();
    debt = null;
    return;
  }
  stale.delete(root);
  const done = root.isConnected ? recompute(root) : Promise.resolve();
  done.finally(() => idle(step, IDLE_WAIT));
}

function recompute(root) {
  stale.delete(root);
  // a widget reports its own errors
  return Promise.resolve(followers.get(root)?.recompute()).catch(() => {});
}

function flushExample() {
  if (saveDue) save();
}
addEventListener("pagehide", flushExample);
document.addEventListener("visibilitychange", flushExample);
document.addEventListener("copy", flushExample);

// Which followers are near the screen, kept up to date by the browser (no layout forced at
// an edit). Without IntersectionObserver, every follower counts as near.
const observer = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
  for (const { target, isIntersecting } of entries) {
    if (!isIntersecting) { near.delete(target); continue; }
    near.add(target);
    if (stale.has(target)) recompute(target);  // scrolled into view: catch up now
  }
}, { rootMargin: NEAR }) : null;

// A follower near the screen recomputes at once after an edit; the others catch up later.
const atOnce = (root) => !observer || near.has(root);

// A new example for the page: every widget that follows it recomputes, those near the screen
// at once (`first`, the widget the reader edited in, before them), the others later.
export function setExample(example, first = null) {
  current = example;
  refused = false;
  saveDue = true;
  const roots = [...followers.keys()].filter((root) => {
    if (root.isConnected) return true;
    followers.delete(root);  // a widget of a page the reader moved away from
    stale.delete(root);
    near.delete(root);
    observer?.unobserve(root);
    return false;
  });
  if (first && followers.has(first)) recompute(first);
  for (const root of roots) {
    if (root === first) continue;
    if (atOnce(root)) recompute(root);
    else stale.add(root);
  }
  catchUp();
}

// What pycore accepted of the example `sent` (its canonical form, null = the book's): stored
// without recomputing, so a refused or redundant link is cleaned from the URL and the
// storage. A view of an example the page no longer has (the reader moved on) changes nothing.
export function settleExample(sent, canonical) {
  if (JSON.stringify(sent ?? null) !== JSON.stringify(current)) return;
  if (JSON.stringify(canonical) === JSON.stringify(current)) return;
  current = canonical;
  saveDue = true;
  catchUp();
}

// A press on the editor's entry, chip or token (example-editor.js) asks the worker ahead for
// the views its click's example will bring, of the widgets that recompute at once (the edited
// one first): the click finds them computed (liveWidget's `ahead`), or, with no click, leaves
// them unused.
export function aheadExample(example, first = null) {
  if (first) followers.get(first)?.ahead(example);
  for (const [root, { ahead }] of followers) {
    if (root !== first && root.isConnected && atOnce(root)) ahead(example);
  }
}

// recompute() recomputes root's widget for the current example (and returns that promise);
// ahead(example) asks ahead for its view of that example.
export function onExampleChange(root, recompute, ahead = () => {}) {
  followers.set(root, { recompute, ahead });
  observer?.observe(root);
}

// an example from the storage shows in the URL too; one that is not even an example leaves the
// URL and the storage
if (current || refused || new URLSearchParams(location.search).has(PARAM)) save();

// A chapter opened in place (navigate.js) keeps the reader's latest example and shows it in
// its URL, also when it comes back from history with an older one: 重置 stays reset.
document.addEventListener("tbook:page", () => {
  refused = false;  // said on the page the link opened
  save();
});
