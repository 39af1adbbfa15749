"""Stage 3 -- expand widget blocks: validate parameters, compute the first numbers with pycore.

A widget block is a fenced block whose info string is `widget <name>`; its body is TOML:

    ```widget attention
    query = "它"
    causal = true
    ```

The widget's parameters are declared as data in its view, `pycore/widgets/<module>/__init__.py`
(PARAMS), and checked by pycore.widgets.check_value -- the same check the browser runs on
every live change. Every problem is a BuildError at the block's line.
"""
import importlib
import pkgutil
import re
import tomllib
from pathlib import Path

from .. import widget_parts
from ..errors import BuildError, clip, short, toml_error
from .markdown import PAGE_IDS
from ..renderers.output import file_version

RESERVED = {"id": "a unique name for this widget instance (letters, digits, '-')",
            "label": "a label for references to this figure: label = \"fig:name\", cited [@fig:name]"}
PYCORE = Path(__file__).resolve().parents[2] / "pycore"


def registry():
    """The pycore.widgets package as currently imported (the preview server may re-import it)."""
    return importlib.import_module("pycore.widgets")


def _describe(spec):
    return registry().describe(spec)


def known_widgets():
    return sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(registry().__path__))


def parse_block(name, body, file, line):
    """(widget name, TOML body) at file:line -> (instance id or None, full validated params)."""
    if name not in known_widgets():
        raise BuildError(f"unknown widget {short(name)}; known widgets: {', '.join(known_widgets())}",
                         file, line)
    specs = _specs(name, file, line)
    try:
        given = tomllib.loads(body)
    except tomllib.TOMLDecodeError as e:
        what, body_line = toml_error(e)
        where = line + body_line if body_line else line
        raise BuildError(f"widget {name}: the parameters are not valid TOML ({what}); "
                         'write one "name = value" per line, strings in quotes', file, where)
    except RecursionError:
        raise BuildError(f"widget {name}: the parameters are nested too deeply", file, line)
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise BuildError(f"widget {name}: the parameters are not valid TOML ({e}); "
                         'write one "name = value" per line, strings in quotes', file, line)
    params = {}
    for key, value in given.items():
        key_line = _key_line(body, key, line)
        if isinstance(value, dict) or isinstance(value, list) and value and \
                all(isinstance(v, dict) for v in value):
            raise BuildError(f"widget {name}: {short(key)} is a TOML table; a widget block holds only "
                             '"name = value" lines (numbers, "strings", true/false, [lists])',
                             file, key_line)
        if key in RESERVED:
            continue
        if key not in specs:
            allowed = ", ".join(f"{k} ({_describe(s)})" for k, s in specs.items())
            raise BuildError(f"widget {name} has no parameter {short(key)}; allowed: {allowed}",
                             file, key_line)
        try:
            params[key] = registry().check_value(key, value, specs[key])
        except ValueError as e:
            raise BuildError(f"widget {name}: {e}", file, key_line)
    instance_id = given.get("id")
    if instance_id is not None and not (isinstance(instance_id, str) and instance_id
                                        and all(c.isalnum() or c == "-" for c in instance_id)):
        raise BuildError(f"widget {name}: id must be letters, digits and '-', got "
                         f"{short(instance_id)}",
                         file, _key_line(body, "id", line))
    for key, spec in specs.items():
        params.setdefault(key, spec["default"])
    label = given.get("label")
    if label is not None and not isinstance(label, str):
        raise BuildError(f'widget {name}: label must be a string, label = "fig:name"', file,
                         _key_line(body, "label", line))
    return instance_id, label, params


def _specs(name, file, line):
    """The widget's PARAMS; a widget whose parts are broken is reported at the block's line."""
    try:
        specs = registry().module(name).PARAMS
    except Exception as e:  # a widget being written: syntax error, missing PARAMS, ...
        raise BuildError(f"widget {name}: {_rel(widget_parts.part(name, widget_parts.VIEW))} "
                         f"cannot be loaded ({type(e).__name__}: {e})", file, line)
    template = widget_parts.part(name, widget_parts.TEMPLATE)
    if not template.is_file():
        raise BuildError(f"widget {name} has no template {_rel(template)}", file, line)
    return specs


def _rel(path):
    return path.relative_to(widget_parts.ROOT).as_posix()


def _key_line(body, key, fence_line):
    """The line of `key = ...` (or of a [key] / [[key]] table header) in the block."""
    quoted = re.escape(key), re.escape(f'"{key}"'), re.escape(f"'{key}'")
    pattern = re.compile(r"\s*(\[\[?\s*)?(%s)\s*[=.\]]" % "|".join(quoted))
    for n, text in enumerate(body.split("\n"), 1):
        if pattern.match(text):
            return fence_line + n
    return fence_line


def check_id_is_free(wid, chapter, line):
    """A widget's id is its element's id and a link target: it may not be the page's own or
    one of the chapter's heading anchors."""
    if wid in PAGE_IDS:
        raise BuildError(f"widget id {wid!r} is used by the page itself; choose another id",
                         chapter.path, line)
    if wid in {anchor for _, _, anchor in chapter.headings}:
        raise BuildError(f"widget id {wid!r} is also a heading's anchor in this chapter "
                         f"(links to #{wid} would be ambiguous); give the widget another id",
                         chapter.path, line)


def claim_id(env, wid, file, line):
    """Widget ids are unique in the whole book (they name embed pages and URL state)."""
    if wid in env["widget_ids"]:
        raise BuildError(f"duplicate widget id {short(wid)} (first at {env['widget_ids'][wid]}); "
                         "give each widget block a unique id", file, line)
    env["widget_ids"][wid] = f"{file}:{line}"


def expand_widgets(chapter, tokens, env):
    """Token rule: annotate every widget fence with its validated params and first view."""
    for t in tokens:
        words = t.info.split()
        if t.type != "fence" or not words or words[0] != "widget":
            continue  # a code block (```widgets or ```python is just code)
        line = t.map[0] + 1
        if len(words) != 2:
            raise BuildError(f"a widget block starts with ```widget <name>; got "
                             f"```{clip(t.info.strip())}", chapter.path, line)
        name = words[1]
        instance_id, label, params = parse_block(name, t.content, chapter.path, line)
        # default ids are chapter-local (stable links, and chapters can be rebuilt alone)
        n = sum(1 for w in chapter.widgets if w["name"] == name) + 1
        wid = instance_id or f"{name}-{chapter.slug}" + (f"-{n}" if n > 1 else "")
        check_id_is_free(wid, chapter, _key_line(t.content, "id", line))
        claim_id(env, wid, chapter.path, line)
        try:
            view = registry().compute(name, params)
        except Exception as e:  # a parameter combination the view cannot handle
            raise BuildError(f"widget {name}: pycore could not compute these parameters: {e}",
                             chapter.path, line)
        module = registry().module(name)
        # what a view accepts from a reader's link (and answers with a note) may still be a
        # mistake in the book's own block: the widget's check_block says so
        problem = getattr(module, "check_block", lambda params: None)(params)
        if problem:
            raise BuildError(f"widget {name}: {problem}", chapter.path, line)
        # as the worker fetches them: assets/pycore-data/<name>?v=<content hash>
        files = [f"{f}?v={file_version(PYCORE / f)}" for f in getattr(module, "DATA_FILES", ())]
        # a view that takes the reader's edited example follows the page's example editor
        follows = "example" in getattr(module, "INPUTS", ())
        t.meta["widget"] = {"name": name, "id": wid, "params": params, "view": view, "line": line,
                            "files": files, "label": label, "example": follows}
        chapter.widgets.append(t.meta["widget"])
