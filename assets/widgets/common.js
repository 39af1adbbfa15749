// A widget's life, shared by every widget module: its state display, its state in the page's
// URL, and liveWidget (state -> view -> DOM). Binding a view is bind.js, the controls are
// controls.js, pointing at parts is linking.js.
import { TEXTS, bindAll, lookup, textsWanted } from "./bind.js";
import { wireControls } from "./controls.js";
import { enableLinking } from "./linking.js";
import { currentExample, onExampleChange } from "./example.js";
import { isRecord, readSaved } from "./saved-state.js";

export { TEXTS, bindAll, lookup, textsWanted };

const STATUS = {
  static: "构建时算好的数字",
  loading: "正在加载 Python 运行时…",
  live: "实时计算（Pyodide + NumPy）",
};

export function setState(root, state, message) {
  root.dataset.state = state;
  const status = root.querySelector(".widget-status");
  if (status) {
    status.textContent = message ?? STATUS[state];
    // the state alone is a dot (book.css); words that say more (a refused value, an error,
    // a link left out) show in full
    status.toggleAttribute("data-note", (message ?? STATUS[state]) !== STATUS[state]);
  }
  // Controls work only when live; the embed and notebook buttons (embed-ui.js, notebook-ui.js)
  // need no runtime.
  const enable = state === "live";
  root.querySelectorAll("input, button:not([data-embed]):not([data-notebook]), select")
    .forEach((el) => { el.disabled = !enable; });
}

// Shareable state: the parameters that differ from the block's live in the page's URL as
// ?<widget id>=<JSON>, so a copied link reopens the widget as the reader left it.
// A link is anyone's to write: only the block's parameters are taken from it, each with a value
// of the block's kind (a number or true/false as the block's, a list of numbers for a list,
// short text for text; pycore checks the ranges), and the widget says that the rest was left out.
const MAX_ITEMS = 1000;  // a list parameter holds a dozen numbers or so
const MAX_TEXT = 200;    // a text parameter is one of a few short choices

function fits(value, like) {
  if (Array.isArray(like)) {
    return Array.isArray(value) && value.length <= MAX_ITEMS && value.every((v) => typeof v === "number");
  }
  if (typeof like === "string") return typeof value === "string" && value.length <= MAX_TEXT;
  return typeof value === typeof like && (typeof like === "number" || typeof like === "boolean");
}

// {state, refused}: the link's parameters of the widget on root that fit its block, and whether
// the link held anything else for it.
function urlState(root, initial) {
  const raw = new URLSearchParams(location.search).get(root.id);
  if (!raw) return { state: {}, refused: false };
  const saved = readSaved(raw, 2);
  const entries = isRecord(saved) ? Object.entries(saved) : [];
  const state = Object.fromEntries(entries.filter(
    ([key, value]) => Object.hasOwn(initial, key) && fits(value, initial[key])));
  return { state, refused: !isRecord(saved) || Object.keys(state).length < entries.length };
}

const LINK_REFUSED = "链接里的参数无法使用，这里显示的是书中的参数。";
const LINK_PARTLY = "链接里有些参数无法使用，已略去。";

