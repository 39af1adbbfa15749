// The book's controls, wired generically: every [data-control] of a widget sets the parameter
// it names, and shows the state it is given. The markup (and each control's range, step and
// scale) comes from the PARAMS spec through templates/widgets/_controls.html; nothing here
// knows a widget. Kinds (data-kind):
//   range     <input type=range>; data-scale="log": the slider moves log10 of the value
//   steps     <input type=range> over a choice parameter's choices (data-choices, JSON):
//             the slider moves the choice's index
//   number    <input type=number>; with data-index, one entry of a vector parameter
//   choice    a radiogroup of buttons, each data-value = the choice as JSON (segmented)
//   switch    a button role=switch (on/off)
//   stepper   a spinbutton: − and + buttons (data-step) around the value, within
//             data-min..data-max (data-max may be bound: read at each step); the arrow keys
//             step it, Home and End go to its ends
//   play      (data-play, not a data-control) ▶ 播放 / ❚❚ 暂停 beside a stepper: steps the
//             parameter it names by one at a steady pace to data-max (wirePlay)
// Keyboard, the same in every widget: a group (radiogroup, stepper) is one Tab stop; the arrow
// keys move inside it (and choose); Enter and Space press a button.
// A press on a button (the pointer down, or Space down) asks ahead for the view its click
// will ask for (liveWidget's `ahead`, common.js), so that the click finds it computed.

const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

function readRange(el) {
  let x = Number(el.value);
  if (el.dataset.scale === "log") x = 10 ** x;
  x = clamp(x, Number(el.dataset.min), Number(el.dataset.max));
  return el.dataset.type === "int" ? Math.round(x) : x;
}

function showRange(el, value) {
  const x = el.dataset.scale === "log" ? Math.log10(value) : value;
  if (Math.abs(Number(el.value) - x) > 1e-9) el.value = String(x);
}

// Arrow keys move the focus (and the choice) among a group's items; one of them is tabbable.
export function roving(group, items, onMove) {
  const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  group.addEventListener("keydown", (event) => {
    const list = items();
    const at = list.indexOf(document.activeElement);
    if (at < 0) return;
    let to = null;
    if (event.key in keys) to = (at + keys[event.key] + list.length) % list.length;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = list.length - 1;
    if (to === null) return;
    event.preventDefault();
    list[to].focus();
    onMove?.(list[to]);
  });
}

// At a press on el (the main button), widget.ahead(changes(event)) unless changes gives null;
// nothing before the widget's first view (its controls are not live yet).
export function askAtPress(el, widget, changes) {
  onPress(el, (event) => {
    if (!widget.view) return;
    const asked = changes(event);
    if (asked) widget.ahead?.(asked);
  });
}

// A press on a button: the main pointer button going down, or Space (a button's click comes
// when Space goes up; Enter clicks at once, so there is nothing to ask ahead of it).
export function onPress(el, pressed) {
  el.addEventListener("pointerdown", (event) => { if (event.button === 0) pressed(event); });
  el.addEventListener("keydown", (event) => { if (event.key === " " && !event.repeat) pressed(event); });
}

// Update the widget with changes, unless there are none (null).
export function updateWith(widget, changes) {
  if (changes) widget.update(changes);
}

// A widget's own button: its click updates the widget with changes() (null: nothing to
// change), and its press asks ahead for that view.
export function wireButton(el, widget, changes) {
  el.addEventListener("click", () => updateWith(widget, changes()));
  askAtPress(el, widget, changes);
}

function tabStop(items, current) {
  items.forEach((b) => { b.tabIndex = b === current ? 0 : -1; });
}

