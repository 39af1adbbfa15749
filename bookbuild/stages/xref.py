"""Cross-references and citations: one syntax, `[@...]`, resolved across the whole book.

    $$ ... $$ (eq:scaled)          a labelled equation: numbered per chapter, 式 (4.2)
    ## 为什么要缩放 {#sec:why-scale}  a labelled section, 4.3 节
    ```widget attention            every widget is a figure, 图 4.1; label = "fig:..." names it
    label = "fig:attention"
    ```
    ![描述](images/x.png){#fig:x}  a labelled image is a figure too
    见 [@eq:scaled]、[@fig:attention] 和 [@sec:why-scale]      references (any chapter)
    [@vaswani2017] or [@vaswani2017; @bahdanau2014]            citations (book/references.bib)

A key with a known prefix (eq:, fig:, sec:) is a cross-reference, any other key a citation.
Numbers follow the book's order by themselves: a chapter compiles its own labels with local
numbers (the 2nd labelled equation, the 3rd figure) and its references as placeholders; once
every chapter is compiled, `book_index` gives each label its chapter's number and `resolve`
writes the numbers and links into every chapter's HTML. A label defined twice, a reference to
no label, a citation of an unknown key stop the build at the line that has them.
"""
import re
from html import escape

from ..errors import BuildError, clip
from .mathtext import plain_text

KINDS = {"eq": "式", "fig": "图", "sec": "节"}
LABEL = re.compile(r"^(eq|fig|sec):[A-Za-z0-9][A-Za-z0-9_.-]*$")
KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:.+-]*$")
FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")  # left as text: a footnote with no definition
PLACEHOLDER = re.compile(r'<span class="(xnum|cite)" data-key="([^"]+)"></span>')


# ---------------------------------------------------------------- parse: the [@...] rule

def cite_rule(state, silent):
    """markdown-it inline rule: `[@a; @b]` -> one token "cite" with meta["keys"]."""
    src, start = state.src, state.pos
    if not src.startswith("[@", start):
        return False
    end = src.find("]", start)
    if end < 0 or "\n" in src[start:end]:
        return False
    parts = [p.strip() for p in src[start + 1:end].split(";")]
    if not parts or not all(p.startswith("@") and len(p) > 1 for p in parts):
        return False
    if not silent:
        token = state.push("cite", "", 0)
        token.meta["keys"] = [p[1:] for p in parts]
        token.content = src[start:end + 1]
    state.pos = end + 1
    return True


SECTION_LABEL = re.compile(r"\s*\{#([^}\s]*)\}\s*$")
IMAGE_LABEL = re.compile(r"^\{#([^}\s]*)\}")


def label_rule(state):
    """markdown-it core rule (before the anchors): `## Title {#sec:x}` gives the heading the id
    sec:x, and `![d](p){#fig:x}` the image the id fig:x; the braces leave the text."""
    tokens = state.tokens
    for i, t in enumerate(tokens):
        if t.type == "heading_open" and i + 1 < len(tokens):
            inline = tokens[i + 1]
            m = SECTION_LABEL.search(inline.content)
            last = inline.children[-1] if inline.children else None
            if m and last is not None and last.type == "text" and SECTION_LABEL.search(last.content):
                t.attrSet("id", m.group(1))
                t.meta["label"] = m.group(1)
                inline.content = inline.content[:m.start()]
                last.content = SECTION_LABEL.sub("", last.content)
        for k, c in enumerate(t.children or []):
            after = t.children[k + 1] if k + 1 < len(t.children) else None
            if c.type == "image" and after is not None and after.type == "text":
                m = IMAGE_LABEL.match(after.content)
                if m:
                    c.attrSet("id", m.group(1))
                    after.content = after.content[m.end():]


def install(md):
    md.inline.ruler.before("link", "cite", cite_rule)
    md.core.ruler.before("anchor", "labels", label_rule)


def render_cite(tokens, idx):
    """A placeholder resolve() fills: the reference's text and link, or the citation."""
    keys = tokens[idx].meta["keys"]
    if all(k.split(":", 1)[0] in KINDS and ":" in k for k in keys):
        return "".join(f'<span class="xnum" data-key="ref {escape(k)}"></span>' for k in keys)
    return f'<span class="cite" data-key="{escape(" ".join(keys))}"></span>'


def number_placeholder(label):
    """Where a label's own number is shown (an equation's (4.2), a figure's 图 4.1)."""
    return f'<span class="xnum" data-key="num {escape(label)}"></span>'


# ---------------------------------------------------------------- compile: one chapter

def _line(token, parent=None):
    m = token.map or (parent.map if parent is not None else None)
    return m[0] + 1 if m else None


def _check_label(label, chapter, line, kind):
    if not LABEL.match(label) or not label.startswith(kind + ":"):
        what = {"eq": "formula", "fig": "figure", "sec": "section"}[kind]
        raise BuildError(f"the label {clip(label)!r} of a {what} must be {kind}:<name> "
                         f"(letters, digits, '-', '_', '.'), e.g. {kind}:scaled",
                         chapter.path, line)


