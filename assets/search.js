// Full-text search over the book, in the browser and offline. The index is cut in parts
// (bookbuild/renderers/search.py build_index, in site/search/): meta.json (the sections: chapter,
// heading, lengths) is fetched on the first focus of the box; a query then fetches the one
// shard file of each of its terms, and the shown hits the file of their chapter (anchors and
// texts, for links and snippets). Every file but meta.json has the index's hash in its name.
//
// A query is cut into units the way the build cut the book: a Chinese run into its overlapping
// bigrams ("位置编码" -> 位置, 置编, 编码), one unit each; a lone Chinese character stands for
// itself and, more weakly, for its occurrences inside runs; an ASCII word lowercased, with
// its parts ("top-k", camelCase humps) and, while it is being typed, the indexed words it begins
// ("layern" -> layernorm), or when the book has neither, the words one typo away ("softmx").
// Ranking is BM25 with OR over the units: a section's score is the sum
// over units of the best score among the unit's terms (times their weight), a term in the
// section's heading adds a bonus of its own; then
// - coordination: the sum is multiplied by (units matched / units the book has)^COORD, so a
//   section holding every bigram of the query comes before one holding a few of them many times,
//   and a bigram that occurs nowhere (a typo, "的缩" across two words) does not empty the list;
// - phrase: for a Chinese run of 3+ characters, the longest stretch of it that occurs verbatim
//   in the section's heading or text (the text from the bigrams' positions) multiplies that
//   run's part of the score by up to 1 + PHRASE (the whole run found), so "位置编码" prefers
//   sections that say 位置编码 to sections that say 位置 and 编码 apart;
// - heading word: a Chinese run of the query that is a whole run of the heading (between
//   punctuation, spaces or ASCII: "注意力" in "4. 注意力：带着问题去找答案", not in "多头注意力")
//   multiplies that run's part by 1 + HEAD_RUN. Bigrams lose word boundaries; the headings'
//   punctuation gives some back, and a heading is where the book names its topics.
// This file is the only implementation of the ranking: tests/test_search.py runs it in Node
// (tests/search_node.mjs), tests/browser/test_search.py in Chromium.
// Everything shown comes from the index and goes into the page as text nodes, never as HTML.

export const META_URL = new URL("../search/meta.json", import.meta.url);
const FORMAT = 3;              // bookbuild/renderers/search.py FORMAT
const K1 = 1.2, B = 0.75;      // BM25 for the section text
const HEAD = 2.5, B_HEAD = 0.75;  // the heading bonus and its length normalisation
const INNER = 0.4;             // weight of a part of a query word, or of a lone character in runs
const PREFIX = 0.5;            // weight of an indexed word that the query word only begins
const FUZZY = 0.5, FUZZY_FROM = 4;  // weight of a word one typo away; shorter words have none
const COORD = 2;               // exponent of the share of the query's units a section holds
const PHRASE = 1;              // the whole Chinese run found verbatim doubles its part of the score
const HEAD_RUN = 1;            // the run is a whole run of the heading: doubled again
const MAX_PREFIX = 40, SNIPPET = 60;
export const PAGE = 8;         // hits shown at once; "显示更多结果" shows as many again
export const MAX_QUERY = 64;   // characters of the query that are searched

const CJK = "\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff";
const RUN = new RegExp(`[${CJK}]+|[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*`, "g");
const IS_CJK = new RegExp(`^[${CJK}]`);
const CJK_RUN = new RegExp(`[${CJK}]+`, "g");
const HUMP = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;
const STOP_EN = new Set(("an and are as at be by for from in is it its of on or that the this to " +
                         "with we you").split(" "));

// ---------------------------------------------------------------- the query's terms

