// Widget panorama: the blocks of a decoder-only forward pass (Pre-LN, as GPT-2); choosing one
// (a click, the arrow keys, Enter) shows its explanation, shapes, parameters and links; d, V
// and L are number boxes. pycore: pycore/widgets/panorama/__init__.py (numbers and the diagram's
// layout). The blocks are the choices of `block`, wired by controls.js like every choice;
// what is special here: they are SVG shapes, not buttons, so Enter and Space press them. The
// view comes in parts: the diagram's layout once, then the numbers or the chosen block.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  liveWidget(root, runtime);
  root.querySelector("[data-control=block]").addEventListener("keydown", (event) => {
    const block = event.target.closest("[data-value]");
    if (!block || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    block.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
}
