// Widget permutation: reorder the sentence (shuffle with seed + 1, reverse, rotate, arrow keys
// on a focused word, or drag a word onto another slot), switch positional encoding on and off.
// pycore: pycore/widgets/permutation.py (the state holds the seed and, once the reader moves
// words by hand, the explicit order perm).
import { liveWidget } from "./common.js";

const MAX_SEED = 9999;


export function mount(root, runtime) {
  const chips = [...root.querySelectorAll(".perm-chip")];
  const positions = root.querySelector("[data-control=positions]");
  const action = (name) => root.querySelector(`[data-action="${name}"]`);

  const draw = (view) => {
    chips.forEach((chip, s) => {
      chip.setAttribute("aria-label", `第 ${s + 1} 个位置：${view.tokens[s]}`);
    });
  };
  const sync = (state) => { positions.checked = state.positions; };
  const widget = liveWidget(root, runtime, { draw, sync });
  const order = () => [...widget.view.perm];

  function move(from, to) {
    if (to < 0 || to >= chips.length || to === from) return false;
    const perm = order();
    const [token] = perm.splice(from, 1);
    perm.splice(to, 0, token);
    widget.update({ perm });
    return true;
  }

  action("shuffle").addEventListener("click", () => {
    widget.update({ seed: widget.state.seed >= MAX_SEED ? 1 : widget.state.seed + 1, perm: [] });
  });
  action("reverse").addEventListener("click", () => widget.update({ perm: order().reverse() }));
  action("rotate").addEventListener("click", () => {
    const perm = order();
    widget.update({ perm: [...perm.slice(1), perm[0]] });
  });
  positions.addEventListener("change", () => widget.update({ positions: positions.checked }));

  chips.forEach((chip, s) => {
    chip.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step || root.dataset.state !== "live") return;
      event.preventDefault();
      if (move(s, s + step)) chips[s + step].focus();
    });
    chip.addEventListener("pointerdown", (event) => {
      if (root.dataset.state !== "live") return;
      chip.setPointerCapture(event.pointerId);
      chip.classList.add("dragging");
    });
    const drop = (event) => {
      if (!chip.hasPointerCapture(event.pointerId)) return;
      chip.releasePointerCapture(event.pointerId);
      chip.classList.remove("dragging");
      const target = document.elementFromPoint(event.clientX, event.clientY)?.closest(".perm-chip");
      if (target && root.contains(target)) {
        const to = Number(target.dataset.slot);
        if (move(s, to)) chips[to].focus();
      }
    };
    chip.addEventListener("pointerup", drop);
    chip.addEventListener("pointercancel", () => chip.classList.remove("dragging"));
  });
}