// Wire root's controls to widget.update; returns sync(state), which shows a state in them.
export function wireControls(root, widget) {
  const syncs = [];
  for (const el of root.querySelectorAll("[data-control][data-kind]")) {
    const name = el.dataset.control;
    const kind = el.dataset.kind;
    if (kind === "range") {
      el.addEventListener("input", () => widget.update({ [name]: readRange(el) }));
      syncs.push((state) => showRange(el, state[name]));
    } else if (kind === "steps") {
      syncs.push(wireSteps(el, name, widget));
    } else if (kind === "number") {
      const index = el.dataset.index === undefined ? null : Number(el.dataset.index);
      el.addEventListener("input", () => {
        const x = Number(el.value);
        if (el.value === "" || !Number.isFinite(x) || x < Number(el.min) || x > Number(el.max)) {
          return;  // keep typing
        }
        if (index === null) { widget.update({ [name]: x }); return; }
        const vector = [...widget.state[name]];
        vector[index] = x;
        widget.update({ [name]: vector });
      });
      syncs.push((state) => {
        const x = index === null ? state[name] : state[name][index];
        if (Number(el.value) !== x) el.value = String(x);
      });
    } else if (kind === "choice") {
      const options = () => [...el.querySelectorAll("[data-value]")];
      const pick = (b) => widget.update({ [name]: JSON.parse(b.dataset.value) });
      // one listener for the group: a button that gets its value later (a slot of a list
      // that changes between views, _controls.html choice_slots) picks too
      const pressed = (event) => {
        const b = event.target.closest("[data-value]");
        return b && el.contains(b) && !b.disabled ? b : null;
      };
      el.addEventListener("click", (event) => {
        const b = pressed(event);
        if (b) pick(b);
      });
      askAtPress(el, widget, (event) => {
        const b = pressed(event);
        return b && { [name]: JSON.parse(b.dataset.value) };
      });
      roving(el, options, pick);
      syncs.push((state) => {
        // the reader's pick; when no button offers it (a token the sentence lacks), what the
        // view used instead (its fallback, e.g. 它), and the pick comes back with its token
        let chosen = JSON.stringify(state[name]);
        const offered = options().some((b) => b.dataset.value === chosen);
        if (!offered && widget.view?.[name] !== undefined) {
          chosen = JSON.stringify(widget.view[name]);
        }
        let current = null;
        // every button, also a slot left without a value by a shorter list (its check goes)
        el.querySelectorAll("[aria-checked]").forEach((b) => {
          const on = b.dataset.value === chosen;
          b.setAttribute("aria-checked", String(on));
          if (on) current = b;
        });
        tabStop(options(), current ?? options()[0]);
      });
    } else if (kind === "switch") {
      wireButton(el, widget, () => ({ [name]: !widget.state[name] }));
      syncs.push((state) => el.setAttribute("aria-checked", String(Boolean(state[name]))));
    } else if (kind === "stepper") {
      const lo = Number(el.dataset.min);
      const hi = () => Number(el.dataset.max);  // bound when the end follows the view
      // at an end there is nothing new to ask pycore for
      const moved = (to) => {
        const next = clamp(to, lo, hi());
        return next !== widget.state[name] ? { [name]: next } : null;
      };
      const go = (to) => updateWith(widget, moved(to));
      const step = (d) => go(widget.state[name] + d);
      const buttons = () => [...el.querySelectorAll("[data-step]")];
      buttons().forEach((b) => wireButton(b, widget,
                                          () => moved(widget.state[name] + Number(b.dataset.step))));
      el.addEventListener("keydown", (event) => {
        const d = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
        const end = { Home: lo, End: hi() }[event.key];
        if (d === undefined && end === undefined) return;
        event.preventDefault();
        if (d !== undefined) step(d); else go(end);
      });
      syncs.push((state) => {
        el.setAttribute("aria-valuenow", String(state[name]));
        buttons().forEach((b) => {
          const d = Number(b.dataset.step);
          b.disabled = state[name] + d < lo || state[name] + d > hi();
        });
      });
    }
  }
  root.querySelectorAll("[data-play]").forEach((el) => wirePlay(el, root, widget));
  return (state) => syncs.forEach((sync) => sync(state));
}

// The pace of ▶ 播放: one step this often, slow enough to read what changed.
export const PLAY_MS = 800;
const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// ▶ 播放 steps the parameter data-play names by one, from the step shown to data-max (bound
// when the end follows the view; a play at the end starts again from data-min). Each step is
// asked once the previous view is drawn and PLAY_MS have passed since it was asked, so a slow
// worker never gathers a queue of steps. The reader's other inputs to the widget pause it, and
// so does the widget leaving the screen or the page being hidden. Motion follows the reader's
// setting as for any input (figures.css): with reduced motion, play steps without easing.
function wirePlay(el, root, widget) {
  const name = el.dataset.play;
  const lo = Number(el.dataset.min);
  const hi = () => Number(el.dataset.max);
  let run = null;  // the token of the loop now playing, while there is one
  const show = (playing) => {
    el.querySelector(".play-icon").textContent = playing ? "❚❚" : "▶";
    el.querySelector(".play-label").textContent = playing ? "暂停" : "播放";
    if (playing) el.dataset.playing = ""; else delete el.dataset.playing;
  };
  const pause = () => { run = null; show(false); };
  async function play() {
    const mine = {};
    run = mine;
    show(true);
    try {
      let at = widget.state[name] >= hi() ? lo : widget.state[name] + 1;
      for (;;) {
        const paced = wait(PLAY_MS);
        await widget.update({ [name]: at });
        // at the end; or held short of the step asked (a widget whose view clamps it): its end
        const now = widget.state[name];
        if (run !== mine || now >= hi() || now < at) break;
        await paced;
        if (run !== mine) break;
        at = widget.state[name] + 1;
      }
    } finally {
      if (run === mine) pause();
    }
  }
  el.addEventListener("click", () => (run ? pause() : play()));
  // any other input to the widget is the reader taking over (a step button's press included)
  const other = (event) => { if (run && !el.contains(event.target)) pause(); };
  for (const type of ["pointerdown", "input", "change"]) root.addEventListener(type, other, true);
  root.addEventListener("keydown", (event) => {
    if (!["Tab", "Shift", "Control", "Alt", "Meta"].includes(event.key)) other(event);
  }, true);
  document.addEventListener("visibilitychange", () => { if (document.hidden) pause(); });
  new IntersectionObserver((entries) => {
    if (!entries.at(-1).isIntersecting) pause();
  }).observe(root);
}

// A slider stepping through a choice parameter's choices; returns its sync(state).
function wireSteps(el, name, widget) {
  const choices = JSON.parse(el.dataset.choices);
  el.addEventListener("input", () => widget.update({ [name]: choices[Number(el.value)] }));
  return (state) => {
    const at = String(choices.indexOf(state[name]));
    if (el.value !== at) el.value = at;
  };
}
