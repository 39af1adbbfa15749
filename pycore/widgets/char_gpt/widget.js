// Widget char-gpt: a box for any text; pycore/widgets/char_gpt/__init__.py reads it with the poem
// model and returns the next character's distribution, the characters read and a seeded
// continuation. What is special here: the box's text is a page input, sent with every
// request (never part of the widget's state, so never in a shared link), and the row of
// characters read, whose length is the text's. Characters are written with textContent: typed
// markup stays text. The view comes in parts (__init__.py's PARTS): a slider brings no `read`.
import { liveWidget } from "./common.js";
import { wireButton } from "./controls.js";

export function mount(root, runtime) {
  const box = root.querySelector(".cg-text");
  const read = root.querySelector(".cg-read");
  function draw(part) {
    if (!("read" in part)) return;  // the text's part did not come: the row stands as it is
    read.replaceChildren(...part.read.map((r) => {
      const span = document.createElement("span");
      span.className = r.known ? "cg-char" : "cg-char unknown";
      span.textContent = r.c;
      return span;
    }));
  }
  const widget = liveWidget(root, runtime, { draw,
                                            inputs: () => ({ text: box.value }),
                                            resetInputs: () => { box.value = box.defaultValue; } });
  wireButton(root.querySelector("[data-action=sample]"), widget,
             () => ({ seed: widget.state.seed + 1 }));
  const enable = () => { box.disabled = root.dataset.state !== "live"; };
  new MutationObserver(enable).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  enable();
  box.addEventListener("input", () => widget.update({}));
}
