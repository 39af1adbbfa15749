"""A view in parts: each declared once, computed and cached here, sent when its inputs change.

A widget module may declare

    PARTS = (sentence, weights, row)   # plain functions, in order

Each part is a function of the inputs it reads, named by its arguments: the view's parameters
and INPUTS (pycore/widgets/__init__.py), and earlier parts (whose result it is given). It
returns a dict of the view keys it owns; keys beginning with "_" are its working values, given
to the parts that read it and never sent. The whole view is the union of the parts: two parts
may fill one dict (e.g. "heat": the sentence's frame and the weights' cells), but never give
the same key. A module without PARTS is one part, its `view`, reading every input.

A part's key is a short fingerprint of what it read (its inputs' values and the keys of the
parts it read). The page keeps, per widget, the key of each part it holds (the view brings
them under PARTS) and sends them with the next request; `view` then returns only the parts
whose key differs: a move of one control sends the parts that read it, nothing else. The
build's whole view is the same call with nothing held.

A part is computed once per key and kept in one bounded cache (CACHE_SIZE), a module's plain
`view` too. A part that reads "page" keeps state between calls (train-live's runs): it is
computed and sent every time, as is the plain view of a module that declares FRESH = True
(the code lab's, which runs the reader's code: the same code run again is a new run).

A module may also declare

    LATE = (continued,)   # parts that take longer than a frame

A late part is one a move should not wait for (char-gpt's continuation: 24 characters drawn
one at a time, tens of milliseconds in Pyodide). When the page asks with DEFER in `held`, a
late part that is not cached stays out of a view that brings another part, and the view names
it under LATER: the page draws the rest at once and asks for the late part once the reader
pauses (assets/widgets/common.js). A view that would bring nothing else brings it: a click
that changes only the late part (a new seed) waits for it, as it must. The build and every
caller that does not ask with DEFER get whole views.
"""
import hashlib
import inspect
import json
from collections import Counter, OrderedDict

PARTS = "$parts"  # the view key of the sent parts' keys ({part name: key}; bind.js ignores it)
LATER = "$later"  # the view key naming the late parts left out of it (a list of part names)
DEFER = "$defer"  # the key in `held` by which the page says a late part may come later
VIEW = "view"     # the one part of a module that declares no PARTS

# Parts kept, all widgets together. A slider swept over its range and back must find on the way
# back what it computed on the way there: attention's scale (24 steps, with the mask on and off)
# makes 48 weights parts and as many query rows, 96 in all; 512 hold five such sweeps, so a page
# with several widgets keeps each one's. Attention's and positional-encoding's parts take some
# 30 kB each in CPython (tracemalloc over their sweeps), so a full cache is some 15 MB.
CACHE_SIZE = 512
_cache = OrderedDict()  # key -> (the part's whole result, its sent keys)
computed = Counter()    # (widget, part) -> times computed (tests, benchmarks: what a move costs)


class Part:
    def __init__(self, name, fn, reads, needs, volatile, late=False):
        self.name, self.fn = name, fn
        self.reads = reads      # the view's parameters and inputs it reads
        self.needs = needs      # the earlier parts it reads
        self.volatile = volatile  # keeps state: computed and sent every time
        self.late = late        # slower than a frame: may come after the others (LATE)


