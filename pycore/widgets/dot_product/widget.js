// Widget dot-product: drag (mouse, touch, pen) or arrow-key the tips of a and b. pycore:
// pycore/widgets/dot_product/__init__.py draws everything (arrows, angle, projection); what is special
// here is the drag: a pointer position becomes a point of the plane through the plane's own
// extent and size (the svg's data-extent, data-size), snapped to 0.1 and kept within the
// coordinate's range (data-min, data-max: PARAMS). The grid is a part of the view the page
// gets once.
import { liveWidget } from "./common.js";

const snap = (x, lo, hi) => Math.round(Math.min(hi, Math.max(lo, x)) * 10) / 10;

export function mount(root, runtime) {
  const svg = root.querySelector("svg.dp-plane");
  const extent = Number(svg.dataset.extent);
  const size = Number(svg.dataset.size);
  const widget = liveWidget(root, runtime);

  for (const tip of root.querySelectorAll("[data-tip]")) {
    const key = tip.dataset.tip;
    const [lo, hi] = [Number(tip.dataset.min), Number(tip.dataset.max)];
    const move = (x, y) => {
      const [ox, oy] = widget.state[key];
      const next = [snap(x, lo, hi), snap(y, lo, hi)];
      if (next[0] !== ox || next[1] !== oy) widget.update({ [key]: next });
    };
    // SVG units (0..size, y down) -> the plane's coordinates (-extent..extent, y up)
    const toPlane = (event) => {
      const p = new DOMPoint(event.clientX, event.clientY)
        .matrixTransform(svg.getScreenCTM().inverse());
      return [(p.x / size) * 2 * extent - extent, extent - (p.y / size) * 2 * extent];
    };
    tip.addEventListener("pointerdown", (event) => {
      if (root.dataset.state !== "live") return;
      event.preventDefault();
      tip.setPointerCapture(event.pointerId);
      tip.focus();
    });
    tip.addEventListener("pointermove", (event) => {
      if (tip.hasPointerCapture(event.pointerId)) move(...toPlane(event));
    });
    tip.addEventListener("keydown", (event) => {
      if (root.dataset.state !== "live") return;
      const step = event.shiftKey ? 0.5 : 0.1;
      const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step],
                  ArrowDown: [0, -step] }[event.key];
      if (!d) return;
      event.preventDefault();
      const [x, y] = widget.state[key];
      move(x + d[0], y + d[1]);
    });
  }
}
