// Pointing at one part of a widget lights up its partners, and says what it shows: the same
// in every widget, with the mouse (hover) and the keyboard (focus); nothing needs the hover
// to be understood (every value is also in the 数值 tables).
// - data-tokens="3" or "3 5": the sentence positions an element stands for. A token (one
//   position) lights up every element holding it (its row and column of a heatmap, its
//   curve, its bar); a cell or curve (two positions) lights up the elements of exactly one of
//   them (the two tokens, their labels). Lit elements get the class "linked".
// - data-say="text" (bound from the view, e.g. "它 → 小猫：0.2101"): shown in its figure's
//   [data-readout] line (the one in the same .part, else the widget's first) while the
//   element is pointed at or focused.
// - data-roving="n" on a figure: its [data-say] parts are one Tab stop, the arrow keys move
//   between them (n columns: up and down move by a row; n = 0: a single row); a part that
//   is data-hidden (an unused slot) is not stepped onto.

const tokensOf = (el) => el.dataset.tokens.split(" ").filter(Boolean);

function partners(root, el) {
  const mine = tokensOf(el);
  return [...root.querySelectorAll("[data-tokens]")].filter((other) => {
    const theirs = tokensOf(other);
    if (mine.length === 1) return theirs.includes(mine[0]);
    return theirs.length === 1 && mine.includes(theirs[0]);
  });
}

function rovingParts(figure) {
  const parts = [...figure.querySelectorAll("[data-say]")];
  const cols = Number(figure.dataset.roving) || parts.length;
  parts.forEach((p, k) => { p.tabIndex = k === 0 ? 0 : -1; p.setAttribute("focusable", "true"); });
  const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols };
  figure.addEventListener("keydown", (event) => {
    const at = parts.indexOf(document.activeElement);
    if (at < 0 || !(event.key in moves)) return;
    const to = at + moves[event.key];
    if (to < 0 || to >= parts.length || parts[to].hasAttribute("data-hidden")) return;
    event.preventDefault();
    parts[at].tabIndex = -1;
    parts[to].tabIndex = 0;
    parts[to].focus();
  });
}

// The readout line for a part: its figure's own (a .part holds a figure and its readout),
// else the widget's first.
function readoutOf(root, el) {
  return el.closest(".part")?.querySelector("[data-readout]") ?? root.querySelector("[data-readout]");
}

export function enableLinking(root) {
  root.querySelectorAll("[data-roving]").forEach(rovingParts);
  // what each readout says until something is pointed at: its hint for the mouse and the
  // one for a finger (_macros.html readout_line; figures.css shows the pointer's own)
  const idle = new Map([...root.querySelectorAll("[data-readout]")]
    .map((r) => [r, [...r.childNodes].map((n) => n.cloneNode(true))]));
  let lit = [];
  const clear = () => {
    lit.forEach((el) => el.classList.remove("linked"));
    lit = [];
    idle.forEach((nodes, readout) => {
      if (readout.textContent !== nodes.map((n) => n.textContent).join(""))
        readout.replaceChildren(...nodes.map((n) => n.cloneNode(true)));
    });
  };
  const point = (event) => {
    const el = event.target.closest?.("[data-tokens], [data-say]");
    if (!el || !root.contains(el)) return;
    clear();
    if (el.dataset.tokens) {
      lit = partners(root, el);
      lit.forEach((other) => other.classList.add("linked"));
    }
    const readout = el.dataset.say && readoutOf(root, el);
    if (readout) readout.textContent = el.dataset.say;
  };
  root.addEventListener("pointerover", point);
  root.addEventListener("focusin", point);
  root.addEventListener("pointerleave", clear);
  root.addEventListener("focusout", (event) => {
    if (!root.contains(event.relatedTarget)) clear();
  });
}
