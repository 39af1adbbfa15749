// Runs before the page is drawn (a classic, blocking script): apply the reader's saved theme
// so a dark page does not flash white. No saved choice: the system's preference (CSS).
try {
  const saved = localStorage.getItem("tbook-theme");
  if (saved === "light" || saved === "dark") document.documentElement.dataset.theme = saved;
} catch (blocked) { /* storage disabled: follow the system */ }
