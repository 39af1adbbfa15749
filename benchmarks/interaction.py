#!/usr/bin/env python3
"""Interaction latency: input event -> DOM updated, for every widget of the book.

Widgets compute in the runtime's worker (pycore in Pyodide): the event handler asks for a view
and the widget writes the DOM when the answer comes, a few tasks later. So the time is taken
inside the page: performance.now() before dispatching a real input event (a click, an `input`
event on a slider or number box with a new value, a `change` on a select, a keydown), and again
when the widget's `data-updates` grows (a MutationObserver sees it at once); a sample without
an update within 5 s is dropped. Each widget is first scrolled to the middle of the screen (the
reader looks at what they move). Before the first page, the worker computes every widget's
default view for 8 s (WARM_JS: steady state, not a fresh worker's baseline-tier WebAssembly).

Cadence: by default each input comes once the page is still -- the earlier change has stopped
moving (the figures' marks ease into place for 160 ms, assets/figures.css) and a frame has
passed -- as a reader clicks on what they see. With --cadence frame the next input comes one
frame after the last update, while that change still moves (a drag, fast clicks): then the
main thread renders a frame of that motion every ~16 ms (style, SVG layout, paint: ~13 ms on
the large figures), and the worker's answer waits for it (`waited`). --cadence both alternates
the two within one run and prints a row for each.

A click is a press and a release (`--press`, default 60 ms, shorter than a reader's usual
80-150): the pointer goes down, and the click comes that long after; the time is the click's.
At the press a control asks for the view its click will ask for (assets/widgets/common.js,
`ahead`): a row says how many clicks found that view computed. --press 0 clicks with no press.

The example editor (chapters 3-9): an edit is answered when the editor *and every widget on
screen that follows the example* show it (`total` waits for all of them). Widgets off screen
that follow it are not waited for: they recompute when they come into view, or once the reader
pauses editing (assets/widgets/example.js), after the reader's answer and not counted.

The code lab: its interactions are a keystroke in the code box, the answer of 运行 and 恢复原始
代码 (the button turns busy within the click), and 停止 during a run (until the widget says the
run was stopped). A run of the code takes seconds (a fresh Python, the reader's whole program):
it is reported on a line of its own (`runs`), not as an interaction and not against the goal.

Per sample these figures are kept:
  total    dispatch -> DOM written (the goal is about this one: p95 < 16 ms, a frame; the median is
           reported, not a goal);
  compute  the time spent inside runtime.compute calls (JSON in, pycore in Pyodide, JSON out,
           the worker round trip), summed over the sample's requests (several for an edit of
           the example, which may overlap), by wrapping the page's one runtime object;
  reached  of it, from posting the request to Python starting on it in the worker (the
           worker thread scheduled, any request ahead of it; runtime.js onTiming);
  python   of it, call_json in the worker;
  waited   of it, from the worker posting the answer to the answer's message event on the
           page: the main thread was busy (a frame being rendered, other tasks);
  history  the part spent in history.replaceState (the URL state) within the sample;
  layout   the style + layout the browser then owes, forced right after (paint not included).
For reference, the same view is also timed in this CPython process (call_json, JSON included).

    python3 benchmarks/interaction.py [--n 120] [--only attention,rope] [--json out.json]
                                      [--embeds] [--profile] [--cadence still|frame|both]
                                      [--trace trace.json] [--reduced-motion] [--press 60]

With --only, only the chapters holding those widgets are opened. Chromium coarsens
performance.now() to 0.1 ms on pages that are not cross-origin isolated, so figures below
~0.3 ms are quantised.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (built_site, chapters_with_widgets, launch, load_note,  # noqa: E402
                    percentile, serving, wait_all_live)

# How to move each widget: (kind, selector[, keys]) run round-robin. Kinds:
#   click   cycle through the matching enabled elements and .click() the next one
#   range   set a new value on a range slider (walking its whole range) + `input` event
#   number  alternate a number box between its value and a neighbour + `input` event
#   check   .click() a checkbox (toggles; fires `input` and `change`)
#   radio   .click() the next radio button of the group
#   select  select the next option + `change` event
#   key     keydown with the next key of the list on the element (bubbles); "ArrowRight Enter"
#           is two keydowns in one sample (move the cursor, then choose)
#   type    a keystroke in a textarea (a character added, then taken away) + `input` event: the
#           answer is the browser's own, within the event (no view is asked for)
#   run     .click() a button that starts a run of code (the code lab): the answer is what the
#           click shows at once (aria-busy, 运行中…); the run's time is kept apart (`run`)
#   stop    start a run (the widget's [data-action=run]), and while it runs .click() the stop
#           button: the time until the widget shows that the run was stopped
# A click is a press and a release: mouse buttons and taps are held ~80-150 ms. The benchmark
# presses this long (below the usual) before each click; the time is taken from the click.
PRESS_MS = 60

ACTIONS = {
    "panorama": [("key", """[data-control=block] [data-value='"ffn"']""", ["Enter"]),
                 ("number", "[data-control=d_model]"),
                 ("key", """[data-control=block] [data-value='"attention"']""", ["Enter"]),
                 ("number", "[data-control=layers]")],
    "dot-product": [("key", "[data-tip=a]", ["ArrowRight", "ArrowLeft"]),
                    ("key", "[data-tip=b]", ["ArrowUp", "ArrowDown"])],
    "softmax": [("range", "[data-control=temperature]"), ("number", "[data-control=logits]")],
    # a sentence's spare slots are hidden buttons: a click on one changes nothing
    "embedding": [("click", "[data-control=a] [role=radio]:not([hidden])"),
                  ("click", "[data-control=b] [role=radio]:not([hidden])")],
    "attention": [("click", "[data-control=query] [role=radio]:not([hidden])"),
                  ("range", "[data-control=scale]"), ("click", "[data-control=causal]")],
    "scaling-variance": [("range", "[data-control=d_k]"), ("click", "[data-action=resample]")],
    "attention-cost": [("range", "input[type=range][data-control=n]"),
                       ("click", "[data-control=n] [role=radio]"),
                       ("number", "input[type=number][data-control=n]")],
    "multi-head": [("click", "[data-control=query] [role=radio]:not([hidden])"),
                   ("click", "[data-control=heads] [role=radio]")],
    "permutation": [("click", "[data-action=shuffle]"), ("click", "[data-action=reverse]"),
                    ("click", "[data-action=rotate]"), ("click", "[data-control=positions]")],
    "positional-encoding": [("range", "input[type=range][data-control]")],
    "rope": [("range", "input[type=range][data-control]"), ("click", "[data-action=both-up]"),
             ("click", "[data-action=both-down]")],
    "encoder-layer": [("click", "[data-action=next]"),
                      ("click", "[data-control=layout] [role=radio]"),
                      ("click", "[data-action=prev]"), ("click", ".enc-steps [role=option]")],
    "sampling": [("range", "input[type=range][data-control]"), ("click", "[data-action=sample]")],
    "beam-search": [("range", "input[type=range][data-control]"),
                    ("click", "[data-action=resample]")],
    "alibi-rope": [("range", "input[type=range][data-control]"),
                   ("click", "[data-control=query] [role=radio]"),
                   ("click", "[data-control=causal]")],
    "quantize": [("click", "[data-control=bits] [role=radio]"),
                 ("click", "[data-control=granularity] [role=radio]"),
                 ("click", "[data-control=symmetric]")],
    "kv-cache": [("click", "[data-control=step] [data-step]"),
                 ("click", "[data-control=preset] [role=radio]"),
                 ("click", "[data-control=dtype] [role=radio]"),
                 ("number", "[data-control=context]")],
    "param-count": [("click", "[data-control=preset] [role=radio]"),
                    ("range", "input[type=range][data-control]"),
                    ("number", "input[type=number][data-control=layers]"),
                    ("click", "[data-control=ff_4d]")],
    "vit-patches": [("click", "[data-control=P] [role=radio]"),
                    ("range", "[data-control=temperature]"),
                    ("key", "svg.vit-photo", ["ArrowRight Enter", "ArrowDown Enter", "ArrowLeft Enter",
                                              "ArrowUp Enter"])],
    "swin-windows": [("click", "[data-control=image_size] [role=radio]"),
                     ("click", "[data-control=P] [role=radio]"),
                     ("click", "[data-control=layer] [role=radio]"),
                     ("range", "[data-control=M]")],
    "lr-schedule": [("range", "input[type=range][data-control]"),
                    ("click", "[data-control=decay] [role=radio]"),
                    ("key", ".lr-plot", ["ArrowRight", "ArrowLeft"])],
    "chinchilla": [("range", "input[type=range][data-control]"),
                   ("click", "[data-control=preset] [role=radio]"),
                   ("click", "[data-action=optimal]")],
    # the code lab's interactions: a keystroke in its box, the answer of 运行 and 恢复原始代码
    # (the run itself is reported apart), and 停止 during a run
    "code-lab": [("type", "textarea[data-control=code]"), ("run", "[data-action=run]"),
                 ("stop", "[data-action=stop]"), ("run", "[data-action=restore]")],
    "bpe": [("range", "input[type=range][data-control=k]"), ("click", "[data-control=k] [data-step]"),
            ("click", "[data-control=corpus] [role=radio]")],
    "online-softmax": [("click", "[data-control=step] [data-step]"),
                       ("range", "input[type=range][data-control=tile]"),
                       ("click", "[data-control=query] [role=radio]"),
                       ("range", "input[type=range][data-control=n]"),
                       ("click", "[data-control=dtype] [role=radio]")],
    "padding-mask": [("click", "[data-control=mask][role=switch]"),
                     ("click", "[data-control=side] [role=radio]"),
                     ("click", "[data-control=query] [role=radio]")],
    "cross-attention": [("click", "[data-control=step] [data-step]"),
                        ("range", "input[type=range][data-control=scale]")],
    "trained-model": [("click", "[data-control=adjective] [role=radio]"),
                      ("click", "[data-control=position] [role=radio]"),
                      ("click", "[data-control=stage] [role=radio]"),
                      ("range", "[data-control=temperature]"),
                      ("click", "[data-control=animal] [role=radio]"),
                      ("click", "[data-action=sample]")],
    "learned-vs-handmade": [("click", "[data-control=adjective] [role=radio]"),
                            ("click", "[data-control=head] [role=radio]")],
    # a training step is training, not an interaction: benchmarks/model_page.py times it
    "train-live": [("click", "[data-control=head] [role=radio]"),
                   ("click", "[data-control=adjective] [role=radio]")],
    "example-editor": [("click", ".ex-cell"), ("click", "[data-control=query] [role=radio]")],
    "kernel-regression": [("range", "input[type=range][data-control=query]"),
                          ("range", "input[type=range][data-control=width]")],
    "weighted-sum": [("click", "[data-control=query] [role=radio]:not([hidden])"),
                     ("range", "input[type=range][data-control=scale]")],
    "kv-heads": [("range", "input[type=range][data-control=context]"),
                 ("range", "input[type=range][data-control=kv_heads]"),
                 ("click", "[data-control=mla]"),
                 ("range", "input[type=range][data-control=latent]")],
    "moe-router": [("range", "input[type=range][data-control=temperature]"),
                   ("click", "[data-control=experts] [data-step]"),
                   ("click", "[data-control=k] [data-step]"),
                   ("click", "[data-control=seed] [data-step]")],
    "rope-scaling": [("range", "input[type=range][data-control=s]"),
                     ("range", "input[type=range][data-control=train_len]")],
    "sliding-window": [("click", "[data-control=query] [role=radio]:not([hidden])"),
                       ("click", "[data-control=w] [data-step]"),
                       ("click", "[data-control=layers] [data-step]")],
    "clip-matrix": [("click", "[data-control=captions] [role=radio]"),
                    ("range", "input[type=range][data-control=tau]")],
    "char-embedding-map": [("range", "input[type=range][data-control=k]")],
    "char-gpt": [("range", "input[type=range][data-control=temperature]"),
                 ("range", "input[type=range][data-control=top_k]"),
                 ("range", "input[type=range][data-control=top_p]"),
                 ("click", "[data-action=sample]")],
    "char-gpt-inside": [("click", "[data-control=at] [role=radio]"),
                        ("click", "[data-control=layer] [role=radio]"),
                        ("click", "[data-control=head] [role=radio]")],
    "head-ablation": [("click", "[role=switch][data-control]")],
    "model-map": [("click", "[data-control=family] [role=radio]")],
}
# Any other widget: its enabled buttons (but reset) and its range sliders.
FALLBACK = [("click", "button:not([data-action=reset])"), ("range", "input[type=range]")]

MEASURE_JS = r"""
async ({ id, actions, n, cadence, press }) => {
  const root = document.getElementById(id);
  const base = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
  const { bootRuntime, settled } = await import(new URL("assets/runtime.js", base).href);
  const runtime = await bootRuntime();
  // The reader looks at the widget they move: it is on screen (this also decides which of the
  // widgets following an edited example are on screen, and so recompute at once).
  root.scrollIntoView({ block: "center" });
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  await frame();
  await frame();
  await settled();
  // An edit in the example editor is answered when the editor and every widget on screen that
  // follows the example show it; those off screen catch up later (widgets/example.js).
  const followersOnScreen = () => root.dataset.widget !== "example-editor" ? [] :
    [...document.querySelectorAll("[data-widget][data-example]")].filter((el) => {
      if (el === root) return false;
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.height > 0;
    });
  const compute = runtime.compute;
  let inCompute = 0;
  runtime.compute = function (...args) {  // the round trip to the runtime's worker
    const t = performance.now();
    return compute.apply(this, args).finally(() => { inCompute += performance.now() - t; });
  };
  // Where a view's round trip goes (runtime.js timing): in the worker, and waiting for this
  // page's main thread once the worker has posted the answer.
  let timings = [];
  runtime.onTiming = (t) => timings.push(t);
  const replaceState = history.replaceState;
  let inHistory = 0;
  history.replaceState = function (...args) {
    const t = performance.now();
    try { return replaceState.apply(this, args); } finally { inHistory += performance.now() - t; }
  };
  const enabled = (sel) => [...root.querySelectorAll(sel)].filter((el) => !el.disabled);
  const rangeValues = (el) => {
    const lo = Number(el.min || 0), hi = Number(el.max || 100);
    const step = el.step === "any" || !el.step ? (hi - lo) / 100 : Number(el.step);
    const count = Math.min(16, Math.round((hi - lo) / step));
    const up = [];
    for (let i = 0; i <= count; i++) up.push(lo + Math.round((i * (hi - lo) / count) / step) * step);
    return [...up, ...up.slice(1, -1).reverse()];  // there and back again
  };
  const makers = {
    // A reader's click is a press and a release: the pointer goes down `press` ms before the
    // click (0: in the click's task, as a click with no press before it)
    click(sel) {
      let i = 0, el = null;
      const down = () => el.dispatchEvent(new PointerEvent("pointerdown", {
        bubbles: true, cancelable: true, composed: true, button: 0, buttons: 1,
        pointerType: "mouse", pointerId: 1, isPrimary: true }));
      const fire = () => { if (!press) down(); el.click(); };
      fire.prepare = async () => {
        const els = enabled(sel);
        el = els[i++ % els.length];
        if (press) { down(); await new Promise((r) => setTimeout(r, press)); }
      };
      fire.pressed = true;
      return fire;
    },
    range(sel) {
      let i = 0;
      const plans = new Map();
      return () => {
        const els = enabled(sel);
        const el = els[i++ % els.length];
        if (!plans.has(el)) plans.set(el, { values: rangeValues(el), k: 0 });
        const plan = plans.get(el);
        let v;
        do { v = plan.values[plan.k++ % plan.values.length]; } while (String(v) === el.value && plan.values.length > 1);
        el.value = String(v);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      };
    },
    number(sel) {
      let i = 0;
      const start = new Map();
      return () => {
        const els = enabled(sel);
        const el = els[i++ % els.length];
        if (!start.has(el)) start.set(el, Number(el.value));
        const v0 = start.get(el), step = Number(el.step) || 1;
        const other = el.max !== "" && v0 + step > Number(el.max) ? v0 - step : v0 + step;
        el.value = String(Number(el.value) === v0 ? other : v0);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      };
    },
    check(sel) {
      return () => enabled(sel)[0].click();
    },
    radio(sel) {
      return () => {
        const els = enabled(sel);
        const at = els.findIndex((el) => el.checked);
        els[(at + 1) % els.length].click();
      };
    },
    select(sel) {
      return () => {
        const el = enabled(sel)[0];
        el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
        el.dispatchEvent(new Event("change", { bubbles: true }));
      };
    },
    key(sel, keys) {
      let i = 0;
      return () => {
        const el = root.querySelector(sel);
        for (const key of keys[i++ % keys.length].split(" ")) {
          el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
        }
      };
    },
    type(sel) {
      let i = 0;
      const fire = () => {
        const box = root.querySelector(sel);
        const end = box.value.length;
        if (i++ % 2 === 0) box.setRangeText("x", end, end, "end");
        else box.setRangeText("", end - 1, end, "end");
        box.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText" }));
      };
      fire.answered = () => true;
      return fire;
    },
    run(sel) {
      const fire = () => enabled(sel)[0].click();
      fire.answered = () => root.getAttribute("aria-busy") === "true";
      fire.after = async (before, t0) => {  // the run itself: until its view is shown
        const done = await updated([root], [before], 60000);
        return done && done.written - t0;
      };
      return fire;
    },
    stop(sel) {
      const fire = () => root.querySelector(sel).click();
      fire.prepare = async () => {  // a run in progress (its Python booted and running)
        enabled("[data-action=run]")[0].click();
        await new Promise((r) => setTimeout(r, 300));
      };
      return fire;
    },
  };
  const acts = [], missing = [];
  for (const [kind, sel, keys] of actions) {
    if (kind !== "stop" && enabled(sel).length === 0) { missing.push(`${kind} ${sel}`); continue; }
    acts.push({ label: `${kind} ${sel}`, fire: makers[kind](sel, keys) });
  }
  const count = (el) => Number(el.dataset.updates || 0);
  // When the data-updates of every element of `els` has grown past its `befores`, and the
  // layout that update then costs (null after `wait` ms): observers run right after the DOM
  // change, so this is when the result reached the page. Every widget answers this way: its
  // view comes from the runtime's worker.
  const updated = (els, befores, wait = 5000) => new Promise((resolve) => {
    const grown = () => els.every((el, k) => count(el) > befores[k]);
    const observer = new MutationObserver(() => {
      if (!grown()) return;
      observer.disconnect();
      const written = performance.now();
      void document.body.getBoundingClientRect();  // pay the style + layout the update caused
      resolve({ written, layout: performance.now() - written });
    });
    const only = { attributes: true, attributeFilter: ["data-updates"] };
    els.forEach((el) => observer.observe(el, only));
    setTimeout(() => { observer.disconnect(); resolve(null); }, wait);
  });
  // A reader acts on what they see: the earlier change has stopped moving (its transitions,
  // 160 ms in figures.css, ended; at most 1 s) -- the "still" cadence. "frame": the next input
  // one frame after the last update, in the earlier change's motion (a drag, fast clicks).
  const transitions = () => document.getAnimations().filter((a) => a.playState === "running" &&
                                                                   a.transitionProperty);
  const still = async () => {
    const end = performance.now() + 1000;
    for (let m = transitions(); m.length && performance.now() < end; m = transitions()) {
      const left = end - performance.now();
      await Promise.race([Promise.all(m.map((a) => a.finished.catch(() => {}))),
                          new Promise((r) => setTimeout(r, left))]);
    }
    await frame();
  };
  const samples = [];
  for (let i = 0; acts.length && i < n; i++) {
    // "both": still and frame samples alternate, each action taken once in each cadence
    const both = cadence === "both";
    const pace = both ? (i % 2 ? "frame" : "still") : cadence;
    const act = acts[(both ? Math.floor(i / 2) : i) % acts.length];
    if (pace === "still") await still();
    if (act.fire.prepare) await act.fire.prepare();
    const watched = [root, ...followersOnScreen()];
    const befores = watched.map(count);
    inCompute = 0;
    inHistory = 0;
    timings = [];
    // CSS transitions of an earlier change still running (figures.css): their frames are
    // main-thread work that the answer may have to wait behind
    const moving = transitions().length;
    let error = null;
    const t0 = performance.now();
    try { act.fire(); } catch (e) { error = String(e); }
    const t1 = performance.now();
    const answered = act.fire.answered;
    let ok = !error && (answered ? answered() : watched.every((el, k) => count(el) > befores[k]));
    let total = t1 - t0, later = false, layout = 0, run = null;
    if (ok) {  // written inside the event: pay the style + layout the change caused
      void document.body.getBoundingClientRect();
      layout = performance.now() - t1;
    } else if (!error && !answered) {
      // The result comes after the event's task, from the runtime's worker. The main thread
      // stays free meanwhile, as in a browser, which lays out at the next frame, not here:
      // the layout is forced (and timed) once, after the result is written.
      const done = await updated(watched, befores);
      ok = done !== null;
      if (ok) { later = true; total = done.written - t0; layout = done.layout; }
    }
    if (ok && act.fire.after) run = await act.fire.after(befores[0], t0);
    const sum = (f) => timings.reduce((acc, t) => acc + f(t), 0);
    samples.push({ action: act.label, ok, error, total, feedback: t1 - t0, later,
                   compute: inCompute, history: inHistory, layout, moving, pace,
                   reached: sum((t) => t.start - t.sent), python: sum((t) => t.end - t.start),
                   waited: sum((t) => t.arrived - t.posted),
                   bytes: sum((t) => t.bytes),
                   // a click whose view came in no answer after the press: computed at the press
                   early: Boolean(act.fire.pressed) && ok && timings.length === 0,
                   followers: watched.length - 1, run });
    await frame();
  }
  runtime.compute = compute;
  runtime.onTiming = null;
  history.replaceState = replaceState;
  root.querySelector("[data-action=reset]")?.click();
  await settled();  // the reset's views (and followers catching up) before the next widget
  return { samples, missing };
}
"""


def cpython_reference(name, params, repeats=50, budget_s=2.0):
    """Median ms of pycore.widgets.call_json(name, params) in this process (JSON included);
    fewer repeats for a slow view (the code lab runs a whole program: ~1 s each)."""
    from pycore.widgets import call_json
    text = json.dumps(params)
    call_json(name, text)  # imports, first-call caches
    times = []
    start = time.perf_counter()
    while len(times) < repeats and (len(times) < 3 or time.perf_counter() - start < budget_s):
        t = time.perf_counter()
        call_json(name, text)
        times.append(1000 * (time.perf_counter() - t))
    return statistics.median(times)


# A fresh worker runs Pyodide's WebAssembly on V8's baseline tier until its hot functions are
# optimised: the first page measured was 2-3x slower than the same widget measured later
# (softmax 7.5 vs 2.8 ms median). So before the first page, every widget of the book computes
# its default view over and over for a few seconds (the code lab, a whole program, aside). No
# state a move visits is cached by that: each widget's block starts from its defaults.
WARM_JS = r"""
async ({ names, seconds }) => {
  const base = new URL(document.querySelector('meta[name="tbook-root"]').content, document.baseURI);
  const { bootRuntime } = await import(new URL("assets/runtime.js", base).href);
  const runtime = await bootRuntime();
  const end = performance.now() + 1000 * seconds;
  let calls = 0;
  while (names.length && performance.now() < end) {
    for (const name of [...names]) {
      try { await runtime.compute(name, {}); calls++; }
      catch (notHere) { names.splice(names.indexOf(name), 1); }  // e.g. the model's weights
    }                                                            // come with its own page
  }
  return calls;
}
"""


# What a trace records (--trace): tasks and frames (style, layout, paint, commit), user timing.
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel",
                    "blink.user_timing", "blink", "cc", "v8",
                    "disabled-by-default-devtools.timeline.frame"]


def warm_up(page, names, seconds=8):
    names = sorted(set(names) - {"code-lab"})
    return page.evaluate(WARM_JS, {"names": names, "seconds": seconds})


def page_widgets(page, only=()):
    """[id, name, params] of the page's widgets (those named in only, if given)."""
    widgets = page.eval_on_selector_all(
        "[data-widget]", "els => els.map(e => [e.id, e.dataset.widget, JSON.parse(e.dataset.params)])")
    return [w for w in widgets if not only or w[1] in only]


