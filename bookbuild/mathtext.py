"""A formula as one line of plain text, for titles, the contents, search snippets and cards:
√dk, n², dₖ, QKᵀ. (The page itself shows the MathML; this is only where markup cannot go.)"""
import re
from html import unescape

SUPERSCRIPT = str.maketrans("0123456789+-=()niTk", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀᵏ")
SUBSCRIPT = str.maketrans("0123456789+-=()aehijklmnoprstuvx",
                          "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
LEAF = r"<m[ino][^>]*>([^<]*)</m[ino]>"
SCRIPT = re.compile(rf"<(msup|msub)>\s*{LEAF}\s*{LEAF}\s*</(?:msup|msub)>")


def _script(m):
    kind, base, exponent = m.group(1), unescape(m.group(2)), unescape(m.group(3))
    table = SUPERSCRIPT if kind == "msup" else SUBSCRIPT
    small = exponent.translate(table)
    if any(ch == c for ch, c in zip(small, exponent)):  # a character with no small form
        small = ("^" if kind == "msup" else "_") + exponent
    return base + small


def text(mathml):
    """The characters a reader sees of a formula's MathML."""
    s = SCRIPT.sub(_script, str(mathml))
    s = re.sub(r"<msqrt>", "√", s)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", s)).split())
