"""The notebook lessons (bookbuild/lessons/): every lesson is a real module -- it compiles (and
passes pyflakes where pyflakes is installed), imports, belongs to a widget of pycore, and its
lesson() runs in this process at its MOVED parameters with a `same` that fails on the first
number that differs from pycore's view. The build's reader of a lesson's source refuses a
malformed one at its line. (tests/test_notebooks.py runs the notebooks themselves in a kernel.)"""
import importlib.util

import numpy as np
import pytest

from bookbuild import lessons
from bookbuild.errors import BuildError
from pycore.widgets import compute, module, validate

NAMES = lessons.widgets()


def test_every_lesson_is_a_widgets():
    assert len(NAMES) >= 30
    for name in NAMES:
        assert module(name), name  # raises for a lesson without a widget
        assert lessons.path_of(name).parent.name == name.replace("-", "_")


@pytest.mark.parametrize("name", NAMES)
def test_lesson_compiles_and_imports(name):
    path = lessons.path_of(name)
    source = path.read_text(encoding="utf-8")
    compile(source, str(path), "exec")
    if importlib.util.find_spec("pyflakes") is not None:
        from pyflakes.api import check
        from pyflakes.reporter import Reporter
        import io
        out = io.StringIO()
        assert check(source, str(path), Reporter(out, out)) == 0, out.getvalue()
    lesson = lessons.load(name)
    assert isinstance(lesson.TITLE, str) and lesson.TITLE
    assert lesson.KEYS and all(isinstance(k, str) for k in lesson.KEYS)
    assert validate(name, lesson.MOVED) == lesson.MOVED, f"{name}: MOVED must be valid, in full"


def _strict_same(mine, widget):
    mine, widget = (np.asarray(x, dtype=float) for x in (mine, widget))
    assert np.allclose(mine, widget, rtol=1e-9, atol=1e-9), (mine, widget)


@pytest.mark.parametrize("name", NAMES)
def test_lesson_runs_and_gives_the_views_numbers(name, capsys):
    """The lesson's code as a function, at its MOVED parameters: every same() holds, every
    key it prints is in the view, and it reads only names it defines or is given."""
    lesson = lessons.load(name)
    params = lesson.MOVED
    view = compute(name, params)
    assert set(lesson.KEYS) <= set(view), f"{name}: KEYS not in the view: " \
        f"{set(lesson.KEYS) - set(view)}"
    calls = []
    lesson.lesson(params, view, lambda mine, widget: calls.append(_strict_same(mine, widget)))
    assert calls, f"{name}: the lesson checks no number with same()"
    read = lessons.read(name)
    assert read["title"] == lesson.TITLE and read["keys"] == lesson.KEYS and read["steps"]


def test_the_reader_takes_cells_as_written_and_refuses_code_before_a_step(tmp_path, monkeypatch):
    monkeypatch.setattr(lessons, "FOLDER", tmp_path)
    (tmp_path / "toy_widget").mkdir()
    (tmp_path / "toy_widget" / "lesson.py").write_text(
        'import numpy as np\n\nfrom bookbuild.lessons import step\n\nTITLE = "玩具"\n'
        'KEYS = ["a"]\n\n\ndef lesson(params, view, same):\n'
        '    step(r"先算 $\\sqrt{a}$。")\n    a = np.sqrt(params["a"])  # 开方\n\n'
        '    if a > 1:\n        print(a)\n\n\n    step("再比较。")\n    same(a, view["a"])\n',
        encoding="utf-8")
    assert lessons.widgets() == ["toy-widget"]
    assert lessons.read("toy-widget") == {
        "title": "玩具", "keys": ["a"],
        "steps": [("先算 $\\sqrt{a}$。", 'a = np.sqrt(params["a"])  # 开方\n\nif a > 1:\n    print(a)'),
                  ("再比较。", 'same(a, view["a"])')]}
    (tmp_path / "toy_widget" / "lesson.py").write_text(
        'TITLE = "玩具"\nKEYS = ["a"]\n\n\ndef lesson(params, view, same):\n    a = 1\n'
        '    step("太晚了。")\n', encoding="utf-8")
    with pytest.raises(BuildError, match=r"toy_widget/lesson\.py:6: a lesson's code starts with step"):
        lessons.read("toy-widget")
    (tmp_path / "toy_widget" / "lesson.py").write_text('TITLE = "玩具"\n', encoding="utf-8")
    with pytest.raises(BuildError, match=r"toy_widget/lesson\.py: the lesson of widget toy-widget has "
                                         r"no KEYS, lesson"):
        lessons.read("toy-widget")
    assert lessons.read("no-such-widget") is None
