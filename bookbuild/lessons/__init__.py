"""The notebook lessons: what each widget's Jupyter notebook teaches, one module per widget,
in the widget's folder beside its view: pycore/widgets/dot_product/lesson.py for the view
pycore/widgets/dot_product/__init__.py (bookbuild/widget_parts.py).

A lesson module holds
    TITLE  the notebook's title;
    KEYS   the view's numbers the notebook prints;
    MOVED  parameters other than the book's block's, at which the lesson must hold as well
           (tests/test_notebooks.py runs every widget's notebook there too);
    lesson(params, view, same)
           the NumPy under the widget, step by step: each step starts with step("...") -- a
           sentence of Chinese, in Markdown -- and its code is everything up to the next step.
           The notebook shows the sentence as a Markdown cell, then the code as written,
           comments and all, as a code cell.

In the notebook the code runs after `params` (the widget's parameters), `view` (pycore's view
of them) and `same(mine, widget)` are set and NumPy is imported as `np`; `same` prints whether
our own NumPy gives the widget's number and stops the notebook when it does not. Every step
must hold for any parameters the widget allows.

A lesson sits in the widget's folder so that all of a widget is in one place, but it is no
part of what pycore ships: the pages' Pyodide archive and the notebooks' wheel leave it out
(widget_parts.shipped), as a lesson is the build's text for the notebooks. What every lesson
shares (step, EDITED_EXAMPLE) lives here. `python build.py new-widget NAME` writes a new
widget's lesson with its other parts.

The build reads a lesson's source with ast and never imports it (no NumPy in a build for
this); tests/test_notebooks.py imports every lesson and runs it.
"""
import ast
import importlib
from pathlib import Path

from .. import widget_parts
from ..errors import BuildError

FOLDER = widget_parts.FOLDER  # the widgets' folders, each with its lesson.py

# An edited running example, as a page sends it (pycore.example.checked_example's dict): 马路
# alive, 累 a doubled state, and the pronoun asking for a state too. The lessons of the widgets
# that follow the example are moved to it, so their notebooks must hold for the reader's
# example as well.
EDITED_EXAMPLE = {
    "x": [[1, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0], [1, 1, 0, 0, 0, 0],
          [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 2, 0],
          [0, 0, 0, 1, 0, 0]],
    "pronoun": [1, 1, 0, 0, 1, 0]}


def step(text):
    """Marks where a step of a lesson starts; `text` is its Markdown cell. Does nothing when a
    lesson runs: the notebook has no such call."""


module_name = widget_parts.module_name


def path_of(widget):
    return FOLDER / module_name(widget) / widget_parts.LESSON


def widgets():
    """The names of the widgets that have a lesson."""
    return sorted(p.parent.name.replace("_", "-") for p in FOLDER.glob(f"*/{widget_parts.LESSON}"))


def load(widget):
    """The widget's lesson module, imported: to run its lesson (needs NumPy) or read MOVED."""
    return importlib.import_module(f"pycore.widgets.{module_name(widget)}.lesson")


def read(widget):
    """The widget's lesson as the notebook shows it -- {"title", "keys", "steps": [(Markdown,
    code)]} -- or None when it has none yet."""
    path = path_of(widget)
    try:
        source = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    tree = ast.parse(source, str(path))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("TITLE", "KEYS"):
            found[node.targets[0].id] = ast.literal_eval(node.value)
        elif isinstance(node, ast.FunctionDef) and node.name == "lesson":
            found["lesson"] = node
    missing = [name for name in ("TITLE", "KEYS", "lesson") if name not in found]
    if missing:
        raise BuildError(f"the lesson of widget {widget} has no {', '.join(missing)}; see "
                         "bookbuild/lessons/__init__.py for what a lesson holds", str(path))
    return {"title": found["TITLE"], "keys": found["KEYS"],
            "steps": _steps(found["lesson"], source.split("\n"), path)}


def _step_text(node):
    """The Markdown of a step("...") statement, or None for any other statement."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
            isinstance(node.value.func, ast.Name) and node.value.func.id == "step":
        args = node.value.args
        if len(args) != 1 or not isinstance(args[0], ast.Constant) or \
                not isinstance(args[0].value, str):
            raise ValueError("step() takes one string, the step's Markdown")
        return args[0].value
    return None


def _steps(function, lines, path):
    """[(Markdown, code)]: each step's code is the lines from its step() call to the next one
    (or the function's end), without the function's indentation and trailing blank lines."""
    marks = []
    for node in function.body:
        try:
            text = _step_text(node)
        except ValueError as e:
            raise BuildError(str(e), str(path), node.lineno) from None
        if text is not None:
            marks.append((node, text))
        elif not marks and not (isinstance(node, ast.Expr) and
                                isinstance(node.value, ast.Constant)):  # a docstring may lead
            raise BuildError("a lesson's code starts with step(\"...\"), the sentence that says "
                             "what it computes", str(path), node.lineno)
    ends = [node.lineno - 1 for node, _ in marks[1:]] + [function.end_lineno]
    steps = []
    for (node, text), end in zip(marks, ends):
        body = lines[node.end_lineno:end]
        while body and not body[-1].strip():
            body.pop()
        indent = " " * node.col_offset
        if any(line.strip() and not line.startswith(indent) for line in body):
            raise BuildError("a step's code must stay inside lesson()", str(path), node.lineno)
        steps.append((text, "\n".join(line[len(indent):] for line in body)))
    return steps
