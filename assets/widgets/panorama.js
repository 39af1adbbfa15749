// Widget panorama: the blocks of a decoder-only forward pass; a click (or Enter / Space on a
// focused block) selects one, the panel explains it with its shapes, parameters and links.
// d, V and L come from number inputs. pycore: pycore/widgets/panorama.py.
import { liveWidget } from "./common.js";

const SIZES = ["d_model", "vocab", "layers"];

export function mount(root, runtime) {
  const buttons = [...root.querySelectorAll("[data-block]")];
  const inputs = Object.fromEntries(SIZES.map((k) => [k, root.querySelector(`[data-control=${k}]`)]));
  const linkList = root.querySelector(".pano-link-list");

  const draw = (view) => {
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.block === view.block)));
    root.querySelectorAll(".pano-inner").forEach((el) => { el.hidden = !view.sel.inner; });
    linkList.replaceChildren(...view.sel.links.map((l) => {
      const a = document.createElement("a");
      a.href = l.href;
      a.textContent = l.title;
      return a;
    }));
  };
  const sync = (state) => {
    SIZES.forEach((k) => {
      if (Number(inputs[k].value) !== state[k]) inputs[k].value = state[k];
    });
  };
  const widget = liveWidget(root, runtime, { draw, sync });

  buttons.forEach((b) => b.addEventListener("click", () => {
    if (b.dataset.block !== widget.state.block) widget.update({ block: b.dataset.block });
  }));
  SIZES.forEach((k) => {
    const input = inputs[k];
    input.addEventListener("input", () => {
      const n = Number(input.value);
      // keep typing until the value is a whole number in range
      if (input.value === "" || !Number.isInteger(n) || n < Number(input.min) || n > Number(input.max)) return;
      if (n !== widget.state[k]) widget.update({ [k]: n });
    });
  });
}