def collect_labels(chapter, tokens, env):
    """Token rule (after expand_widgets): the chapter's labels with their local numbers, and
    every [@...] it writes, for checking across the book.

    chapter.labels: {label: [kind, local number, anchor, title, line]} (title: a section's
    heading); chapter.figures: {widget id: local number} (every widget is a figure);
    chapter.refs: [[key, line]]."""
    labels, figures, refs = {}, {}, []
    counts = {"eq": 0, "fig": 0, "sec": 0}
    sub = 0

    def define(label, kind, number, anchor, title, line):
        _check_label(label, chapter, line, kind)
        if label in labels:
            raise BuildError(f"the label {label!r} is defined twice in this chapter (first at "
                             f"line {labels[label][4]}); give each its own name", chapter.path, line)
        labels[label] = [kind, number, anchor, title, line]

    for i, t in enumerate(tokens):
        if t.type == "heading_open" and t.tag == "h2":
            counts["sec"] += 1
            sub = 0
        elif t.type == "heading_open" and t.tag == "h3":
            sub += 1
        if t.type == "heading_open" and t.meta.get("label"):
            number = str(counts["sec"]) + (f".{sub}" if t.tag == "h3" else "")
            label = t.meta["label"]
            define(label, "sec", number, label, plain_text(tokens[i + 1]), _line(t))
        elif t.type == "math_block_label":
            counts["eq"] += 1
            define(t.info, "eq", str(counts["eq"]), t.info, "", _line(t))
        elif t.type == "fence" and "exercise" in t.meta:
            counts["ex"] = counts.get("ex", 0) + 1
            figures[f"exercise {t.meta['exercise']['id']}"] = str(counts["ex"])
        elif t.type == "fence" and "widget" in t.meta:
            counts["fig"] += 1
            w = t.meta["widget"]
            figures[w["id"]] = str(counts["fig"])
            if w.get("label"):
                define(w["label"], "fig", str(counts["fig"]), w["id"], "", w["line"])
        for c in t.children or []:
            if c.type == "image" and c.attrs.get("id"):
                counts["fig"] += 1
                define(c.attrs["id"], "fig", str(counts["fig"]), c.attrs["id"], "", _line(c, t))
            elif c.type == "cite":
                refs += [[k, _line(c, t)] for k in c.meta["keys"]]
            elif c.type == "text" and FOOTNOTE.search(c.content):
                name = FOOTNOTE.search(c.content).group(1)
                raise BuildError(f"the footnote [^{clip(name)}] has no text: add a line "
                                 f"[^{clip(name)}]: … to the chapter", chapter.path, _line(c, t))
    chapter.labels, chapter.figures, chapter.refs = labels, figures, refs


# ---------------------------------------------------------------- across the book

def book_index(book, number_of):
    """{label: {kind, num ("4.2"), href, title, chapter}} over every chapter; a label defined
    in two chapters stops the build. number_of(chapter): the chapter's number (4)."""
    index = {}
    for c in book.chapters:
        n = number_of(c)
        for wid, local in c.figures.items():  # widgets ("<id>") and exercises ("exercise <id>")
            kind, key, anchor = ("ex", wid, wid.split(" ", 1)[1]) if wid.startswith("exercise ") \
                else ("fig", f"widget {wid}", wid)
            index[key] = {"kind": kind, "num": f"{n}.{local}", "href": f"{c.href}#{anchor}"}
        for label, (kind, local, anchor, title, line) in c.labels.items():
            if label in index:
                first = index[label]["chapter"]
                raise BuildError(f"the label {label!r} is defined twice: here and in {first.rel}; "
                                 "labels are unique in the whole book", c.path, line)
            index[label] = {"kind": kind, "num": f"{n}.{local}", "href": f"{c.href}#{anchor}",
                            "title": title, "chapter": c}
    return index


def check_refs(book, index, bibliography):
    """Every [@...] names a label of the book or a key of the bibliography."""
    for c in book.chapters:
        for key, line in c.refs:
            prefix = key.split(":", 1)[0]
            if ":" in key and prefix in KINDS:
                if key not in index:
                    known = ", ".join(sorted(k for k in index if k.startswith(prefix + ":"))[:6])
                    raise BuildError(f"[@{clip(key)}] refers to no label of the book "
                                     f"({KINDS[prefix]}: {known or 'none yet'} ...)", c.path, line)
            elif key not in bibliography:
                raise BuildError(f"[@{clip(key)}] cites a key that is not in "
                                 "book/references.bib; add its BibTeX entry there (or fix the "
                                 "key)", c.path, line)


def reference_text(entry):
    """式 (4.2), 图 4.1, 4.3 节「标题」."""
    if entry["kind"] == "eq":
        return f"式 ({entry['num']})"
    if entry["kind"] == "fig":
        return f"图 {entry['num']}"
    return f"{entry['num']} 节「{entry['title']}」"


def resolve(html, index, cite):
    """Fill a chapter's placeholders: numbers, reference links, citations (cite(keys) -> html)."""
    def fill(m):
        what, key = m.groups()
        if what == "cite":
            return cite(key.split(" "))
        role, label = key.split(" ", 1)
        entry = index[label] if role == "ref" else index.get(label)
        if entry is None:
            return ""
        if role == "num":
            return escape({"eq": f"({entry['num']})", "ex": f"练习 {entry['num']}"}.get(
                entry["kind"], f"图 {entry['num']}"))
        return (f'<a class="xref" href="{escape(entry["href"])}" data-kind="{entry["kind"]}">'
                f"{escape(reference_text(entry))}</a>")
    return PLACEHOLDER.sub(fill, str(html))
