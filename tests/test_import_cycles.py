"""bookbuild/ has no import cycle: each module's imports are read with ast (those inside
functions too: an import deferred to a function's first call still makes the two modules
depend on each other, and such cycles are what deferred imports used to hide), and the graph
of bookbuild's modules must have no cycle. A failure names the modules of each cycle in
order."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "bookbuild"


def module_name(path, root=ROOT):
    """bookbuild/stages/load.py -> bookbuild.stages.load; a package's __init__.py -> the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root=ROOT):
    """{module name: its file} for every Python file of bookbuild/."""
    return {module_name(p, root): p for p in sorted((root / PACKAGE).rglob("*.py"))
            if "__pycache__" not in p.parts}


def imports(name, path, known):
    """The bookbuild modules the module `name` imports, anywhere in its file, with the packages
    Python runs on the way (importing bookbuild.renderers.pages runs bookbuild/renderers/
    __init__.py first), but for the importer's own, which are running already."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per extra dot
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            # `from package import module` imports that module; `from module import name` the module
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module
                       for a in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            found |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}
    return {t for t in found if t in known} - own


def graph(root=ROOT):
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges):
    """Every cycle of the graph, one per strongly connected component (Tarjan), each as the
    list of its modules in import order, starting and ending at the same one."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_path_through(sorted(c)[0], c, edges) for c in components]


def _path_through(start, component, edges):
    """A shortest cycle from `start` back to itself inside the component (breadth first)."""
    previous, queue = {start: None}, [start]
    for v in queue:
        for w in sorted(edges[v]):
            if w == start:
                path = [v]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return path[::-1] + [start]
            if w in component and w not in previous:
                previous[w] = v
                queue.append(w)
    raise AssertionError(f"no cycle through {start}")


def test_bookbuild_has_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles in bookbuild/ (break each: move what both need into a " \
        "module of its own, or pass it in):\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_check_finds_a_cycle_and_names_it(tmp_path):
    """The reader and the search themselves: a cycle through a deferred import inside a
    function, through `from . import x`, through a package's relative import and through a
    package's __init__.py is found."""
    pkg = tmp_path / PACKAGE
    (pkg / "stages").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "stages" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .stages import b\n")
    (pkg / "stages" / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "stages" / "c.py").write_text("from ..a import thing\n")
    (pkg / "d.py").write_text("from bookbuild import a\n")  # into the cycle, not part of it
    assert cycles(graph(tmp_path)) == [["bookbuild.a", "bookbuild.stages.b",
                                        "bookbuild.stages.c", "bookbuild.a"]]
    (pkg / "stages" / "c.py").write_text("import json\n")  # the way back gone
    assert cycles(graph(tmp_path)) == []
    # a package's __init__.py runs before any of its modules: a cycle through it counts
    (pkg / "stages" / "__init__.py").write_text("from bookbuild import d\n")
    assert cycles(graph(tmp_path)) == [["bookbuild.a", "bookbuild.stages", "bookbuild.d",
                                        "bookbuild.a"]]
