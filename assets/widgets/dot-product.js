// Widget dot-product: drag (mouse, touch, pen) or arrow-key the tips of a and b.
// pycore: pycore/widgets/dot_product.py. Plane: 1 unit = 30 SVG px, y pointing up.
import { fmt, liveWidget } from "./common.js";

const UNIT = 30;
const LIMIT = 4;
const snap = (x) => Math.round(Math.min(LIMIT, Math.max(-LIMIT, x)) * 10) / 10;

export function mount(root, runtime) {
  const svg = root.querySelector("svg.plane");
  const part = (sel, key) => root.querySelector(`[${sel}="${key}"]`);

  function draw(view) {
    for (const key of ["a", "b"]) {
      const [x, y] = view[key];
      const line = part("data-arrow", key);
      line.setAttribute("x2", x * UNIT);
      line.setAttribute("y2", -y * UNIT);
      const tip = part("data-tip", key);
      tip.setAttribute("cx", x * UNIT);
      tip.setAttribute("cy", -y * UNIT);
      tip.setAttribute("aria-valuetext", `(${fmt(x, 1)}, ${fmt(y, 1)})`);
      const label = part("data-label", key);
      label.setAttribute("x", x * UNIT + 10);
      label.setAttribute("y", -y * UNIT - 10);
    }
  }

  const widget = liveWidget(root, runtime, { draw });

  function toPlane(event) {
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [snap(p.x / UNIT), snap(-p.y / UNIT)];
  }

  for (const key of ["a", "b"]) {
    const tip = part("data-tip", key);
    tip.addEventListener("pointerdown", (event) => {
      if (root.dataset.state !== "live") return;
      event.preventDefault();
      tip.setPointerCapture(event.pointerId);
      tip.focus();
    });
    tip.addEventListener("pointermove", (event) => {
      if (!tip.hasPointerCapture(event.pointerId)) return;
      const [x, y] = toPlane(event);
      const [ox, oy] = widget.state[key];
      if (x !== ox || y !== oy) widget.update({ [key]: [x, y] });
    });
    tip.addEventListener("keydown", (event) => {
      if (root.dataset.state !== "live") return;
      const step = event.shiftKey ? 0.5 : 0.1;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      const [x, y] = widget.state[key];
      widget.update({ [key]: [snap(x + move[0]), snap(y + move[1])] });
    });
  }
}
