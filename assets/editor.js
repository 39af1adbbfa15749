// A small code editor over a <textarea> (the exercises; templates/exercise.html): line numbers,
// Tab and Shift+Tab indent (Esc, then Tab, leaves the box: the keyboard is never trapped),
// Enter keeps the indentation, and Python highlighted in a <pre> drawn under the transparent
// text. The highlighting is made of text nodes and spans: the reader's text never becomes HTML.

const INDENT = "    ";
const KEYWORDS = new Set(("False None True and as assert break class continue def del elif else " +
  "except finally for from global if import in is lambda nonlocal not or pass raise return try " +
  "while with yield").split(" "));
const BUILTINS = new Set("abs all any float int len list max min print range round sum tuple zip".split(" "));
const TOKEN = /(#[^\n]*)|("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(\b\d+(?:\.\d*)?(?:e[+-]?\d+)?\b)|([A-Za-z_]\w*)/g;

function highlight(code, text) {
  const out = document.createDocumentFragment();
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    const [word, comment, string, number, name] = m;
    const kind = comment ? "c" : string ? "s" : number ? "n" :
      KEYWORDS.has(name) ? "k" : BUILTINS.has(name) ? "b" : null;
    if (!kind) continue;
    if (m.index > at) out.append(text.slice(at, m.index));
    const span = document.createElement("span");
    span.className = `tok-${kind}`;
    span.textContent = word;
    out.append(span);
    at = m.index + word.length;
  }
  out.append(text.slice(at) + "\n");  // a last empty line keeps its height
  code.replaceChildren(out);
}

export function makeEditor(box, { onRun } = {}) {
  const editor = box.closest(".editor");
  const lines = editor.querySelector(".editor-lines");
  const code = editor.querySelector(".editor-highlight code");
  let escaped = false;  // Esc was pressed: the next Tab leaves the box
  const draw = () => {
    highlight(code, box.value);
    const n = box.value.split("\n").length;
    if (lines.childElementCount !== n) {
      lines.replaceChildren(...Array.from({ length: n }, (_, i) => {
        const line = document.createElement("span");
        line.textContent = String(i + 1);
        return line;
      }));
    }
  };
  const sync = () => {
    code.parentElement.scrollTop = box.scrollTop;
    code.parentElement.scrollLeft = box.scrollLeft;
    lines.scrollTop = box.scrollTop;
  };
  const edit = (start, end, text, caret) => {
    box.setRangeText(text, start, end, "end");
    if (caret !== undefined) box.setSelectionRange(caret, caret);
    box.dispatchEvent(new Event("input", { bubbles: true }));
  };
  box.addEventListener("keydown", (event) => {
    const { selectionStart: s, selectionEnd: e, value } = box;
    if (event.key === "Escape") { escaped = true; return; }
    if (event.key === "Tab" && !escaped && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      const first = value.lastIndexOf("\n", s - 1) + 1;
      if (event.shiftKey) {  // dedent the line (or the selected lines)
        const block = value.slice(first, e);
        const out = block.replace(/^( {1,4}|\t)/gm, "");
        edit(first, e, out);
      } else if (s !== e && value.slice(s, e).includes("\n")) {
        edit(first, e, value.slice(first, e).replace(/^/gm, INDENT));
      } else {
        edit(s, e, INDENT);
      }
    } else if (event.key === "Enter" && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      const first = value.lastIndexOf("\n", s - 1) + 1;
      const indent = value.slice(first, s).match(/^\s*/)[0] + (/:\s*$/.test(value.slice(first, s)) ? INDENT : "");
      edit(s, e, "\n" + indent);
    } else if (event.key === "Enter") {
      event.preventDefault();
      onRun?.();
    }
    if (event.key !== "Tab") escaped = false;
  });
  box.addEventListener("input", draw);
  box.addEventListener("scroll", sync);
  draw();
  return { draw };
}
