// Preview-only client, injected by the preview server (never part of the built site):
// shows a rebuild (a reload, or a swap of the page's content) and a build error over the page
// until it is fixed.
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
// Only chapter text changed: navigate.js swaps in the new page and keeps the Python runtime.
events.addEventListener("refresh", () => {
  overlay?.remove();
  overlay = null;
  if (document.documentElement.dataset.navigation === "on") {
    document.dispatchEvent(new CustomEvent("tbook:refresh"));
  } else {
    location.reload();
  }
});
events.addEventListener("build-error", (e) => showError(e.data));
