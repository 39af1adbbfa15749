"""No id twice on a chapter's page. An id is a link target (#fn1, #ref-vaswani2017, a heading's
anchor), so two elements with one id send a link, a citation's card or a footnote's back link to
the wrong one.

The ids are read from the HTML itself, not predicted: the chapter is rendered token by token
(render.render_chapter), so every id on the page is known with the token that gave it -- a
heading, a widget (its figure and the elements inside it), an exercise, a labelled formula or
image, a footnote and its references -- and that token's line. The page around the chapter
(markdown.PAGE_IDS) and the reference list added at its end (check_reference_list) take part too.
"""
import re
from html import unescape

from ..errors import BuildError, clip
from .markdown import PAGE_IDS

ID = re.compile(r'\sid="([^"]*)"')
THE_PAGE = "the page around the chapter"
CHOSEN = ("heading_open", "fence")  # ids the author names (a heading's text, a block's id)


def ids_in(html):
    return [unescape(value) for value in ID.findall(str(html))]


def _what(token, tokens, i):
    """What gave an element its id, in the author's terms."""
    if token.type == "heading_open":
        return f"the heading {clip(tokens[i + 1].content)!r}"
    if token.type == "fence" and "widget" in token.meta:
        return f"widget {token.meta['widget']['id']!r}"
    if token.type == "fence" and "exercise" in token.meta:
        return f"exercise {token.meta['exercise']['id']!r}"
    if token.type == "math_block_label":
        return f"the formula ({token.info})"
    if token.type in ("footnote_open", "footnote_ref"):
        what = "footnote" if token.type == "footnote_open" else "the reference to footnote"
        return f"{what} [^{clip(token.meta.get('label', token.meta['id'] + 1))}]"
    return f"the {token.type.replace('_', ' ')}"


def collect(chapter, pieces):
    """{id: [what gives it, line, whether the author named it]} for every element of the
    chapter's HTML, from render_chapter's pieces [(token, its tokens, index, line, html)]; an id
    given twice, or one of the page's own, stops the build."""
    owners = {i: [THE_PAGE, None, False] for i in PAGE_IDS}
    for token, tokens, i, line, html in pieces:
        for value in ids_in(html):
            owner = [_what(token, tokens, i), line, token.type in CHOSEN]
            if value in owners:
                _twice(chapter, value, owners[value], owner)
            owners[value] = owner
    return {k: v for k, v in owners.items() if v[0] != THE_PAGE}


def check_reference_list(chapter, html):
    """The reference list the build adds at the chapter's end (bib.reference_list) may not take
    an id the chapter already gives (a widget named ref-vaswani2017, a heading 'References
    heading')."""
    for value in ids_in(html):
        owner = chapter.ids.get(value) or ([THE_PAGE, None, False] if value in PAGE_IDS else None)
        if owner:
            _twice(chapter, value, owner, ["the reference list (参考文献) the build adds for the "
                                           "chapter's citations", None, False])


def _twice(chapter, value, first, second):
    def where(owner):
        return owner[0] + (f" (line {owner[1]})" if owner[1] else "")
    # at the line of the id the author can change (of the second, where both can)
    line = next((o[1] for o in (second, first) if o[2] and o[1]), second[1] or first[1])
    raise BuildError(f"the id {clip(value)!r} would be given twice on this page, by "
                     f"{where(first)} and by {where(second)}; an id is a link target, so rename "
                     "the heading, widget or exercise", chapter.path, line)
