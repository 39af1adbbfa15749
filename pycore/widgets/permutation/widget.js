// Widget permutation: reorder the sentence (shuffle with seed + 1, reverse, rotate, the arrow
// keys on a word, or drag a word onto another slot); the positions switch and the picture are
// the book's common ones. pycore: pycore/widgets/permutation/__init__.py (the state holds the seed and,
// once the reader moves words by hand, the explicit order perm). What is special here: the
// sortable sentence and the three reordering buttons. The page keeps a chip for each of the
// sentence's MAX_TOKENS slots; the view says how many the sentence uses (view.n). The view
// comes in parts: a new order brings the second heatmap and the lines, not the original outputs.
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const chips = [...root.querySelectorAll(".perm-chip")];
  const action = (name) => root.querySelector(`[data-action="${name}"]`);
  const maxSeed = Number(action("shuffle").dataset.max);  // the seed's range, from PARAMS
  const live = () => root.dataset.state === "live";

  // The sentence is one Tab stop: the focused word is the tabbable one.
  const focusSlot = (s) => {
    chips.forEach((chip, k) => { chip.tabIndex = k === s ? 0 : -1; });
    chips[s].focus();
  };
  const draw = (part, view) => {
    chips.forEach((chip, s) => {
      if (s < view.n) chip.setAttribute("aria-label", `第 ${s + 1} 个位置：${view.tokens[s]}`);
      else chip.removeAttribute("aria-label");
    });
    // a shorter sentence may have hidden the tabbable chip: the first one takes its place
    if (chips.findIndex((chip) => chip.tabIndex === 0) >= view.n) {
      chips.forEach((chip, k) => { chip.tabIndex = k === 0 ? 0 : -1; });
    }
  };
  const widget = liveWidget(root, runtime, { draw });
  const order = () => [...widget.view.perm];
  const used = () => widget.view.n;  // the chips of the sentence's tokens

  function move(from, to) {
    if (to < 0 || to >= used() || to === from) return false;
    const perm = order();
    const [token] = perm.splice(from, 1);
    perm.splice(to, 0, token);
    widget.update({ perm });
    return true;
  }

  wireButton(action("shuffle"), widget,
             () => ({ seed: widget.state.seed >= maxSeed ? 1 : widget.state.seed + 1, perm: [] }));
  wireButton(action("reverse"), widget, () => ({ perm: order().reverse() }));
  wireButton(action("rotate"), widget, () => {
    const perm = order();
    return { perm: [...perm.slice(1), perm[0]] };
  });

  chips.forEach((chip, s) => {
    chip.addEventListener("keydown", (event) => {
      if (!live()) return;
      const shift = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      const look = { ArrowUp: -1, ArrowDown: 1 }[event.key];
      if (shift) {
        if (move(s, s + shift)) focusSlot(s + shift);  // the focus follows the word
      } else if (look) {
        focusSlot((s + look + used()) % used());
      } else if (event.key === "Home" || event.key === "End") {
        focusSlot(event.key === "Home" ? 0 : used() - 1);
      } else {
        return;
      }
      event.preventDefault();
    });
    chip.addEventListener("pointerdown", (event) => {
      if (!live()) return;
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
        if (move(s, to)) focusSlot(to);
      }
    };
    chip.addEventListener("pointerup", drop);
    chip.addEventListener("pointercancel", () => chip.classList.remove("dragging"));
  });
}
