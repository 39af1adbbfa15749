// Full-text search over the book, in the browser and offline. The index (search-index.json at
// the site root, written by bookbuild/search.py) is fetched on the first focus of the box.
//
// A query is cut into units the way the build cut the book: a Chinese run into its overlapping
// bigrams ("位置编码" -> 位置, 置编, 编码), one unit each; a lone Chinese character stands for
// itself and, more weakly, for the indexed bigrams that hold it; an ASCII word lowercased, with
// its parts ("top-k", camelCase humps) and, while it is being typed, the indexed words it begins
// ("layern" -> layernorm). Ranking is BM25 with OR over the units: a section's score is the sum
// over units of the best score among the unit's terms (times their weight), a term in the
// section's heading adds a bonus of its own; then
// - coordination: the sum is multiplied by (units matched / units the book has)^COORD, so a
//   section holding every bigram of the query comes before one holding a few of them many times,
//   and a bigram that occurs nowhere (a typo, "的缩" across two words) does not empty the list;
// - phrase: for a Chinese run of 3+ characters, the longest stretch of it that occurs verbatim
//   in the section's heading or text (which the index ships whole) multiplies that run's part of
//   the score by up to 1 + PHRASE (the whole run found), so "位置编码" prefers sections that say
//   位置编码 to sections that say 位置 and 编码 apart;
// - heading word: a Chinese run of the query that is a whole run of the heading (between
//   punctuation, spaces or ASCII: "注意力" in "4. 注意力：带着问题去找答案", not in "多头注意力")
//   multiplies that run's part by 1 + HEAD_RUN. Bigrams lose word boundaries; the headings'
//   punctuation gives some back, and a heading is where the book names its topics.
// Everything shown comes from the index and goes into the page as text nodes, never as HTML.

const INDEX_URL = new URL("../search-index.json", import.meta.url);
const FORMAT = 2;              // bookbuild/search.py FORMAT
const K1 = 1.2, B = 0.75;      // BM25 for the section text
const HEAD = 2.5, B_HEAD = 0.75;  // the heading bonus and its length normalisation
const INNER = 0.4;             // weight of a part of a query word, or of a bigram for a lone character
const PREFIX = 0.5;            // weight of an indexed word that the query word only begins
const COORD = 2;               // exponent of the share of the query's units a section holds
const PHRASE = 1;              // the whole Chinese run found verbatim doubles its part of the score
const HEAD_RUN = 1;            // the run is a whole run of the heading: doubled again
const MAX_PREFIX = 40, MAX_RESULTS = 8, SNIPPET = 60;
export const MAX_QUERY = 64;  // characters of the query that are searched

const CJK = "\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff";
const RUN = new RegExp(`[${CJK}]+|[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*`, "g");
const IS_CJK = new RegExp(`^[${CJK}]`);
const CJK_RUN = new RegExp(`[${CJK}]+`, "g");
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

// bookbuild/search.py chinese_terms(): overlapping bigrams, a lone character as itself.
export function chineseTerms(run) {
  const chars = [...run];
  if (chars.length === 1) return chars;
  return chars.slice(1).map((c, i) => chars[i] + c);
}

// Query text -> units (lists of [term, weight]; unit.run: the Chinese run it comes from, an index
// into runs), runs (the query's Chinese runs) and marks: per query word, the word and the shorter
// terms standing for it, to highlight in titles and snippets.
export function parseQuery(text, index) {
  const units = [], runs = [], marks = [];
  for (const run of text.normalize("NFKC").match(RUN) || []) {
    if (!IS_CJK.test(run)) {
      const [whole, ...parts] = asciiTerms(run);
      if (!whole) continue;
      const unit = [[whole, 1], ...parts.map((p) => [p, INNER])];
      index.ascii.filter((t) => t.length > whole.length && t.startsWith(whole))
        .slice(0, MAX_PREFIX).forEach((t) => unit.push([t, PREFIX]));
      units.push(unit);
      marks.push([whole, ...parts]);
      continue;
    }
    const bigrams = chineseTerms(run), at = runs.push(run) - 1;
    if (bigrams[0] === run) {  // a lone character: itself, and the bigrams that hold it
      const holding = index.cjk.filter((t) => t.length === 2 && t.includes(run)).slice(0, MAX_PREFIX);
      units.push(Object.assign([[run, 1], ...holding.map((t) => [t, INNER])], { run: at }));
      marks.push([run]);
      continue;
    }
    for (const b of bigrams) units.push(Object.assign([[b, 1]], { run: at }));
    marks.push([run, ...bigrams]);
  }
  return { units, runs, marks };
}