// bookbuild/renderers/search.py ascii_terms(): whole word, parts at - and _ (d_k also dk), camelCase humps.
export function asciiTerms(word) {
  let out = [word.toLowerCase()];
  const parts = word.split(/[-_]/);
  if (parts.length > 1) {
    parts.forEach((p) => { out = out.concat(asciiTerms(p)); });
    const tex = word.includes("_") && parts[parts.length - 1].length === 1;  // d_k: dk too
    if (tex) out.push(parts.join("").toLowerCase());
  } else {
    const humps = word.match(HUMP) || [];
    if (humps.length > 1 && humps.every((h) => h.length >= 2)) {
      out = out.concat(humps.map((h) => h.toLowerCase()));
    }
  }
  return out.filter((t) => t.length > 1 && !/^[0-9]+$/.test(t) && !STOP_EN.has(t));
}

// bookbuild/renderers/search.py chinese_terms(): overlapping bigrams, a lone character as itself.
export function chineseTerms(run) {
  const chars = [...run];
  if (chars.length === 1) return chars;
  return chars.slice(1).map((c, i) => chars[i] + c);
}

// bookbuild/renderers/search.py fnv1a and shard_key: the shard file a term is in.
export function shardOf(term, count) {
  const key = IS_CJK.test(term) ? term : term.slice(0, 2);
  let h = 0x811c9dc5;
  for (const ch of key) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h % count;
}

// Query text -> words: {kind: "ascii" | "run" | "char", terms: [term, parts...], run}, the
// query's Chinese runs, and marks: per query word, the word and the shorter terms standing for
// it, to highlight in titles and snippets.
export function parseQuery(text) {
  const words = [], runs = [], marks = [];
  for (const run of text.normalize("NFKC").match(RUN) || []) {
    if (!IS_CJK.test(run)) {
      const terms = asciiTerms(run);
      if (!terms.length) continue;
      words.push({ kind: "ascii", terms });
      marks.push(terms);
      continue;
    }
    const bigrams = chineseTerms(run), at = runs.push(run) - 1;
    if (bigrams[0] === run) {
      words.push({ kind: "char", terms: [run], run: at });
      marks.push([run]);
    } else {
      words.push({ kind: "run", terms: bigrams, run: at });
      marks.push([run, ...bigrams]);
    }
  }
  return { words, runs, marks };
}

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// Words -> units (lists of {term, weight, postings, pos}; unit.run: the Chinese run it comes
// from), from the shards the words' terms are in (index.shard(term) must be loaded). An ASCII
// word the book does not hold, and no word of it begins, stands for the words of its shard
// (the same first two letters) within one typo, two for a long word; they join marks.
function unitsOf(index, words, marks) {
  const units = [];
  const entry = (term, weight) => {
    const shard = index.shard(term);
    if (!has(shard.terms, term)) return null;
    return { term, weight, postings: shard.terms[term], pos: shard.pos[term] };
  };
  for (const w of words) {
    if (w.kind === "ascii") {
      const [whole, ...parts] = w.terms;
      const unit = [entry(whole, 1), ...parts.map((p) => entry(p, INNER))];
      const known = Object.keys(index.shard(whole).terms);
      const begun = known.filter((t) => t.length > whole.length && t.startsWith(whole)).sort();
      begun.slice(0, MAX_PREFIX).forEach((t) => unit.push(entry(t, PREFIX)));
      if (!unit[0] && !begun.length && whole.length >= FUZZY_FROM) {  // a typo: softmx
        const near = known.filter((t) => typos(whole, t) <= (whole.length >= 8 ? 2 : 1)).sort();
        near.slice(0, MAX_PREFIX).forEach((t) => { unit.push(entry(t, FUZZY)); marks.push([t]); });
      }
      units.push(unit.filter(Boolean));
    } else if (w.kind === "char") {  // a lone character: standing alone, and inside runs
      const [ch] = w.terms, shard = index.shard(ch);
      const near = has(shard.near, ch) && { term: ch, weight: INNER, postings: shard.near[ch] };
      units.push(Object.assign([entry(ch, 1), near].filter(Boolean), { run: w.run }));
    } else {
      for (const b of w.terms) {
        units.push(Object.assign([entry(b, 1)].filter(Boolean), { run: w.run }));
      }
    }
  }
  return units;
}

