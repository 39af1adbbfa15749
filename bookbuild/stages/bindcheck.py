"""Every path a widget's HTML binds is a part of its view, checked when the widget is rendered.

In the browser, assets/widgets/bind.js looks each bound path up in the view key by key and
quietly skips one that leads nowhere: a typo in a template (`data-bind="top.pp"`) would show
the build's number forever and never move. So the build looks every path of the rendered
widget up in the view it rendered with, the way bind.js does, and stops at the template's line:

    pycore/widgets/softmax/template.html:12: data-bind path 'top.pp' is not in the view of softmax:
    top has the parts label, p (did you mean 'top.p'?); bind a part the view returns, or add
    it to the view

The paths are those bind.js reads: data-bind, data-sci, every name=path of data-attr, and
table[data-matrix]. The view is the whole one the build computes, the union of the view's parts
(pycore/view_parts.py: the live page gets each part when what it reads changes), so a path
a template writes is in it. Where the widget declares PARTS, the message names the parts that
give the keys where the path stops: the part to add the key to, or to read it from.

A data-bind that shows a number says with how many decimals (data-digits): the live page asks
pycore for that number's text (bind.js textsWanted), and without it gets none.
"""
import difflib
import re
from html import unescape
from pathlib import Path

from ..errors import BuildError, clip

MISSING = object()  # what bind.js sees as undefined: the binding is never written
SHOWN_PARTS = 12  # parts named in a message


# A bound attribute as the widget templates write it (Jinja escapes every quote in a value, so
# a value ends at the next quote of its kind); far quicker than an HTML parser over the
# megabytes of a book's widgets.
BOUND = re.compile(r"""<(\w+)|\s(data-bind|data-sci|data-attr|data-matrix)=(["'])(.*?)\3""", re.S)


def bindings(html):
    """(attribute, path) of every binding in a widget's HTML, in document order."""
    found, tag = [], None
    for m in BOUND.finditer(str(html)):
        if m.group(1):
            tag = m.group(1).lower()
            continue
        kind, value = m.group(2), unescape(m.group(4))
        if kind == "data-attr":  # "name=path name=path", as bind.js splits it
            found += [(f"data-attr {pair.split('=')[0]}", pair.split("=")[1] if "=" in pair
                       else "") for pair in value.split()]
        elif kind != "data-matrix" or tag == "table":  # bind.js: table[data-matrix]
            found.append((kind, value))
    return found


def _step(value, key):
    """value[key] as JavaScript's value?.[key] reads a JSON view: a dict's key (the view's int
    keys travel as strings), a list's or string's index; MISSING where JS gives undefined."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        return next((v for k, v in value.items() if not isinstance(k, str) and str(k) == key),
                    MISSING)
    if isinstance(value, (list, tuple, str)) and re.fullmatch(r"0|[1-9]\d*", key):
        return value[int(key)] if int(key) < len(value) else MISSING
    return MISSING


def parts(value):
    """The keys a path may take next at value, for a message."""
    if isinstance(value, dict):
        return [str(k) for k in value]
    if isinstance(value, (list, tuple)):
        return [str(i) for i in range(len(value))]
    return []


def unresolved(view, path):
    """None when bind.js finds a value at path in view (null included); else (the keys that
    were found, the value there, the key it does not have)."""
    keys, value = path.split("."), view
    for i, key in enumerate(keys):
        nxt = _step(value, key)
        if nxt is MISSING:
            return keys[:i], value, key
        value = nxt
    return None


def template_line(template, path):
    """The line of the template file that writes path: the first line that holds the longest
    leading part of it as a quoted string or a binding's start ("bars.bars.2.y" comes from
    `mk.bars("bars", ...)`: a macro's binding is reported at its call)."""
    source = Path(template).read_text(encoding="utf-8").split("\n")
    keys = path.split(".")
    for n in range(len(keys), 0, -1):
        lead = re.compile(r"""(?<=["'=])%s(?=[."'\s{]|$)""" % re.escape(".".join(keys[:n])))
        for number, text in enumerate(source, 1):
            if lead.search(text):
                return number
    return 1


def givers(owners, found):
    """The parts that give the keys under the path `found` (a list of keys), in the order
    declared; [] for a view without PARTS (its one part is the view)."""
    prefix = ".".join(found)
    names = [part for where, part in owners.items()
             if not prefix or where == prefix or where.startswith(prefix + ".")]
    names = list(dict.fromkeys(names))
    return [] if names == ["view"] else names


def _message(name, kind, path, problem, owners=None):
    found, value, key = problem
    where = ".".join(found)
    options = parts(value)
    shown = ", ".join(options[:SHOWN_PARTS]) + (", …" if len(options) > SHOWN_PARTS else "")
    if isinstance(value, (list, tuple)):
        has = f"{where} is a list of {len(value)}" + (f" (0 to {len(value) - 1})" if value else "")
    elif not options:
        has = (f"{where} is a {type(value).__name__}, not a dict or a list" if found
               else "the view is empty")
    else:
        has = f"{where} has the parts {shown}" if found else f"its parts are {shown}"
    what = f"{kind} path {clip(path)!r}"
    if kind.startswith("data-attr "):
        what = f"data-attr path {clip(path)!r} (of {kind.split()[1]})"
    text = f"{what} is not in the view of {name}: {has}"
    guess = difflib.get_close_matches(key, options, n=1)
    if guess:
        fixed = ".".join(found + guess + path.split(".")[len(found) + 1:])
        text += f" (did you mean {fixed!r}?)"
    giving = givers(owners or {}, found)
    if giving:
        what = f"{'.'.join(found)} is filled by" if found else "the view is filled by"
        return text + (f"; {what} its PARTS {', '.join(giving)}: bind a key one of them "
                       "returns, or add it to the one that computes it")
    return text + "; bind a part the view returns, or add it to the view"


# An opening tag with a data-bind (Jinja escapes every ">" in an attribute's value).
BOUND_TAG = re.compile(r"""<\w+\s[^>]*?\sdata-bind=(["'])(.*?)\1[^>]*>""", re.S)


def undigited(html, view):
    """The first data-bind path whose value in view is a number and whose element has no
    data-digits, or None."""
    for m in BOUND_TAG.finditer(str(html)):
        path = unescape(m.group(2))
        value = view
        for key in path.split("."):
            value = _step(value, key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and " data-digits=" not in m.group(0):
            return path
    return None


def check(name, html, view, template, owners=lambda: {}):
    """Raise BuildError at the line of `template` (the widget's template file) for the first
    bound path of the widget's rendered HTML that its view does not hold, or a bound number
    without data-digits; return the number of paths checked. owners(): {key path: part} of
    the view (pycore.widgets.owners), asked for only to write a message."""
    found = bindings(html)
    for kind, path in found:
        problem = unresolved(view, path)
        if problem:
            raise BuildError(_message(name, kind, path, problem, owners()), template,
                             template_line(template, path))
    path = undigited(html, view)
    if path:
        raise BuildError(f"data-bind path {clip(path)!r} shows a number of the view of {name} "
                         "but does not say with how many decimals: add data-digits "
                         '(data-digits="0" for a count)', template, template_line(template, path))
    return len(found)