function writeUrlState(root, initial, state) {
  const url = new URL(location.href);
  const changed = Object.fromEntries(Object.entries(state).filter(
    ([key, value]) => JSON.stringify(value) !== JSON.stringify(initial[key])));
  if (Object.keys(changed).length) url.searchParams.set(root.id, JSON.stringify(changed));
  else url.searchParams.delete(root.id);
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

// history.replaceState costs milliseconds: the URL follows the widget a moment after the last
// change (and at once when the reader leaves or shares the page), never inside an input event.
const pendingUrl = new Map();
let urlTimer = 0;

export function flushUrlState() {
  clearTimeout(urlTimer);
  pendingUrl.forEach((write) => write());
  pendingUrl.clear();
}

function saveUrlState(root, initial, state) {
  const page = location.pathname;  // a write left pending when the reader goes back is dropped
  pendingUrl.set(root, () => { if (location.pathname === page) writeUrlState(root, initial, state); });
  clearTimeout(urlTimer);
  urlTimer = setTimeout(flushUrlState, 150);
}

addEventListener("pagehide", flushUrlState);
document.addEventListener("visibilitychange", flushUrlState);
document.addEventListener("copy", flushUrlState);

// A widget's life: state (parameters) -> view (pycore, computed in the runtime's worker) -> DOM.
// bindAll writes every bound text and attribute (the view holds the geometry too, and the
// texts of its numbers: every request names them, runtime.compute(name, params, texts)), the
// controls made by the _controls.html macros are wired and shown by controls.js; `draw(view)`
// and `sync(state)` are for what is special about one widget (a drag, a canvas): draw(view,
// whole) gets the parts that came and the whole view they complete.
// update() asks for a view and returns a promise of it. One request per widget is in flight at
// a time: inputs that arrive meanwhile merge into the next request (a dragged slider asks for
// its latest value, not for every value it passed). Every view that arrives is drawn.
const firstViews = new WeakMap();
const onScreen = new WeakMap();  // root -> () => the parameters of the view it shows

// The parameters of the numbers the reader sees (the notebook download takes them): those of
// the view on screen once the widget is live, else the block's with the link's state (what
// the page is about to show). The block's parameters and, for a widget over the running
// example that the reader has edited, the example that view was computed with (pycore's
// compute takes it as the view's `example` input); no other page-only inputs.
export function currentParams(root) {
  const initial = JSON.parse(root.dataset.params);
  const shown = onScreen.get(root)?.()
    ?? withExample(root, { ...initial, ...urlState(root, initial).state });
  const params = Object.fromEntries(Object.keys(initial).map((k) => [k, shown[k]]));
  if (shown.example) params.example = shown.example;
  return structuredClone(params);
}

// A widget over the running example (data-example) asks with the page's edited example
// (`edited`; asking ahead of an edit, the example the edit will bring).
function withExample(root, asked, edited = currentExample()) {
  const example = "example" in root.dataset ? edited : null;
  return example ? { ...asked, example } : asked;
}

// A view comes in parts (pycore/view_parts.py): each request names the key of every part
// the widget holds (`held`, the keys the views drawn brought under PARTS), and the view that
// comes brings only the others. The widget's whole view is the parts laid over each other.
const PARTS = "$parts";
// A late part (the module's LATE: slower than a frame, as char-gpt's continuation drawn one
// character at a time) may stay out of a view that brings others; the view names it under
// LATER. The widget draws the rest at once, marks itself data-later (its CSS may dim what the
// part will replace) and asks for it once the reader has paused for LATE_QUIET_MS: a drag's
// next frame never waits behind it, and a reader who acts again on what they see (some 200 ms
// after it settles) finds the worker free. The first view and views asked without DEFER
// (the build, notebooks) are whole.
const LATER = "$later";
const DEFER = "$defer";
const LATE_QUIET_MS = 300;

function laidOver(held, part) {
  if (!isRecord(held) || !isRecord(part)) return part;
  const out = { ...held };
  for (const key of Object.keys(part)) out[key] = laidOver(held[key], part[key]);
  return out;
}

// Resolves once the widget mounted on root has drawn its first live view.
export function firstView(root) {
  return firstViews.get(root) ?? Promise.reject(new Error(`${root.id}: not a live widget`));
}

// The figures' marks ease into place (160 ms, assets/figures.css). When inputs come faster
// than that (a drag, quick clicks), the page would render frames of the previous easing while
// the next answer waits behind them (docs/performance.md); so the widget is `data-moving`
// while they keep coming, and its marks follow the input directly.
const EASE_MS = 160;
const lastInput = new WeakMap();   // root -> performance.now() of its last input
const stillTimers = new WeakMap();  // root -> the timer that ends data-moving

function notePace(root) {
  const now = performance.now();
  if (now - (lastInput.get(root) ?? -Infinity) < EASE_MS) root.dataset.moving = "";
  lastInput.set(root, now);
  clearTimeout(stillTimers.get(root));
  stillTimers.set(root, setTimeout(() => delete root.dataset.moving, EASE_MS));
}

// A click begins with a press: the pointer goes down, and up again a tenth of a second later
// or so, time enough for the worker to compute the view the click will ask for. So a control
// asks for it at the press (`ahead`, controls.js), and the click's update takes that answer
// when it asks for the same parameters and no view was drawn since (a lean view's parts are
// those that differ from the view on screen). A press that ends in no click leaves it unused.
// A widget whose view may do more than compute (training in the worker) passes ahead: false,
// or a function saying of which changes a view may be asked ahead. live: true for a view that
// takes the input `live` (the live page binds less of it than the build draws: no places).
// inputs: a function giving the view's page inputs that are not parameters (INPUTS: e.g. a
// text box's text, which must never land in the widget's state or a shared link); resetInputs
// puts them back as built, when the reader presses reset (the widget then shows its defaults).
export function liveWidget(root, runtime, { draw = () => {}, sync = () => {}, ahead = true,
                                           live = false, inputs = () => ({}),
                                           resetInputs = () => {} } = {}) {
  const asksAhead = typeof ahead === "function" ? ahead : () => ahead;
  const name = root.dataset.widget;
  const initial = JSON.parse(root.dataset.params);
  let state = structuredClone(initial);  // what the reader asked for last
  let shownState = null;                 // the parameters of the view on screen
  let shownSent = null;                  // ...and the request it came from (with the example)
  let running = null;                    // the loop computing views, while there is one
  let early = null;                      // {key, view}: the view asked for at a press, a promise
  let held = {};                         // the keys of the view's parts on screen
  let updates = 0;
  onScreen.set(root, () => shownSent);
  const asking = (params, example) => {
    const sent = { ...withExample(root, params, example), ...inputs() };
    return live ? { ...sent, live: true } : sent;
  };
  const follows = "example" in root.dataset;

  function show(view, asked, sent) {
    if (root.querySelector(".widget-status")?.textContent !== STATUS.live) setState(root, "live");
    shownState = asked;
    shownSent = sent;
    early = null;
    held = { ...held, ...view[PARTS] };
    widget.view = laidOver(widget.view, view);
    bindAll(root, view);
    draw(view, widget.view);
    syncControls(state);
    sync(state);
    saveUrlState(root, initial, asked);
    root.dataset.updates = String(++updates);  // lets tests see the live path ran
  }

  function refuse(err) {  // e.g. a value pycore refuses: keep the last good numbers, say why
    const why = String(err.message).trim().split("\n").pop();
    setState(root, "live", `这个值没有被接受（${why}），显示的仍是上一次的结果。`);
    console.error(err);
    state = shownState;
    sync(state);
  }

  // Resolves once no input came for LATE_QUIET_MS, or at the next input (update wakes it).
  // While it waits (wake set) no request is in flight: a press may ask ahead meanwhile.
  let wake = null;
  function pause() {
    return new Promise((resolve) => {
      let timer;
      const done = () => { clearTimeout(timer); wake = null; resolve(); };
      const check = () => {
        const left = lastInput.get(root) + LATE_QUIET_MS - performance.now();
        if (left <= 0) done(); else timer = setTimeout(check, left);
      };
      wake = done;
      check();
    });
  }

  async function computeLatest() {
    try {
      let late = false;  // asking for the late parts the last view left out
      for (;;) {
        const asked = state;
        let view;
        const sent = asking(asked);
        const ready = !late && early?.key === JSON.stringify(sent) ? early.view : null;
        early = null;
        const defer = shownState !== null && !late;
        try {
          view = await (ready ?? runtime.compute(name, sent, textsWanted(root),
                                                 defer ? { ...held, [DEFER]: true } : held));
        } catch (err) {
          if (shownState === null) throw err;  // no view yet: the page reports the widget broken
          refuse(err);
          return widget.view;
        }
        show(view, asked, sent);
        late = false;
        if (view[LATER]) {
          root.dataset.later = view[LATER].join(" ");
          await pause();
          late = state === asked;
        } else {
          delete root.dataset.later;  // every part the view needs came: nothing is left behind
        }
        if (state === asked && !late) return widget.view;
      }
    } finally {
      running = null;  // here, not later: an input right after the last view starts a new loop
    }
  }

  const widget = {
    get state() { return state; },
    view: null,
    update(changes) {
      notePace(root);
      state = { ...state, ...changes };
      wake?.();  // a pause for a late part ends: this input comes first
      running ??= computeLatest();
      return running;
    },
    reset() { state = structuredClone(initial); resetInputs(); return widget.update({}); },
    // The view an update with these changes would ask for, asked now (see above); with
    // `example`, of the example an edit is about to bring (example.js aheadExample).
    ahead(changes, example = currentExample()) {
      if ((running && !wake) || shownState === null || !asksAhead(changes)) return;
      const sent = asking({ ...state, ...changes }, example);
      const key = JSON.stringify(sent);
      if (early?.key === key || key === JSON.stringify(asking(state))) return;
      early = { key, view: runtime.compute(name, sent, textsWanted(root), held) };
      early.view.catch(() => {});  // a refused value is the click's to report
    },
  };
  root.querySelector("[data-action=reset]")?.addEventListener("click", () => widget.reset());
  if (follows) onExampleChange(root, () => widget.update({}), (example) => widget.ahead({}, example));
  const syncControls = wireControls(root, widget);
  enableLinking(root);

  // A link may carry the widget's state (urlState); one that pycore refuses (a hand-edited
  // link), or that the runtime does not answer, is dropped, and the widget starts from its
  // block instead. Either way the widget says what it did with the link (until the next view).
  const { state: linked, refused } = urlState(root, initial);
  let note = refused ? (Object.keys(linked).length ? LINK_PARTLY : LINK_REFUSED) : null;
  const first = widget.update(linked).catch((badLink) => {
    if (!Object.keys(linked).length) throw badLink;
    console.warn(`ignoring the URL state of ${root.id}:`, badLink);
    note = LINK_REFUSED;
    state = structuredClone(initial);
    return widget.update({});
  }).then((view) => {
    if (note) setState(root, "live", note);
    return view;
  });
  firstViews.set(root, first);
  return widget;
}
