// Widget encoder-layer: step through one encoder layer (the buttons, a click on a step, or the
// arrow keys on the step list) in the Post-LN or Pre-LN arrangement (the book's choice
// control), over the reader's sentence. pycore: pycore/widgets/encoder_layer/__init__.py (numbers,
// picture, the step list's names). What is special here: the number of steps depends on the
// layout, so moving is asked from the step shown (the view clamps a step past the end of the
// shorter list). The FFN's hidden layer, which depends on the layout and the reader's example
// alone, is a part of the view of its own (pycore's PARTS): a step does not bring it.
import { liveWidget } from "./common.js";
import { roving, updateWith, wireButton } from "./controls.js";

export function mount(root, runtime) {
  const prev = root.querySelector("[data-action=prev]");
  const next = root.querySelector("[data-action=next]");
  const list = root.querySelector(".enc-steps");
  const items = [...list.querySelectorAll("[role=option]")];

  const draw = (part, view) => list.setAttribute("aria-activedescendant", items[view.step - 1].id);
  const widget = liveWidget(root, runtime, { draw });

  const live = () => root.dataset.state === "live";
  // the changes that move to step(view on screen); null when not live, or already there
  const stepTo = (step) => {
    if (!live()) return null;
    const s = Math.min(widget.view.n_steps, Math.max(1, step(widget.view)));
    return s !== widget.view.step ? { step: s } : null;
  };
  const goto = (step) => updateWith(widget, stepTo(step));
  wireButton(prev, widget, () => stepTo((v) => v.step - 1));
  wireButton(next, widget, () => stepTo((v) => v.step + 1));
  // the two buttons are one Tab stop; the arrow keys move between them
  const buttons = [prev, next];
  const tabStop = (b) => buttons.forEach((x) => { x.tabIndex = x === b ? 0 : -1; });
  roving(prev.parentElement, () => buttons, tabStop);
  items.forEach((li) => wireButton(li, widget, () => stepTo(() => Number(li.dataset.step))));
  list.addEventListener("keydown", (event) => {
    if (!live()) return;
    const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (event.key in moves) goto((v) => v.step + moves[event.key]);
    else if (event.key === "Home") goto(() => 1);
    else if (event.key === "End") goto((v) => v.n_steps);
    else return;
    event.preventDefault();
  });
}
