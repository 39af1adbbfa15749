// Widget chinchilla: set N (D follows 20N), D (N stays), or a compute budget C (N and D are
// split compute-optimally), or pick a real model. pycore: pycore/widgets/chinchilla.py.
// Which of the three the reader set last is carried by the parameters: flops > 0 decides N
// and D; else tokens > 0 is a given D; else D = 20N.
import { liveWidget } from "./common.js";

export function mount(root, runtime) {
  const control = (name) => root.querySelector(`[data-control="${name}"]`);
  const presets = [...root.querySelectorAll("[data-preset]")];
  const dot = root.querySelector('[data-part="dot"]');

  // Write a box unless the reader is typing in it; 4 significant digits are enough to read.
  const show = (el, value, digits = 4) => {
    if (el !== document.activeElement) el.value = Number(value.toPrecision(digits));
  };

  function draw(view) {
    dot.setAttribute("cx", view.ratio_x);
    show(control("params_b"), view.n_b);
    show(control("tokens_b"), view.d_b);
    show(control("flops"), view.flops, 3);
    control("log_params").value = view.log.params.toFixed(2);
    control("log_tokens").value = view.log.tokens.toFixed(2);
    control("log_flops").value = view.log.flops.toFixed(2);
    presets.forEach((b, i) => {
      b.setAttribute("aria-pressed", String(view.presets[i].name === view.preset));
    });
  }

  const widget = liveWidget(root, runtime, { draw });

  // The three ways in; each says which quantity the reader fixed.
  const setN = (n) => widget.update({ params: n, tokens: 0, flops: 0 });
  const setD = (d) => widget.update({ params: widget.view.params, tokens: d, flops: 0 });
  const setC = (c) => widget.update({ params: widget.view.params, tokens: 0, flops: c });

  // A number box recomputes once what is typed is a number in its range.
  function box(name, apply, scale = 1) {
    const el = control(name);
    el.addEventListener("input", () => {
      const x = Number(el.value);
      if (el.value === "" || !Number.isFinite(x) || x < Number(el.min) || x > Number(el.max)) return;
      apply(x * scale);
    });
  }
  box("params_b", setN, 1e9);
  box("tokens_b", setD, 1e9);
  box("flops", setC);
  control("log_params").addEventListener("input", (e) => setN(10 ** Number(e.target.value)));
  control("log_tokens").addEventListener("input", (e) => setD(10 ** Number(e.target.value)));
  control("log_flops").addEventListener("input", (e) => setC(10 ** Number(e.target.value)));

  presets.forEach((b, i) => b.addEventListener("click", () => {
    const p = widget.view.presets[i];
    widget.update({ params: p.params, tokens: p.tokens, flops: 0 });
  }));
  root.querySelector("[data-action=optimal]").addEventListener("click", () => setN(widget.view.params));
}
