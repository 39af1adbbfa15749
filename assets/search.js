// Full-text search over the book, in the browser and offline. The index (search-index.json at
// the site root, written by bookbuild/search.py) is fetched on the first focus of the box.
//
// A query is cut into units the way the build cut the book: a Chinese run by longest match
// against the index's own Chinese terms (the browser has no jieba), each word also standing
// for the shorter indexed words inside it; an ASCII word lowercased, with its parts ("top-k",
// camelCase humps) and, while it is being typed, the indexed words it begins ("layern" ->
// layernorm). A section's score is the sum over units of the best BM25 score among the unit's
// terms (times their weight); a term in the section's heading adds a bonus of its own.
// Everything shown comes from the index and goes into the page as text nodes, never as HTML.

const INDEX_URL = new URL("../search-index.json", import.meta.url);
const FORMAT = 1;              // bookbuild/search.py FORMAT
const K1 = 1.2, B = 0.75;      // BM25 for the section text
const HEAD = 2.5, B_HEAD = 0.75;  // the heading bonus and its length normalisation
const INNER = 0.4;             // weight of a word found inside a longer query word
const PREFIX = 0.5;            // weight of an indexed word that the query word only begins
const MAX_PREFIX = 40, MAX_RESULTS = 8, SNIPPET = 60;

const RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*/g;
const HUMP = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;
const STOP_EN = new Set(("an and are as at be by for from in is it its of on or that the this to " +
                         "with we you").split(" "));

// ---------------------------------------------------------------- the query's terms

// bookbuild/search.py ascii_terms(): whole word, parts at - and _, camelCase humps.
export function asciiTerms(word) {
  let out = [word.toLowerCase()];
  const parts = word.split(/[-_]/);
  if (parts.length > 1) {
    parts.forEach((p) => { out = out.concat(asciiTerms(p)); });
  } else {
    const humps = word.match(HUMP) || [];
    if (humps.length > 1 && humps.every((h) => h.length >= 2)) out = out.concat(humps.map((h) => h.toLowerCase()));
  }
  return out.filter((t) => t.length > 1 && !/^[0-9]+$/.test(t) && !STOP_EN.has(t));
}

function innerWords(word, has) {
  const out = [];
  for (let i = 0; i < word.length; i++) {
    for (let j = i + 2; j <= word.length; j++) {
      if (j - i < word.length && has(word.slice(i, j))) out.push(word.slice(i, j));
    }
  }
  return out;
}

// Query text -> units, each a list of [term, weight], and marks: per query word, the word and
// the shorter words standing for it, to highlight in titles and snippets.
export function parseQuery(text, index) {
  const units = [], marks = [];
  const has = (t) => Object.prototype.hasOwnProperty.call(index.terms, t);
  for (const run of text.normalize("NFKC").match(RUN) || []) {
    if (/^[\x00-\x7f]/.test(run)) {
      const [whole, ...parts] = asciiTerms(run);
      if (!whole) continue;
      const unit = [[whole, 1], ...parts.map((p) => [p, INNER])];
      index.ascii.filter((t) => t.length > whole.length && t.startsWith(whole))
        .slice(0, MAX_PREFIX).forEach((t) => unit.push([t, PREFIX]));
      units.push(unit);
      marks.push([whole, ...parts]);
      continue;
    }
    const single = [];
    for (let i = 0; i < run.length;) {
      let len = Math.min(index.maxCjk, run.length - i);
      while (len >= 2 && !has(run.slice(i, i + len))) len--;
      if (len < 2) { single.push(run[i]); i++; continue; }
      const word = run.slice(i, i + len);
      const inner = innerWords(word, has);
      units.push([[word, 1], ...inner.map((w) => [w, INNER])]);
      marks.push([word, ...inner]);
      i += len;
    }
    if (!units.length && single.length === 1 && run.length === 1) {
      // one character alone: the indexed words that hold it ("猫" -> 小猫)
      const words = index.cjk.filter((w) => w.includes(run)).slice(0, MAX_PREFIX);
      if (words.length) units.push(words.map((w) => [w, INNER]));
      marks.push([run]);
    }
  }
  return { units, marks };
}

// ---------------------------------------------------------------- ranking

