// Widget panorama: the blocks of a decoder-only forward pass (Pre-LN, as GPT-2); choosing one
// (a click, the arrow keys, Enter) shows its explanation, shapes, parameters and links; d, V
// and L are number boxes. pycore: pycore/widgets/panorama.py (numbers and the diagram's
// layout). The blocks are the choices of `block`, wired by controls.js like every choice;
// what is special here: they are SVG shapes, not buttons, so Enter and Space press them; and
// the page already holds the diagram (built), so it asks for the numbers only (`drawn`).
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const drawn = {
    compute: (name, params, texts) => runtime.compute(name, { ...params, drawn: true }, texts),
  };
  liveWidget(root, drawn);
  root.querySelector("[data-control=block]").addEventListener("keydown", (event) => {
    const block = event.target.closest("[data-value]");
    if (!block || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    block.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
}