// Damerau-Levenshtein distance (optimal string alignment) of a and b, or Infinity when their
// lengths differ by more than 2: one typo is a letter missing, extra, wrong or two swapped.
export function typos(a, b) {
  if (Math.abs(a.length - b.length) > 2) return Infinity;
  let prev2 = [], prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], prev2[j - 2] + 1);
      }
    }
    [prev2, prev] = [prev, row];
  }
  return prev[b.length];
}

// ---------------------------------------------------------------- ranking

function termScores(index, postings) {
  const scores = new Map();
  const n = index.docCount, df = postings.length / 2;
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const [avgText, avgHead] = index.meta.avg, lengths = index.meta.lengths;
  for (let i = 0; i < postings.length; i += 2) {
    const doc = postings[i], v = postings[i + 1];
    const inHead = v < 0, tf = inHead ? -v - 1 : v;
    const t = tf / (1 - B + B * lengths[2 * doc] / avgText);
    let s = t * (K1 + 1) / (t + K1);
    if (inHead) s += HEAD / (1 - B_HEAD + B_HEAD * lengths[2 * doc + 1] / Math.max(avgHead, 1e-9));
    scores.set(doc, idf * s);
  }
  return scores;
}

// The longest stretch of run (in characters) found verbatim in haystack; 0 under 3. A stretch
// found verbatim holds every shorter stretch inside it, so one pass with two ends finds the
// longest in at most 2n look-ups (not n^2 tries of n^2 substrings: a pasted paragraph must not
// freeze the page).
export function longestIn(run, haystack) {
  const chars = [...run];
  let best = 0;
  for (let i = 0, j = 0; i < chars.length && best < chars.length - i; i++) {
    j = Math.max(j, i);
    while (j < chars.length && haystack.includes(chars.slice(i, j + 1).join(""))) j++;
    best = Math.max(best, j - i);
  }
  return best < 3 ? 0 : best;
}

// The longest stretch of a run (in characters) in a section's text, from its bigrams'
// positions: bigram k at p, k+1 at p+1, ... (positions are one apart only within one run of the
// text). at: per bigram of the run, a Map doc -> Set of positions.
function longestAt(at, doc) {
  let best = 0;
  for (let k = 0; k < at.length; k++) {
    const start = at[k].get(doc);
    if (!start || at.length - k + 1 <= best) continue;
    for (const p of start) {
      let len = 1;
      while (k + len < at.length && at[k + len].get(doc)?.has(p + len)) len++;
      best = Math.max(best, len + 1);
    }
  }
  return best < 3 ? 0 : best;
}

function positionsOf(entry) {  // Map doc -> Set of positions of one bigram
  const out = new Map(), { postings, pos } = entry;
  for (let i = 0; i < postings.length; i += 2) {
    let p = 0;
    out.set(postings[i], new Set((pos[i / 2] || []).map((d) => (p += d))));
  }
  return out;
}

// The share of a run's bigrams covered by its longest stretch found verbatim in the section's
// heading or text: 0 when no three characters of it are found together, 1 when the whole is.
function phraseShare(index, run, at, doc) {
  const n = [...run].length;
  if (n < 3) return 0;
  const best = Math.max(longestIn(run, index.meta.headings[doc]), longestAt(at, doc));
  return best < 3 ? 0 : (best - 2) / (n - 2);
}

