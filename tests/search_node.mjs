// Runs the book's search (assets/search.js, the one implementation of the ranking) in Node on
// a built site's index, for tests/test_search.py and benchmarks/search.py.
//
//   node tests/search_node.mjs <site>/search/meta.json < queries.json
//
// stdin: a JSON list of queries. stdout: a JSON list, per query {hits: [[href, heading, score]],
// total, marks, files}: every hit ranked (href relative to the site), how many, the words to
// mark, and the index files a first search reads to show 8 hits (meta.json first).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Index, parseQuery, asciiTerms, chineseTerms } from "../assets/search.js";

const meta = pathToFileURL(process.argv[2]);
const site = new URL("..", meta).href;
const read = [];
const get = async (url) => {
  read.push(url.slice(site.length));
  return JSON.parse(readFileSync(new URL(url), "utf8"));
};
const queries = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const q of queries) {
  read.length = 0;
  if (q && typeof q === "object" && "terms" in q) {  // the query side of the term rules
    out.push({ terms: parseQuery(q.terms).words.map((w) => w.terms),
               ascii: asciiTerms(q.terms), chinese: chineseTerms(q.terms) });
    continue;
  }
  const index = await Index.open(meta, get);  // a first search each time: nothing kept
  const { hits, marks } = await index.search(q);
  await index.loadTexts(hits.slice(0, 8).map((h) => h.doc));  // what the box shows first
  const files = [...read];
  await index.loadTexts(hits.map((h) => h.doc));  // for every hit's link
  out.push({
    hits: hits.map(({ doc, score }) => [index.href(doc).slice(site.length),
                                        index.meta.headings[doc], score]),
    snippets: hits.slice(0, 8).map(({ doc }) => index.text(doc)),
    total: hits.length, marks, files,
  });
}
process.stdout.write(JSON.stringify(out));
