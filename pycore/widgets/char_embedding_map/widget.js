// Widget char-embedding-map: a search box for one character; pycore/widgets/
// char_embedding_map.py marks it and its nearest neighbours on the map of the character
// embeddings. What is special here: the box's text is a page input, sent with every request
// (never part of the widget's state, so never in a shared link), as in char-gpt.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const box = root.querySelector(".cem-query");
  const widget = liveWidget(root, runtime, { inputs: () => ({ query: box.value }),
                                            resetInputs: () => { box.value = box.defaultValue; } });
  const enable = () => { box.disabled = root.dataset.state !== "live"; };
  new MutationObserver(enable).observe(root, { attributes: true, attributeFilter: ["data-state"] });
  enable();
  box.addEventListener("input", () => widget.update({}));
}