def declared(widget, module, inputs):
    """The module's parts, checked: every argument an input or an earlier part, no name used
    twice. `inputs`: the names of the view's parameters and INPUTS."""
    where = f"{module.__file__}: widget {widget}"
    fns = getattr(module, "PARTS", None)
    if fns is None:
        fresh = getattr(module, "FRESH", False) or "page" in inputs
        return [Part(VIEW, module.view, tuple(inputs), (), fresh)]
    parts, names = [], set()
    for fn in fns:
        name = fn.__name__
        if name in inputs or name in names or name == VIEW:
            raise ValueError(f"{where}: part {name} has the name of "
                             f"{'an input' if name in inputs else 'another part'}; "
                             f"rename the function")
        reads, needs = [], []
        for arg in inspect.signature(fn).parameters:
            if arg in names:
                needs.append(arg)
            elif arg in inputs:
                reads.append(arg)
            else:
                raise ValueError(
                    f"{where}: part {name} reads {arg!r}, which is no parameter, input or "
                    f"earlier part (parameters and inputs: {', '.join(inputs)}; parts before "
                    f"it: {', '.join(p.name for p in parts) or 'none'}); rename the argument "
                    f"or declare that part first")
        volatile = "page" in reads or any(p.volatile for p in parts if p.name in needs)
        late = fn in getattr(module, "LATE", ())
        waits = [p.name for p in parts if p.name in needs and p.late]
        if waits and not late:
            raise ValueError(f"{where}: part {name} reads the late part {waits[0]} but is not "
                             f"late itself; add it to LATE, or let it read what {waits[0]} reads")
        if late and volatile:
            raise ValueError(f"{where}: part {name} keeps state between calls and cannot be "
                             f"late; take it out of LATE")
        parts.append(Part(name, fn, tuple(reads), tuple(needs), volatile, late))
        names.add(name)
    stray = [fn for fn in getattr(module, "LATE", ()) if fn not in fns]
    if stray:
        raise ValueError(f"{where}: LATE names {getattr(stray[0], '__name__', stray[0])!r}, "
                         f"which is not one of its PARTS; declare it in PARTS too")
    return parts


def fingerprint(widget, part, params, keys):
    """The key of a part for these inputs: 12 hex digits of a hash of what it reads."""
    read = [params.get(k) for k in part.reads] + [keys[p] for p in part.needs]
    text = json.dumps([widget, part.name, read], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def laid_over(base, more, owner, name, path, owners, widget):
    """The dict `base` with the keys of part `name`'s dict `more` added (a new dict: the parts
    are cached), refusing a key two parts give."""
    out = dict(base)
    for k, v in more.items():
        where = f"{path}{k}"
        if k in out:
            if not (isinstance(out[k], dict) and isinstance(v, dict)):
                raise ValueError(f"widget {widget}: parts {owners.get(where, owner)} and {name} "
                                 f"both give the view's key {where!r}; a key belongs to one "
                                 f"part (give it to one, or split the dict's keys)")
            out[k] = laid_over(out[k], v, owners.get(where, owner), name, where + ".", owners,
                               widget)
        else:
            out[k] = v
            owners[where] = name
    return out


def view(widget, parts, params, held=None):
    """The view of checked parameters: the parts whose key is not in `held` ({part: key}, what
    the page holds; None or {}: the whole view), with their keys under PARTS. With DEFER in
    `held`, late parts not cached may be left for a later call (named under LATER)."""
    return _assembled(widget, parts, params, held or {})[0]


def owners(widget, parts, params):
    """{key path: part name} of the whole view of these parameters, for every key a part gave
    (a dict two parts fill has the keys of each): what a message names as the place to fix."""
    return _assembled(widget, parts, params, {})[1]


def _assembled(widget, parts, params, held):
    """(the view of the parts not held, {key path: the part that gave it})."""
    keys, results = {}, {}
    for part in parts:
        keys[part.name] = None if part.volatile else fingerprint(widget, part, params, keys)

    def result(part):
        if part.name in results:
            return results[part.name]
        key = keys[part.name]
        kept = _cache.get(key) if key else None
        if kept is None:
            args = {k: params[k] for k in part.reads if k in params}  # an input not given: its default
            args.update({p: result(by_name[p])[0] for p in part.needs})
            made = part.fn(**args)
            computed[widget, part.name] += 1
            kept = (made, {k: v for k, v in made.items() if not k.startswith("_")})
            if key:
                _cache[key] = kept
                if len(_cache) > CACHE_SIZE:
                    _cache.popitem(last=False)
        elif key:
            _cache.move_to_end(key)
        results[part.name] = kept
        return kept

    by_name = {p.name: p for p in parts}
    wanted = [p for p in parts if keys[p.name] is None or held.get(p.name) != keys[p.name]]
    later = [p for p in wanted if p.late and keys[p.name] not in _cache] if held.get(DEFER) else []
    if len(later) == len(wanted):  # nothing else to bring: the late parts are what was asked
        later = []
    out, sent, owners = {}, {}, {}
    for part in wanted:
        if part in later:
            continue
        out = laid_over(out, result(part)[1], None, part.name, "", owners, widget)
        if keys[part.name] is not None:
            sent[part.name] = keys[part.name]
    out[PARTS] = sent
    if later:
        out[LATER] = [p.name for p in later]
    return out, owners


def cache_clear():
    _cache.clear()
