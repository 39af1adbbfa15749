"""site/previews.json: the first lines of every section and labelled part of the book, for
the cards that preview a link to another page (assets/popover.js fetches it on the first
hover). Keyed by the link's page and #anchor, as a link writes them."""
import json

from .search import sections

NAME = "previews.json"
TEXT = 140  # characters of a section's text in its card


def previews(book, index):
    """{"04-attention.html#anchor": {title, text}} for every section, and every label of
    bookbuild/stages/xref.py (式 4.2, 图 4.1, 4.3 节)."""
    from ..stages.xref import reference_text
    out = {}
    for c in book.chapters:
        titles = {anchor: text for _, text, anchor in c.outline}
        for s in sections(c.html):
            key = c.href + (f"#{s['anchor']}" if s["anchor"] and s["level"] > 1 else "")
            text = s["text"]
            out[key] = {"title": titles.get(s["anchor"], s["heading"]) or c.title,
                        "text": text if len(text) <= TEXT else text[:TEXT - 1] + "…"}
    for label, entry in index.items():
        if "chapter" in entry and entry["href"] not in out:
            out[entry["href"]] = {"title": reference_text(entry), "text": ""}
    return out


def write(site, book, index):
    data = json.dumps(previews(book, index), ensure_ascii=False, separators=(",", ":"))
    (site / NAME).write_text(data, encoding="utf-8")
