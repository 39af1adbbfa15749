// Widget char-gpt-inside: a box for any text; pycore/widgets/char_gpt_inside/__init__.py reads it with
// the poem model and returns the picked head's attention over the last characters read and the
// logit lens at the last one. What is special here: the box's text is a page input, sent with
// every request (never part of the widget's state, so never in a shared link), as in char-gpt.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const box = root.querySelector(".cgi-text");
  // A press on a character or a head asks ahead (common.js): the lens at a character costs
  // some 15 ms in Pyodide, done while the button is down.
  const widget = liveWidget(root, runtime, { inputs: () => ({ text: box.value }),
                                             resetInputs: () => { box.value = box.defaultValue; } });
  const enable = () => { box.disabled = root.dataset.state !== "live"; };
  new MutationObserver(enable).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  enable();
  box.addEventListener("input", () => widget.update({}));
}
