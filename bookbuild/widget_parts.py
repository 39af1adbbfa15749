"""Where a widget's parts live: all of them in one folder named for it, beside its view.

    pycore/widgets/<module>/     (<module>: the widget's name, dashes as underscores)
        __init__.py      the view: PARAMS, view(...) -- what `pycore.widgets.<module>` imports
        template.html    the pre-rendered markup (loaded by the build as widgets/<name>.html)
        widget.js        mount(root, runtime), served as assets/widgets/<name>.js
        widget.css       its styles (if it has any), appended to assets/book.css
        lesson.py        what its Jupyter notebook teaches (bookbuild/lessons/__init__.py)

Only the view ships to the readers: the pycore archive Pyodide unpacks and the notebooks'
wheel leave out every other part (shipped()), so markup, scripts, styles and lessons never
grow what each page downloads. The site keeps its addresses: a widget's script and styles are
served from assets/widgets/ as before (site_assets()).
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "pycore" / "widgets"
VIEW, TEMPLATE, SCRIPT, STYLE, LESSON = (
    "__init__.py", "template.html", "widget.js", "widget.css", "lesson.py")
NOT_SHIPPED = (TEMPLATE, SCRIPT, STYLE, LESSON)


def module_name(name):
    """The widget's name as its folder and module are named: dashes become underscores."""
    return name.replace("-", "_")


def folder(name):
    return FOLDER / module_name(name)


def part(name, file):
    """One of the widget's parts (VIEW, TEMPLATE, ...), whether it exists or not."""
    return folder(name) / file


def names():
    """Every widget's name: each folder of pycore/widgets/ that holds a view."""
    return sorted(p.parent.name.replace("_", "-") for p in FOLDER.glob(f"*/{VIEW}"))


def site_assets():
    """(source file, path under site/assets/) of every widget's script and styles, in the
    order of their site paths: widgets/<name>.js and widgets/<name>.css."""
    found = [(part(name, file), f"widgets/{name}{suffix}")
             for name in names() for file, suffix in ((SCRIPT, ".js"), (STYLE, ".css"))]
    return sorted(((src, rel) for src, rel in found if src.is_file()), key=lambda f: f[1])


def _widget_part(path, files):
    """Whether `path` (absolute, or relative to the repository) is one of `files` of a widget's
    folder."""
    path = Path(path)
    if path.is_absolute() and path.is_relative_to(ROOT):
        path = path.relative_to(ROOT)
    return path.name in files and path.parent.parent == FOLDER.relative_to(ROOT)


def front_end(path):
    """Whether a file is a widget's script or styles: the page's, not the build's."""
    return _widget_part(path, (SCRIPT, STYLE))


def shipped(path):
    """Whether a file under pycore/ goes to the readers (Pyodide's archive, the wheel): all but
    a widget folder's template, script, styles and lesson."""
    return not _widget_part(path, NOT_SHIPPED)
