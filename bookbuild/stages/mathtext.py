"""A formula as one line of plain text, for titles, the contents, search headings, snippets and
cards: √dₖ, n², QKᵀ/√dₖ, E[qᵢ²], ∑ᵢ₌₁^dₖ. (The page itself shows the MathML; this is only where
markup cannot go.) The MathML is read as a tree, so a script on a group (qᵢ², 10¹⁰) or a
fraction keeps its meaning; a script with no small form of every character is written
^x or ^(a+b), as one would type it."""
import re
import xml.etree.ElementTree as ET
from html import unescape

SUPERSCRIPT = str.maketrans("0123456789+-=()niTkabdeghjlmoprstuvwxyz⊤′",
                            "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀᵏᵃᵇᵈᵉᵍʰʲˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ′")
SUBSCRIPT = str.maketrans("0123456789+-=()aehijklmnoprstuvx",
                          "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
ACCENT = {"^": "\u0302", "ˆ": "\u0302", "¯": "\u0304", "‾": "\u0304", "~": "\u0303",
          "˜": "\u0303", "→": "\u20d7", "˙": "\u0307", ".": "\u0307"}
LARGE = set("∑∏∫⋃⋂") | {"lim", "max", "min", "arg max", "arg min", "argmax", "argmin"}
ATOM = re.compile(r"√?[^\s+\-−=·×/,;:()\[\]<>≤≥]+")  # needs no parentheses around it
SKIP = {"annotation", "annotation-xml", "mphantom"}


def _tag(el):
    return el.tag.rsplit("}", 1)[-1]


def _wrap(s):
    return s if ATOM.fullmatch(s) else f"({s})"


def _script(base, small, table, sign):
    if not small:
        return base
    moved = small.translate(table)
    if all(a != b for a, b in zip(moved, small) if not a.isspace()) and " " not in small:
        return base + moved
    return f"{base}{sign}{_wrap(small)}"


def _text(el):
    tag, kids = _tag(el), list(el)
    if tag in SKIP:
        return ""
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return " ".join("".join(el.itertext()).split()) or ("" if tag != "mtext" else " ")
    if tag == "mspace":
        return " "
    if tag == "semantics":
        return _text(kids[0]) if kids else ""
    parts = [_text(k) for k in kids]
    if tag in ("msub", "msup", "msubsup", "munder", "mover", "munderover") and parts:
        base = parts[0]
        if tag == "mover" and len(parts) == 2 and parts[1] in ACCENT and len(base) == 1:
            return base + ACCENT[parts[1]]
        if tag in ("munder", "mover") and base not in LARGE and len(parts) == 2:
            return base  # a brace, an arrow or a label over it: the base is the text
        sub = parts[1] if tag in ("msub", "msubsup", "munder", "munderover") else ""
        sup = parts[-1] if tag in ("msup", "msubsup", "mover", "munderover") else ""
        return _script(_script(base, sub, SUBSCRIPT, "_"), sup, SUPERSCRIPT, "^")
    if tag == "mfrac" and len(parts) == 2:
        return f"{_wrap(parts[0])}/{_wrap(parts[1])}"
    if tag == "msqrt":
        return "√" + _wrap("".join(parts))
    if tag == "mroot" and len(parts) == 2:
        return _script("", parts[1], SUPERSCRIPT, "^") + "√" + _wrap(parts[0])
    if tag == "mtable":
        return "; ".join(parts)
    if tag == "mtr":
        return ", ".join(p for p in parts if p)
    return "".join(parts)


def _flat(mathml):
    """The characters of the formula in order, when it does not parse as XML."""
    return unescape(re.sub(r"<[^>]+>", "", mathml))


def text(mathml):
    """The characters a reader sees of a formula's MathML, on one line."""
    s = str(mathml)
    try:
        out = _text(ET.fromstring(s))
    except ET.ParseError:
        out = _flat(s)
    return " ".join(out.split())


def plain_text(inline):
    """What a reader sees of an inline token: text with entities decoded (templates escape it
    once), code as written, a formula as the characters of its MathML ("√dk")."""
    out = []
    for c in inline.children or []:
        if c.type in ("text", "text_special", "code_inline", "glossary_term"):
            out.append(c.content)
        elif c.type.startswith("math_inline"):
            out.append(text(c.meta.get("mathml", c.content)))
    return " ".join("".join(out).split())