def measure_page(page, widgets, n, profile=False, cadence="still", press=PRESS_MS):
    """Run the interactions for every widget of an open, live page."""
    results = []
    cdp = page.context.new_cdp_session(page) if profile else None
    if cdp:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 100})  # microseconds
    for wid, name, params in widgets:
        actions = ACTIONS.get(name, FALLBACK)
        if cdp:
            cdp.send("Profiler.start")
        out = page.evaluate(MEASURE_JS, {"id": wid, "actions": actions, "n": n,
                                         "cadence": cadence, "press": press})
        if cdp:
            out["profile"] = self_times(cdp.send("Profiler.stop")["profile"])
        results.append({"id": wid, "name": name, "params": params, "fallback": name not in ACTIONS,
                        **out})
    return results


def self_times(profile):
    """{function label: self ms} from a CDP CPU profile; Pyodide's WebAssembly is one label."""
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    out = {}
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"]):
        frame = nodes[node_id]
        url = frame["url"]
        if url.startswith("wasm://") or url.endswith(".wasm") or frame["functionName"].startswith("$"):
            label = "(Pyodide WebAssembly)"
        elif frame["functionName"] in ("(idle)", "(program)", "(garbage collector)", "(root)"):
            label = frame["functionName"]
        else:
            label = f"{frame['functionName'] or '(anonymous)'} {url.rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1}"
        out[label] = out.get(label, 0) + delta / 1000
    return out


