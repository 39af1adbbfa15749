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