// [{doc, score}] best first (ties: book order).
export function rank(index, units, runs) {
  const parts = new Map();   // doc -> {free: score outside runs, run: [score per run], matched}
  const at = runs.map(() => []);  // per run, per bigram of it: doc -> positions (for phrases)
  let known = 0;
  for (const unit of units) {
    const best = new Map();
    for (const { postings, weight } of unit) {
      for (const [doc, s] of termScores(index, postings)) {
        if (weight * s > (best.get(doc) || 0)) best.set(doc, weight * s);
      }
    }
    if (unit.run !== undefined) {  // a bigram nowhere in the book (or a lone character): none
      at[unit.run].push(unit.length === 1 && unit[0].pos ? positionsOf(unit[0]) : new Map());
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
    let score = p.free;
    p.run.forEach((s, r) => {
      if (!s) return;
      const word = index.headRuns(doc).has(runs[r]) ? 1 + HEAD_RUN : 1;
      score += s * word * (1 + PHRASE * phraseShare(index, runs[r], at[r], doc));
    });
    out.push({ doc, score: score * (p.matched / known) ** COORD });
  }
  return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

// ---------------------------------------------------------------- the index, fetched in parts

const getJson = (url) => fetch(url).then((r) => {
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
});

export class Index {
  // meta: site/search/meta.json; url: its address (the shards are beside it); get: url -> JSON
  // (fetch; Node's tests read files).
  constructor(meta, url, get = getJson) {
    if (meta.format !== FORMAT) {
      throw new Error(`search index format ${meta.format}, expected ${FORMAT}`);
    }
    this.meta = meta;
    this.url = url;
    this.get = get;
    this.docCount = meta.headings.length;
    this.chapterOf = new Int32Array(this.docCount);
    meta.chapters.forEach(([, , first], c) => this.chapterOf.fill(c, first));
    this.files = new Map();   // file name -> its JSON, once fetched
    this.pending = new Map(); // file name -> the promise of it
    this.runsOf = new Map();
  }

  static async open(url = META_URL, get = getJson) {
    const href = new URL(url).href;
    return new Index(await get(href), href, get);
  }

  load(name) {
    if (!this.pending.has(name)) {
      const p = this.get(new URL(name, this.url).href)
        .then((data) => { this.files.set(name, data); });
      p.catch(() => this.pending.delete(name));  // a failed file may be asked for again
      this.pending.set(name, p);
    }
    return this.pending.get(name);
  }

  shardName(term) { return `t${shardOf(term, this.meta.shards)}.${this.meta.version}.json`; }
  shard(term) { return this.files.get(this.shardName(term)); }
  textName(doc) { return `c${this.chapterOf[doc]}.${this.meta.version}.json`; }

  // The doc's text and anchor, once loadTexts has fetched its chapter's file.
  text(doc) { return this.part(doc, "texts"); }
  anchor(doc) { return this.part(doc, "anchors"); }
  part(doc, key) {
    const first = this.meta.chapters[this.chapterOf[doc]][2];
    return this.files.get(this.textName(doc))[key][doc - first];
  }

  loadTexts(docs) {
    return Promise.all([...new Set(docs.map((d) => this.textName(d)))].map((n) => this.load(n)));
  }

  headRuns(doc) {
    if (!this.runsOf.has(doc)) {
      this.runsOf.set(doc, new Set(this.meta.headings[doc].normalize("NFKC").match(CJK_RUN)));
    }
    return this.runsOf.get(doc);
  }

  href(doc) {  // once loadTexts has fetched the doc's chapter file
    const c = this.chapterOf[doc], anchor = this.anchor(doc);
    const url = new URL(`../${this.meta.chapters[c][0]}`, this.url);
    if (anchor) url.hash = anchor;
    return url.href;
  }

  // The words of text -> {hits: every matching section, ranked, marks}. A query is read up to
  // its MAX_QUERY-th character: enough for any phrase of the book, and it bounds the work of
  // one keystroke whatever is pasted into the box.
  async search(text) {
    const { words, runs, marks } = parseQuery([...text].slice(0, MAX_QUERY).join(""));
    const terms = words.flatMap((w) => w.terms);
    await Promise.all([...new Set(terms.map((t) => this.shardName(t)))].map((n) => this.load(n)));
    return { hits: rank(this, unitsOf(this, words, marks), runs), marks };
  }
}

// ---------------------------------------------------------------- display

// The text as the index read it (NFKC, lowercased: dₖ -> dk, Ｌａｙｅｒ -> layer), and for each
// of its code units the index in text of the character it comes from (one more at the end).
function folded(text) {
  let norm = "";
  const from = [];
  for (let i = 0; i < text.length;) {
    const ch = String.fromCodePoint(text.codePointAt(i)), n = ch.normalize("NFKC").toLowerCase();
    for (let k = 0; k < n.length; k++) from.push(i);
    norm += n;
    i += ch.length;
  }
  from.push(text.length);
  return { norm, from };
}

// Where word occurs in norm (folded text): [start, end) spans of norm. An ASCII word must
// start a word of the text and is marked to that word's end ("layern" -> LayerNorm).
function occurrences(norm, word) {
  const ascii = /^[a-z0-9]/.test(word), out = [];
  for (let at = norm.indexOf(word); at >= 0; at = norm.indexOf(word, at + 1)) {
    if (ascii && at > 0 && /[a-z0-9]/.test(norm[at - 1])) continue;
    let end = at + word.length;
    if (ascii) while (end < norm.length && /[a-z0-9]/.test(norm[end])) end++;
    out.push([at, end]);
  }
  return out;
}

// Spans of text to mark, in order, overlapping ones merged: each query word where it occurs,
// else the shorter terms standing for it (a Chinese run's bigrams, an ASCII word's parts), as
// the index reads the text (so d_k's dk marks the formula's dₖ).
// spans.first: where the first whole query word occurs (else the first span).
function findMarks(text, marks) {
  const { norm, from } = folded(text);
  const found = [];
  let first = null;
  for (const [whole, ...inner] of marks) {
    const spans = occurrences(norm, whole);
    if (spans.length) first = Math.min(first ?? Infinity, from[spans[0][0]]);
    found.push(...(spans.length ? spans : inner.flatMap((w) => occurrences(norm, w))));
  }
  found.forEach((span) => { span[0] = from[span[0]]; span[1] = from[span[1]]; });
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

// ---------------------------------------------------------------- the box

class SearchBox {
  constructor(root) {
    this.root = root;
    this.input = root.querySelector("input");
    this.list = root.querySelector("[role=listbox]");
    this.status = root.querySelector("[role=status]");
    this.more = root.querySelector(".search-more");
    this.index = null;
    this.loading = null;
    this.asked = 0;    // the number of the latest query: an older one's answer is dropped
    this.found = null; // the latest query's {hits, marks, text}, and how many are shown
    this.active = -1;
    this.input.addEventListener("focus", () => this.load());
    this.input.addEventListener("input", () => this.update());
    this.input.addEventListener("keydown", (e) => this.key(e));
    this.list.addEventListener("mousedown", (e) => e.preventDefault());  // the box keeps focus
    this.more.addEventListener("mousedown", (e) => e.preventDefault());
    this.more.addEventListener("click", () => this.showMore(true));
    const pick = (e) => {
      const li = e.target.closest("[role=option]");
      if (li && e.button <= 1) this.go(li.dataset.href, e.button === 1 || e.ctrlKey || e.metaKey);
    };
    this.list.addEventListener("click", pick);
    this.list.addEventListener("auxclick", pick);
    root.addEventListener("focusout", (e) => {
      if (!root.contains(e.relatedTarget)) this.close();
    });
    document.addEventListener("keydown", (e) => {
      const typing = e.target.closest?.("input, textarea, select, [contenteditable]");
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        this.input.focus();
      }
    });
    root.hidden = false;
  }

  // meta.json is fetched past the HTTP cache (never an older build's); the files it names hold
  // their content's hash in their names, so any cache may keep them.
  load() {
    const get = (url) => fetch(url, { cache: url.endsWith("/meta.json") ? "no-cache" : "default" })
      .then((r) => { if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`); return r.json(); });
    this.loading ??= Index.open(META_URL, get)
      .then((index) => { this.index = index; this.update(); })
      .catch((err) => this.failed(err));
    return this.loading;
  }

  failed(err) {
    console.error("search index:", err);
    this.say("搜索索引没能加载，暂时无法搜索。");
    this.loading = null;
  }

  say(message) { this.status.textContent = message; }

  async update() {
    const text = this.input.value.trim();
    const asked = ++this.asked;
    if (!text) {
      this.found = null;
      this.close();
      this.say("");
      delete this.list.dataset.query;
      return;
    }
    if (!this.index) { this.say("正在加载搜索索引…"); this.load(); return; }
    let found;
    try {
      found = await this.index.search(text);
      await this.index.loadTexts(found.hits.slice(0, PAGE).map((h) => h.doc));
    } catch (err) {
      if (asked === this.asked) this.failed(err);
      return;
    }
    if (asked !== this.asked) return;  // a later keystroke has its own answer coming
    this.found = { ...found, text, shown: 0 };
    this.list.replaceChildren();
    this.list.dataset.query = text;  // whose hits the list shows (the answer comes later)
    this.active = -1;
    this.input.removeAttribute("aria-activedescendant");
    this.showMore(false);
  }

  // Show the next PAGE hits of the latest query (their chapters' texts fetched first).
  async showMore(fetchTexts) {
    const found = this.found, asked = this.asked;
    if (!found) return;
    const next = found.hits.slice(found.shown, found.shown + PAGE);
    if (fetchTexts) {
      try {
        await this.index.loadTexts(next.map((h) => h.doc));
      } catch (err) {
        this.failed(err);
        return;
      }
      if (asked !== this.asked) return;
    }
    this.list.append(...next.map(({ doc }, i) => this.option(doc, found.shown + i, found.marks)));
    found.shown += next.length;
    const total = found.hits.length, left = total - found.shown;
    this.more.hidden = left <= 0;
    this.more.textContent = `显示更多结果（还有 ${left} 个）`;
    const cut = [...found.text].length > MAX_QUERY ? `（只按前 ${MAX_QUERY} 个字符搜索）` : "";
    const shown = left > 0 ? `，显示前 ${found.shown} 个` : "";
    this.say((total ? `${total} 个结果${shown}` : "没有找到匹配的小节") + cut);
    this.open(total > 0);
  }

  option(doc, i, marks) {
    const index = this.index, heading = index.meta.headings[doc];
    const li = document.createElement("li");
    li.id = `${this.list.id}-${i}`;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    li.dataset.href = index.href(doc);  // an option holds no link (no nested controls)
    const title = document.createElement("span");
    title.className = "search-hit-title";
    appendMarked(title, heading, findMarks(heading, marks));
    const where = document.createElement("span");  // the chapter, unless the hit is its title
    where.className = "search-hit-chapter";
    if (index.anchor(doc)) where.textContent = index.meta.chapters[index.chapterOf[doc]][1];
    const text = document.createElement("span");
    text.className = "search-hit-snippet";
    snippet(text, index.text(doc), marks);
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
    if (!show) this.more.hidden = true;
    else this.more.hidden = !this.found || this.found.shown >= this.found.hits.length;
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

  async key(e) {
    const shown = !this.list.hidden;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!shown) {
        if (!this.found?.hits.length) { this.update(); return; }
        this.open(true);  // the words are unchanged: the same hits again
      }
      const down = e.key === "ArrowDown", last = this.active === this.list.children.length - 1;
      if (down && last && !this.more.hidden) await this.showMore(true);  // past the last: more
      this.select(this.active < 0 && !down ? -1 : this.active + (down ? 1 : -1));
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