def print_profile(r, top=8):
    prof = {k: v for k, v in r.get("profile", {}).items() if k not in ("(idle)", "(root)")}
    busy = sum(prof.values())
    if not busy:
        return
    print(f"    CPU profile of {r['id']} ({busy:.0f} ms sampled, idle left out): "
          + "; ".join(f"{label} {ms / busy:.0%}" for label, ms in
                      sorted(prof.items(), key=lambda kv: -kv[1])[:top]))


def summarise(r, cpython_ms):
    ok = [s for s in r["samples"] if s["ok"]]
    total = [s["total"] for s in ok]
    row = {"id": r["id"], "name": r["name"], "n": len(ok), "invalid": len(r["samples"]) - len(ok),
           "missing": r["missing"], "cpython": cpython_ms}
    if ok:
        # the round trip's figures are of the inputs that asked after the event (not those
        # whose view was computed at the press, during the press)
        asked = [s for s in ok if not s.get("early")] or ok
        row.update(median=statistics.median(total), p95=percentile(total, 95), max=max(total),
                   compute=statistics.median(s["compute"] for s in asked),
                   compute_p95=percentile([s["compute"] for s in asked], 95),
                   reached=statistics.median(s.get("reached", 0) for s in asked),
                   python=statistics.median(s.get("python", 0) for s in asked),
                   waited=statistics.median(s.get("waited", 0) for s in asked),
                   history=statistics.median(s["history"] for s in ok),
                   layout=statistics.median(s["layout"] for s in ok),
                   layout_p95=percentile([s["layout"] for s in ok], 95))
        row["meets"] = row["p95"] < 16  # a frame; the median is reported, not a goal
        row["early"] = sum(1 for s in ok if s.get("early"))
        later = [s for s in ok if s.get("later")]
        if later:  # the result came a frame or more after the event: also say when it showed
            feedback = [s["feedback"] for s in later]
            row["later"] = {"n": len(later), "feedback": statistics.median(feedback),
                            "feedback_p95": percentile(feedback, 95)}
        by_action = {}
        for s in ok:
            by_action.setdefault(s["action"], []).append(s["total"])
        row["slowest_action"] = max(by_action, key=lambda a: statistics.median(by_action[a]))
        row["slowest_action_median"] = statistics.median(by_action[row["slowest_action"]])
        moving = [s for s in ok if s.get("moving")]
        if moving:  # input while an earlier change still animated: frames ahead of the answer
            still = [s for s in ok if not s.get("moving")]
            row["moving"] = {"n": len(moving),
                             "waited": statistics.median(s["waited"] for s in moving),
                             "still_waited": statistics.median(s["waited"] for s in still)
                             if still else None}
        followers = [s["followers"] for s in ok if s.get("followers")]
        if followers:
            row["followers"] = {"samples": len(followers), "max": max(followers)}
    runs = [s["run"] for s in r["samples"] if s.get("run")]
    if runs:  # runs of code: not interactions, reported apart and not against the goal
        row["runs"] = {"n": len(runs), "median": statistics.median(runs),
                       "p95": percentile(runs, 95)}
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=120, help="interactions per widget (>= 100)")
    ap.add_argument("--only", default="", help="comma-separated widget names")
    ap.add_argument("--json", type=Path, help="also write every sample to this file")
    ap.add_argument("--embeds", action="store_true",
                    help="also the embed-*.html pages (one widget each, for blogs)")
    ap.add_argument("--cadence", choices=["still", "frame", "both"], default="still",
                    help="still: each input once the earlier change stopped moving (default); "
                         "frame: one frame after the last update, in its motion; both: "
                         "alternated, a row each")
    ap.add_argument("--press", type=float, default=PRESS_MS,
                    help=f"ms from the pointer going down to the click, for click inputs "
                         f"(default {PRESS_MS:g}; 0: no press before the click)")
    ap.add_argument("--trace", type=Path,
                    help="also record a Chromium trace of the measured pages to this file (main "
                         "thread, worker, compositor: open it in Perfetto; use with --only)")
    ap.add_argument("--reduced-motion", action="store_true",
                    help="the page as for a reader who asks for no motion (figures.css: no "
                         "transitions), to measure what the figures' motion costs an input")
    ap.add_argument("--profile", action="store_true",
                    help="also record a CPU profile per widget and print where its time goes "
                         "(profiling slows the page: use the timings of a run without it)")
    args = ap.parse_args()
    only = {w for w in args.only.split(",") if w}
    from playwright.sync_api import sync_playwright

    print(f"# interaction benchmark; {load_note()}")
    raw, rows = [], []
    with built_site() as site, serving(site) as base, sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(
            reduced_motion="reduce" if args.reduced_motion else "no-preference")
        for page_name, names in chapters_with_widgets(site, embeds=args.embeds):
            if only and not set(names) & only:
                continue  # none of the widgets asked for: the page is not even opened
            html = site / page_name
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(base + html.name)
            wait_all_live(page)
            widgets = page_widgets(page, only)
            if not raw:
                every = {n for _, names in chapters_with_widgets(site) for n in names}
                print(f"# warm-up: {warm_up(page, every)} default views of every widget first")
            if args.trace:  # the page's threads, the runtime's worker among them
                browser.start_tracing(page=page, path=args.trace.with_stem(
                    f"{args.trace.stem}-{html.stem}"), categories=TRACE_CATEGORIES)
            results = measure_page(page, widgets, args.n, profile=args.profile,
                                   cadence=args.cadence, press=args.press)
            if args.trace:
                browser.stop_tracing()
            for r in results:
                r["page"] = html.name
                raw.append(r)
                cpython_ms = cpython_reference(r["name"], r["params"])
                paces = ["still", "frame"] if args.cadence == "both" else [args.cadence]
                for pace in paces:  # "both": a row per cadence, from alternated samples
                    part = r if len(paces) == 1 else {
                        **r, "id": f"{r['id']} {pace}",
                        "samples": [s for s in r["samples"] if s["pace"] == pace]}
                    row = summarise(part, cpython_ms)
                    rows.append(row)
                    print_row(row, html.name)
                print_profile(r)
            if errors:
                print(f"  page errors on {html.name}: {errors[:3]}")
            page.close()
        browser.close()
    print_summary(rows)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "raw": raw}, ensure_ascii=False), encoding="utf-8")