function termScores(index, term) {
  const list = index.terms[term];
  const scores = new Map();
  if (!list) return scores;
  const n = index.docs.length, df = list.length / 2;
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const [avgText, avgHead] = index.avg;
  for (let i = 0; i < list.length; i += 2) {
    const doc = index.docs[list[i]], v = list[i + 1];
    const inHead = v < 0, tf = inHead ? -v - 1 : v;
    const t = tf / (1 - B + B * doc[3] / avgText);
    let s = t * (K1 + 1) / (t + K1);
    if (inHead) s += HEAD / (1 - B_HEAD + B_HEAD * doc[4] / Math.max(avgHead, 1e-9));
    scores.set(list[i], idf * s);
  }
  return scores;
}

// [{doc, score}] best first (ties: book order).
export function rank(index, units) {
  const total = new Map();
  for (const unit of units) {
    const best = new Map();
    for (const [term, weight] of unit) {
      for (const [doc, s] of termScores(index, term)) {
        if (weight * s > (best.get(doc) || 0)) best.set(doc, weight * s);
      }
    }
    for (const [doc, s] of best) total.set(doc, (total.get(doc) || 0) + s);
  }
  return [...total].map(([doc, score]) => ({ doc, score }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
}

export function prepare(index) {
  if (index.format !== FORMAT) throw new Error(`search index format ${index.format}, expected ${FORMAT}`);
  const all = Object.keys(index.terms);
  index.ascii = all.filter((t) => /^[a-z0-9]/.test(t)).sort();
  index.cjk = all.filter((t) => !/^[a-z0-9]/.test(t));
  index.maxCjk = index.cjk.reduce((m, t) => Math.max(m, t.length), 2);
  return index;
}

export function search(index, text) {
  const { units, marks } = parseQuery(text, index);
  return { hits: rank(index, units).slice(0, MAX_RESULTS), marks };
}

// ---------------------------------------------------------------- display

// Where word occurs in lower (the text, ASCII lowercased): [start, end) spans. An ASCII word
// must start a word of the text and is marked to that word's end ("layern" -> LayerNorm).
function occurrences(lower, word) {
  const ascii = /^[a-z0-9]/.test(word), out = [];
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    if (ascii && at > 0 && /[a-z0-9]/.test(lower[at - 1])) continue;
    let end = at + word.length;
    if (ascii) while (end < lower.length && /[a-z0-9]/.test(lower[end])) end++;
    out.push([at, end]);
  }
  return out;
}

// Spans to mark in text, in order: each query word where it occurs, else the shorter words
// standing for it. spans.first: where the first whole query word occurs (else the first span).
function findMarks(text, marks) {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  let spans = [], first = null;
  for (const [whole, ...inner] of marks) {
    let found = occurrences(lower, whole);
    if (found.length) first = Math.min(first ?? Infinity, found[0][0]);
    else found = inner.sort((a, b) => b.length - a.length).flatMap((w) => occurrences(lower, w));
    for (const [a, b] of found) {
      if (!spans.some(([s, e]) => a < e && b > s)) spans.push([a, b]);
    }
  }
  spans = spans.sort((x, y) => x[0] - y[0]);
  spans.first = first ?? (spans.length ? spans[0][0] : 0);
  return spans;
}

// Append text to el as text nodes, with <mark> around the spans.
function appendMarked(el, text, spans, from = 0, to = text.length) {
  let at = from;
  for (const [s, e] of spans) {
    if (e <= from || s >= to) continue;
    const a = Math.max(s, from), b = Math.min(e, to);
    if (a > at) el.append(document.createTextNode(text.slice(at, a)));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(a, b);
    el.append(mark);
    at = b;
  }
  if (at < to) el.append(document.createTextNode(text.slice(at, to)));
}

function snippet(el, text, marks) {
  const spans = findMarks(text, marks);
  const from = Math.max(0, spans.first - Math.floor(SNIPPET / 4));
  const to = Math.min(text.length, from + SNIPPET);
  if (from > 0) el.append("…");
  appendMarked(el, text, spans, from, to);
  if (to < text.length) el.append("…");
}

function hitLink(index, doc) {
  const [chapter, anchor] = index.docs[doc];
  const url = new URL(`../${index.chapters[chapter][0]}`, import.meta.url);
  if (anchor) url.hash = anchor;
  return url.href;
}

// ---------------------------------------------------------------- the box

class SearchBox {
  constructor(root) {
    this.root = root;
    this.input = root.querySelector("input");
    this.list = root.querySelector("[role=listbox]");
    this.status = root.querySelector("[role=status]");
    this.index = null;
    this.loading = null;
    this.active = -1;
    this.input.addEventListener("focus", () => this.load());
    this.input.addEventListener("input", () => this.update());
    this.input.addEventListener("keydown", (e) => this.key(e));
    this.list.addEventListener("mousedown", (e) => e.preventDefault());  // the box keeps focus
    const pick = (e) => {
      const li = e.target.closest("[role=option]");
      if (li && e.button <= 1) this.go(li.dataset.href, e.button === 1 || e.ctrlKey || e.metaKey);
    };
    this.list.addEventListener("click", pick);
    this.list.addEventListener("auxclick", pick);
    root.addEventListener("focusout", (e) => { if (!root.contains(e.relatedTarget)) this.close(); });
    document.addEventListener("keydown", (e) => {
      const typing = e.target.closest?.("input, textarea, select, [contenteditable]");
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        this.input.focus();
      }
    });
    root.hidden = false;
  }

  load() {
    this.loading ??= fetch(INDEX_URL)
      .then((r) => { if (!r.ok) throw new Error(`HTTP ${r.status}`); return r.json(); })
      .then((data) => { this.index = prepare(data); this.update(); })
      .catch((err) => {
        console.error("search index:", err);
        this.say("搜索索引没能加载，暂时无法搜索。");
        this.loading = null;
      });
    return this.loading;
  }

  say(message) { this.status.textContent = message; }

  update() {
    const text = this.input.value.trim();
    if (!text) { this.close(); this.say(""); return; }
    if (!this.index) { this.say("正在加载搜索索引…"); this.load(); return; }
    const { hits, marks } = search(this.index, text);
    this.list.replaceChildren(...hits.map(({ doc }, i) => this.option(doc, i, marks)));
    this.active = -1;
    this.input.removeAttribute("aria-activedescendant");
    this.say(hits.length ? `${hits.length} 个结果` : "没有找到匹配的小节");
    this.open(hits.length > 0);
  }

  option(doc, i, marks) {
    const [chapter, , heading] = this.index.docs[doc];
    const li = document.createElement("li");
    li.id = `${this.list.id}-${i}`;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    li.dataset.href = hitLink(this.index, doc);  // an option holds no link (no nested controls)
    const title = document.createElement("span");
    title.className = "search-hit-title";
    appendMarked(title, heading, findMarks(heading, marks));
    const where = document.createElement("span");  // the chapter, unless the hit is its title
    where.className = "search-hit-chapter";
    if (this.index.docs[doc][1]) where.textContent = this.index.chapters[chapter][1];
    const text = document.createElement("span");
    text.className = "search-hit-snippet";
    snippet(text, this.index.text[doc], marks);
    li.append(title, ...(where.textContent ? [where] : []), text);
    return li;
  }

  go(href, newTab = false) {
    if (newTab) { window.open(href, "_blank", "noopener"); return; }
    this.close();
    location.assign(href);
  }

  open(show) {
    this.list.hidden = !show;
    this.input.setAttribute("aria-expanded", String(show));
  }

  close() {
    this.open(false);
    this.active = -1;
    this.input.removeAttribute("aria-activedescendant");
  }

  select(i) {
    const options = [...this.list.children];
    if (!options.length) return;
    this.active = (i + options.length) % options.length;
    options.forEach((li, k) => li.setAttribute("aria-selected", String(k === this.active)));
    const li = options[this.active];
    this.input.setAttribute("aria-activedescendant", li.id);
    li.scrollIntoView({ block: "nearest" });
  }

  key(e) {
    const shown = !this.list.hidden;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!shown) { this.update(); if (this.list.hidden) return; }
      this.select(this.active < 0 && e.key === "ArrowUp" ? -1 : this.active + (e.key === "ArrowDown" ? 1 : -1));
    } else if (e.key === "Enter" && shown) {
      e.preventDefault();
      const li = this.list.children[Math.max(this.active, 0)];
      if (li) this.go(li.dataset.href);
    } else if (e.key === "Escape" && shown) {
      e.preventDefault();  // keep the words (a search input would clear itself)
      this.close();
    }
  }
}

const root = document.querySelector(".search[data-search]");
if (root) new SearchBox(root);
