// Preview-only client, injected by the preview server (never part of the built site):
// reloads the page after a rebuild and shows a build error over the page until it is fixed.
const events = new EventSource("/__dev/events");
let overlay = null;

function showError(message) {
  overlay ??= document.body.appendChild(document.createElement("div"));
  overlay.id = "build-error";
  overlay.setAttribute("role", "alert");
  Object.assign(overlay.style, {
    position: "fixed", inset: "auto 1rem 1rem 1rem", zIndex: 1000, padding: "1rem 1.2rem",
    background: "#3b0d0c", color: "#ffe3e0", font: "14px/1.5 monospace", whiteSpace: "pre-wrap",
    borderRadius: "8px", boxShadow: "0 4px 24px rgba(0,0,0,.4)",
  });
  overlay.textContent = `构建失败（页面仍是上一次成功构建的版本）\n${message}`;
}

events.addEventListener("reload", () => location.reload());
events.addEventListener("build-error", (e) => showError(e.data));