// ---------------------------------------------------------------- ranking

function termScores(index, term) {
  const list = Object.prototype.hasOwnProperty.call(index.terms, term) ? index.terms[term] : null;
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

// The share of a run's bigrams covered by its longest stretch found verbatim in the section:
// 0 when no two consecutive bigrams are found together (or the run has fewer than two), 1 when
// the whole run is there. A stretch found verbatim holds every shorter stretch inside it, so
// one pass with two ends finds the longest in at most 2n look-ups (not n^2 tries of n^2
// substrings: a pasted paragraph must not freeze the page).
export function phraseShare(run, haystack) {
  const chars = [...run];
  if (chars.length < 3) return 0;
  let best = 0;
  for (let i = 0, j = 0; i < chars.length && best < chars.length - i; i++) {
    j = Math.max(j, i);
    while (j < chars.length && haystack.includes(chars.slice(i, j + 1).join(""))) j++;
    best = Math.max(best, j - i);
  }
  return best < 3 ? 0 : (best - 2) / (chars.length - 2);
}

// [{doc, score}] best first (ties: book order).
export function rank(index, { units, runs = [] }) {
  const parts = new Map();   // doc -> {free: score outside runs, run: [score per run], matched}
  let known = 0;
  for (const unit of units) {
    const best = new Map();
    for (const [term, weight] of unit) {
      for (const [doc, s] of termScores(index, term)) {
        if (weight * s > (best.get(doc) || 0)) best.set(doc, weight * s);
      }
    }
    if (best.size) known++;
    for (const [doc, s] of best) {
      if (!parts.has(doc)) parts.set(doc, { free: 0, run: runs.map(() => 0), matched: 0 });
      const p = parts.get(doc);
      if (unit.run === undefined) p.free += s; else p.run[unit.run] += s;
      p.matched++;
    }
  }
  const out = [];
  for (const [doc, p] of parts) {
    const haystack = `${index.docs[doc][2]}\n${index.text[doc]}`;
    let score = p.free;
    p.run.forEach((s, r) => {
      if (!s) return;
      const word = index.headRuns[doc].has(runs[r]) ? 1 + HEAD_RUN : 1;
      score += s * word * (1 + PHRASE * phraseShare(runs[r], haystack));
    });
    out.push({ doc, score: score * (p.matched / known) ** COORD });
  }
  return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

export function prepare(index) {
  if (index.format !== FORMAT) throw new Error(`search index format ${index.format}, expected ${FORMAT}`);
  const all = Object.keys(index.terms);
  const df = (t) => index.terms[t].length;
  index.ascii = all.filter((t) => !IS_CJK.test(t)).sort();
  index.cjk = all.filter((t) => IS_CJK.test(t)).sort((a, b) => df(b) - df(a) || (a < b ? -1 : 1));
  index.headRuns = index.docs.map((d) => new Set(d[2].normalize("NFKC").match(CJK_RUN)));
  return index;
}

// A query is read up to its MAX_QUERY-th character: enough for any phrase of the book, and
// it bounds the work of one keystroke whatever is pasted into the box.
export function search(index, text) {
  const query = parseQuery([...text].slice(0, MAX_QUERY).join(""), index);
  return { hits: rank(index, query).slice(0, MAX_RESULTS), marks: query.marks };
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

// Spans to mark in text, in order, overlapping ones merged: each query word where it occurs,
// else the shorter terms standing for it (a Chinese run's bigrams, an ASCII word's parts).
// spans.first: where the first whole query word occurs (else the first span).
function findMarks(text, marks) {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const found = [];
  let first = null;
  for (const [whole, ...inner] of marks) {
    const spans = occurrences(lower, whole);
    if (spans.length) first = Math.min(first ?? Infinity, spans[0][0]);
    found.push(...(spans.length ? spans : inner.flatMap((w) => occurrences(lower, w))));
  }
  const spans = [];
  for (const [a, b] of found.sort((x, y) => x[0] - y[0])) {
    const last = spans[spans.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b); else spans.push([a, b]);
  }
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
    this.loading ??= fetch(INDEX_URL, { cache: "no-cache" })  // never an older build's
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
    const cut = [...text].length > MAX_QUERY ? `（只按前 ${MAX_QUERY} 个字符搜索）` : "";
    this.say((hits.length ? `${hits.length} 个结果` : "没有找到匹配的小节") + cut);
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

const root = globalThis.document?.querySelector(".search[data-search]");  // none outside a page
if (root) new SearchBox(root);
