// The reader's exercises, kept in this browser only (localStorage; nothing is sent anywhere):
// per exercise its code, its seed, how many checks and whether one passed. The contents mark
// each chapter's exercises done (the chapter link's data-exercises lists them), and the
// progress page (exercises.html) fills in its table from the same place.
const KEY = (name) => `tbook:exercise:${name}`;

// What a record may hold: anything else in it (the storage is the reader's to edit) is left
// out, so the page falls back to the exercise's defaults for that field (its block's seed, the
// starter code, no checks yet) and never sends the checker a seed that is not one.
const FIELDS = {
  code: (v) => typeof v === "string",
  seed: (v) => Number.isSafeInteger(v) && v >= 0,
  attempts: (v) => Number.isSafeInteger(v) && v >= 0,
  passed: (v) => typeof v === "boolean",
  solved: (v) => typeof v === "string",  // the code of the first check that passed
};

export function load(name) {
  let record;
  try {
    record = JSON.parse(localStorage.getItem(KEY(name)));
  } catch (unavailable) {  // storage off, or a malformed entry: start afresh
    return {};
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) return {};
  return Object.fromEntries(Object.entries(FIELDS)
    .filter(([field, valid]) => valid(record[field]))
    .map(([field]) => [field, record[field]]));
}

export function save(name, record) {
  try {
    localStorage.setItem(KEY(name), JSON.stringify({ ...load(name), ...record }));
  } catch (unavailable) { /* private mode: the code lives as long as the page */ }
  showProgress();
}

// "练习 1/2" after each chapter in the contents; on the progress page, each row's state.
export function showProgress() {
  document.querySelectorAll("[data-exercises]").forEach((el) => {
    const names = el.dataset.exercises.split(" ").filter(Boolean);
    const done = names.filter((n) => load(n).passed).length;
    let badge = el.querySelector(".exercise-badge");
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "exercise-badge";
      el.append(" ", badge);
    }
    badge.textContent = `练习 ${done}/${names.length}`;
    badge.dataset.done = String(done === names.length);
  });
  document.querySelectorAll("[data-exercise-row]").forEach((row) => {
    const record = load(row.dataset.exerciseRow);
    row.querySelector("[data-part=state]").textContent =
      record.passed ? "已通过" : record.attempts ? `已尝试 ${record.attempts} 次` : "未开始";
    row.dataset.passed = String(Boolean(record.passed));
  });
}

// The progress file for a teacher (pycore/exercises/progress.py reads and verifies it): every
// exercise of the progress page, its state and the code that passed (else the last code),
// with a SHA-256 over the rest. Anyone can recompute the sum (this code is public): it shows
// that the file was not changed by accident or by hand, not who wrote the code in it.
const FORMAT = "tbook-exercise-progress";
const VERSION = 1;

async function progressFile(names, book) {
  const exercises = names.map((id) => {
    const r = load(id);
    return { id, passed: Boolean(r.passed), attempts: r.attempts ?? 0, seed: r.seed ?? null,
             code: (r.passed ? r.solved : undefined) ?? r.code ?? null };
  });
  const body = { format: FORMAT, version: VERSION, book,
                 exported: new Date().toISOString().replace(/\.\d+Z$/, "Z"), exercises };
  const bytes = new TextEncoder().encode(`${FORMAT}/${VERSION}\n${JSON.stringify(body)}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return JSON.stringify({ ...body, sha256 }, null, 2) + "\n";
}

// The progress page's "导出进度" button (one listener for the document: pages are swapped in
// place by navigate.js).
export function enableExport() {
  document.addEventListener("click", async (event) => {
    const button = event.target.closest?.("[data-action=export-progress]");
    if (!button) return;
    const status = document.querySelector("[data-part=export-status]");
    const names = [...document.querySelectorAll("[data-exercise-row]")]
      .map((row) => row.dataset.exerciseRow);
    try {
      const text = await progressFile(names, button.dataset.book);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      link.download = "tbook-progress.json";
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      if (status) status.textContent = "已下载 tbook-progress.json";
    } catch (err) {  // no crypto.subtle (a page not served over https or from this computer)
      if (status) status.textContent = `没能导出（${err.message}）：请从 https 地址或本机打开这一页`;
    }
  });
}
