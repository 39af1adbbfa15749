// State that a link's query or the browser's storage hands to a page: a widget's parameters
// (common.js), the running example (example.js). Anyone can write a link, so what is read from
// one is bounded before any request carries it to the runtime's worker: a value nested some
// thousands deep arrives in a worker as nothing (null), and its request is never answered.
const MAX_CHARS = 4000;  // far above any widget's state or edited example (a few hundred)

// The JSON value in `raw`, or undefined when raw is empty, longer than MAX_CHARS, not JSON, or
// nested more than `depth` levels of arrays and objects deep.
export function readSaved(raw, depth) {
  if (!raw || raw.length > MAX_CHARS) return undefined;
  let value;
  try {
    value = JSON.parse(raw);
  } catch (malformed) {
    return undefined;
  }
  return deeperThan(value, depth) ? undefined : value;
}

function deeperThan(value, depth) {
  if (value === null || typeof value !== "object") return false;
  return depth === 0 || Object.values(value).some((v) => deeperThan(v, depth - 1));
}

export const isRecord = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