HEADER = (f"{'widget (id)':<26} {'page':<28} {'n':>4} {'median':>7} {'p95':>7} {'max':>7} "
          f"{'compute':>8} {'reached':>7} {'python':>7} {'waited':>7} {'history':>8} {'layout':>7} "
          f"{'CPython':>8}  goal")
printed_header = False


def print_row(row, page):
    global printed_header
    if not printed_header:
        print("times in ms; median/p95/max: event dispatch -> DOM written; compute: median inside "
              "runtime.compute, of the inputs that asked after their event (not at a press); "
              "of it reached: request posted -> Python starts on it in the "
              "worker, python: call_json in the worker, waited: the answer "
              "posted -> its message event on the page (the main thread busy); history: median "
              "inside history.replaceState (the URL state); layout: median forced style+layout "
              "after; CPython: call_json here")
        print(HEADER)
        printed_header = True
    if not row["n"]:
        print(f"{row['id']:<26} {page:<28} no valid sample (missing: {row['missing']})")
        return
    note = "" if not row["invalid"] else f"  ({row['invalid']} samples without an update dropped)"
    if row["missing"]:
        note += f"  (no element for: {', '.join(row['missing'])})"
    if row.get("followers"):
        f = row["followers"]
        note += (f"  (in {f['samples']} samples, up to {f['max']} widgets following the "
                 f"example were on screen: the time is until they showed the edit too)")
    if row.get("moving"):
        m = row["moving"]
        still = "" if m["still_waited"] is None else f", {m['still_waited']:.1f} otherwise"
        note += (f"  ({m['n']} inputs while an earlier change still animated: the answer "
                 f"waited {m['waited']:.1f} ms median for the main thread{still})")
    if row.get("early"):
        note += f"  ({row['early']} clicks found their view computed at the press)"
    if row.get("later"):
        later = row["later"]
        note += (f"  ({later['n']} results shown after the event's frame; the event itself "
                 f"answered in {later['feedback']:.1f} ms median, p95 {later['feedback_p95']:.1f})")
    print(f"{row['id']:<26} {page:<28} {row['n']:>4} {row['median']:>7.2f} {row['p95']:>7.2f} "
          f"{row['max']:>7.1f} {row['compute']:>8.2f} {row['reached']:>7.2f} {row['python']:>7.2f} "
          f"{row['waited']:>7.2f} "
          f"{row['history']:>8.2f} {row['layout']:>7.2f} {row['cpython']:>8.2f}  "
          f"{'meets' if row['meets'] else 'MISSES'}{note}", flush=True)
    if row.get("runs"):
        runs = row["runs"]
        print(f"{'':<26} runs of the code (click -> result shown; not an interaction, no goal): "
              f"n {runs['n']}, median {runs['median']:.0f} ms, p95 {runs['p95']:.0f} ms",
              flush=True)


def print_summary(rows):
    measured = [r for r in rows if r["n"]]
    meets = [r for r in measured if r["meets"]]
    print(f"\n{len(meets)} of {len(rows)} widgets meet p95 < 16 ms (a frame)")
    for r in sorted(measured, key=lambda r: -r["p95"])[:5]:
        print(f"  slowest p95: {r['id']:<24} p95 {r['p95']:.2f} ms, median {r['median']:.2f} ms; "
              f"slowest action {r['slowest_action']!r} (median {r['slowest_action_median']:.2f} ms); "
              f"compute (of inputs asking after their event) {r['compute'] / r['median']:.0%} "
              f"of the median" if r["median"] else "")


if __name__ == "__main__":
    main()
